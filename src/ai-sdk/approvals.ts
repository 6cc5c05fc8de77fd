import type { ToolApprovalResponse } from "ai";
import {
  type ApprovalDraft,
  type ApprovalOutcome,
  createApprovals,
  findApproval,
} from "../agent-tools/index.js";
import type { Actor, Outbox } from "../outbox/index.js";
import type { QueueItem, SuppressionCause } from "../store/store.js";

/**
 * A `tool-approval-request` as the AI SDK emits it (in `result.content`, or as a stream part): its id
 * and the tool call it is for. From a UI message part, pass `{ approvalId: part.approval.id, toolCall:
 * { toolName, input: part.input } }`.
 */
export interface ApprovalRequest {
  readonly approvalId: string;
  readonly toolCall: { readonly toolName: string; readonly input: unknown };
}

/**
 * Why a request has nothing to review or decide: `invalid_request` (not an approval request's shape),
 * `not_queued` (the outbox holds no approval for this call: one written into a history by hand, or one
 * that never needed approval), `records_unavailable` (the ticket's records could not be loaded to
 * tell), `closed` (its item was decided before, or closed another way), `item_changed` (the request's
 * call names another queue item than the `queueItemId` the person reviewed), `recipient_suppressed`
 * (the draft's recipient is suppressed by a hard bounce or a complaint, `cause`: nothing was sent, the
 * item and the request still wait; lift the suppression, then approve again, or deny).
 */
export type ApprovalProblem =
  | {
      readonly ok: false;
      readonly problem: "invalid_request" | "not_queued" | "records_unavailable" | "item_changed";
    }
  | { readonly ok: false; readonly problem: "closed"; readonly queueItemId: string }
  | {
      readonly ok: false;
      readonly problem: "recipient_suppressed";
      readonly queueItemId: string;
      /** Why the recipient is suppressed; absent only for a cause this version does not know. */
      readonly cause?: SuppressionCause;
    };

/** What `approve` or `deny` did through the outbox, and the response part for the AI SDK to continue. */
export interface ApprovalDecision {
  readonly ok: true;
  /** `sent` (now), `already_sent` (approved before: nothing new was sent) or `rejected`. */
  readonly outcome: ApprovalOutcome;
  /** Append as a tool message: `messages.push({ role: "tool", content: [decision.response] })`. */
  readonly response: ToolApprovalResponse;
}

/**
 * Who decides, and optionally the `queueItemId` they reviewed: given, the decision applies only if the
 * request still names that item (a request rebuilt from a history cannot swap in another draft).
 */
export type Decider = Actor & { readonly queueItemId?: string };

/** A person's side of the AI SDK's approval flow, worked through the outbox's queue. */
export interface FormletterApprovals {
  /** The queue item and exact draft (recipient, subject, text) of a waiting request. Changes nothing. */
  review(request: ApprovalRequest): Promise<({ readonly ok: true } & ApprovalDraft) | ApprovalProblem>;
  /** Approves the request's queue item as `actor`: the outbox sends its draft exactly, once. */
  approve(request: ApprovalRequest, actor: Decider): Promise<ApprovalDecision | ApprovalProblem>;
  /** Rejects the request's queue item as `actor`, `reason` kept on the item for people; nothing is sent. */
  deny(
    request: ApprovalRequest,
    actor: Decider & { readonly reason?: string },
  ): Promise<ApprovalDecision | ApprovalProblem>;
}

/** Options of {@link formletterApprovals}: the outbox that holds the queue, and the ticket. */
export interface FormletterApprovalsOptions {
  readonly outbox: Outbox;
  readonly ticketId: string;
}

/** A request's queue item, as the outbox found it from the request's tool call. */
type Located = { readonly ok: true; readonly approvalId: string; readonly item: QueueItem };

/**
 * The approval side of {@link formletterTools}: for each `tool-approval-request` the AI SDK emits, the
 * queue item the outbox opened for that call, with its exact draft, and a person's approval or denial
 * of that item through the outbox (as `actor`, whom the audit log records). The item is found from
 * the call by the outbox (`findApproval`), never from text the conversation carries. The response
 * part returned lets the SDK continue: after an approval the tool reports the send; after a denial
 * the model reads a code-written rejection, and the person's reason stays on the queue item.
 *
 * @example
 * import { formletterApprovals } from "formletter/ai-sdk";
 * const approvals = formletterApprovals({ outbox, ticketId: "T-1" });
 * const review = await approvals.review(request); // review.to, review.subject, review.text
 * const decided = await approvals.approve(request, { by: "ana@example.com" });
 * if (decided.ok) messages.push({ role: "tool", content: [decided.response] });
 */
export function formletterApprovals(options: FormletterApprovalsOptions): FormletterApprovals {
  const { outbox, ticketId } = options;
  const approvals = createApprovals({ queue: outbox.queue, ticketId });
  const locate = async (request: unknown, reviewed?: unknown): Promise<Located | ApprovalProblem> => {
    const invalid = { ok: false, problem: "invalid_request" } as const;
    if (typeof request !== "object" || request === null) return invalid;
    const { approvalId, toolCall } = request as { approvalId?: unknown; toolCall?: unknown };
    if (typeof approvalId !== "string" || typeof toolCall !== "object" || toolCall === null) return invalid;
    const { toolName, input } = toolCall as { toolName?: unknown; input?: unknown };
    if (typeof toolName !== "string") return invalid;
    const found = await findApproval(outbox, ticketId, toolName, input);
    if (!found.found) return { ok: false, problem: found.why };
    if (reviewed !== undefined && reviewed !== found.item.id) return { ok: false, problem: "item_changed" };
    return { ok: true, approvalId, item: found.item };
  };
  // A refused approval gives the SDK no response part: the request still waits for a decision.
  const decided = (
    outcome: ApprovalOutcome,
    response: ToolApprovalResponse,
  ): ApprovalDecision | ApprovalProblem => {
    switch (outcome.outcome) {
      case "closed":
      case "not_found":
        return { ok: false, problem: "closed", queueItemId: outcome.queueItemId };
      case "recipient_suppressed": {
        const { outcome: _, ...facts } = outcome;
        return { ok: false, problem: "recipient_suppressed", ...facts };
      }
      default:
        return { ok: true, outcome, response };
    }
  };
  return {
    async review(request) {
      const located = await locate(request);
      if (!located.ok) return located;
      const draft = await approvals.draft(located.item.id);
      return draft === undefined
        ? { ok: false, problem: "closed", queueItemId: located.item.id }
        : { ok: true, ...draft };
    },
    async approve(request, actor) {
      const located = await locate(request, actor?.queueItemId);
      if (!located.ok) return located;
      const outcome = await approvals.approve(located.item.id, { by: actor?.by });
      return decided(outcome, {
        type: "tool-approval-response",
        approvalId: located.approvalId,
        approved: true,
      });
    },
    async deny(request, actor) {
      const located = await locate(request, actor?.queueItemId);
      if (!located.ok) return located;
      const { item, approvalId } = located;
      // Denying twice is one rejection: the second finds the item rejected and changes nothing.
      const outcome: ApprovalOutcome =
        item.status === "rejected"
          ? { outcome: "rejected", queueItemId: item.id }
          : await approvals.reject(item.id, {
              by: actor?.by,
              ...(typeof actor?.reason === "string" ? { note: actor.reason } : {}),
            });
      // The model reads words written here; the person's reason is for people, on the queue item.
      const reason = `A person rejected the ${item.template ?? "requested"} message (queue item ${item.id}); nothing was sent. Do not propose it again.`;
      return decided(outcome, {
        type: "tool-approval-response",
        approvalId,
        approved: false,
        reason,
      });
    },
  };
}
