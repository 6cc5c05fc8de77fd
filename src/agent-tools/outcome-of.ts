import type { EscalationReason } from "../core/decision/reasons.js";
import { isFormletterError } from "../core/errors.js";
import type { HandleResult } from "../outbox/index.js";
import type { ProposalReply } from "../relay/agent-routes.js";
import type { ToolOutcome } from "./outcome.js";

// Slot names and relay codes are identifiers written in code; anything else is left out rather than
// repeated to the model, so no caller-written text can come back through them.
const identifier = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** The fields every escalation outcome shares, from the decision's own reason, hint and slot. */
function escalated(reason: EscalationReason, hint: unknown, slot: unknown): ToolOutcome {
  return {
    outcome: "escalated",
    reason,
    ...(typeof hint === "string" && hint !== "" ? { hint } : {}),
    ...(typeof slot === "string" && identifier.test(slot) ? { slot } : {}),
  };
}

/** How a first, identical call ended, for a duplicate's outcome. */
function firstOf(sent: boolean, reason: EscalationReason | undefined) {
  if (sent) return "sent" as const;
  return reason === "approval_required" ? ("queued_for_approval" as const) : ("escalated" as const);
}

/** The outcome of `outbox.handle()`'s result: the decision's template, reason, hint and queue item. */
export function outcomeOfResult(result: HandleResult): ToolOutcome {
  const { decision } = result;
  const reason = decision.outcome === "escalate" ? decision.reason : undefined;
  if (result.duplicate) {
    return {
      outcome: "duplicate",
      first: firstOf(decision.outcome === "send", reason),
      ...(result.queueItemId === undefined ? {} : { queueItemId: result.queueItemId }),
    };
  }
  if (decision.outcome === "send") {
    const status = result.delivery?.status;
    // A delivery that failed for good is in the human queue: for the model, an escalation.
    if (status === "failed") return escalated("delivery_failed", undefined, undefined);
    const delivery = status === "delivered" ? "delivered" : status === "shadow" ? "shadow" : "pending";
    return { outcome: "sent", template: decision.template, delivery };
  }
  if (
    decision.reason === "approval_required" &&
    decision.template !== undefined &&
    result.queueItemId !== undefined
  )
    return { outcome: "queued_for_approval", template: decision.template, queueItemId: result.queueItemId };
  return escalated(decision.reason, decision.hint, "slot" in decision ? decision.slot : undefined);
}

/** The outcome of the relay's answer to a proposal (`POST /v1/proposals`). */
export function outcomeOfReply(reply: ProposalReply, template: string): ToolOutcome {
  const queueItemId = typeof reply.queueItemId === "string" ? reply.queueItemId : undefined;
  if (reply.duplicate === true) {
    return {
      outcome: "duplicate",
      first: firstOf(reply.outcome === "send", reply.reason),
      ...(queueItemId === undefined ? {} : { queueItemId }),
    };
  }
  if (reply.outcome === "send") return { outcome: "sent", template };
  const reason = reply.reason ?? "invalid_proposal";
  if (reason === "approval_required" && queueItemId !== undefined)
    return { outcome: "queued_for_approval", template, queueItemId };
  return escalated(reason, reply.hint, reply.slot);
}

/**
 * The outcome of a failed call: a relay that gave no answer, timed out, was busy (429) or failed
 * (5xx) is unreachable, and the same call is safe to repeat (its idempotency key is derived from the
 * proposal); a relay that refused the request (a bad or expired token) says why; anything else from
 * the outbox (a store down, the outbox closed) is unavailable. Never the error's message: it may
 * name internals.
 */
export function outcomeOfError(error: unknown): ToolOutcome {
  // Read by its code, not its class: another bundle's copy of the client throws another class.
  if (isFormletterError(error) && error.code === "relay_request_failed") {
    const { status, problem } = error as { status?: unknown; problem?: unknown };
    const code = typeof status === "number" ? status : 0;
    if (code === 0 || code === 429 || code >= 500) return { outcome: "relay_unreachable" };
    return {
      outcome: "refused",
      code: typeof problem === "string" && identifier.test(problem) ? problem : `http_${code}`,
    };
  }
  return { outcome: "unavailable" };
}
