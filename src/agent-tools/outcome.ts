import { z } from "zod";
import { type EscalationReason, escalationReasons } from "../core/decision/reasons.js";

/**
 * What a tool call did, as the model sees it: built in code from the outcome of `outbox.handle()` (or
 * the relay's answer). It carries the template id, the escalation reason, the model-safe hint and the
 * queue item id: never a record value, the message, its recipient, or text a caller or outsider wrote.
 *
 * - `sent`: the message was accepted; `delivery` says whether it went out already.
 * - `queued_for_approval`: a person approves the exact draft (queue item `queueItemId`) before it goes.
 * - `escalated`: nothing was sent; a person takes the ticket. `hint` lists what a corrected call could use.
 * - `duplicate`: an identical call was handled before (`first` says how); nothing new was sent.
 * - `relay_unreachable`: no answer from the relay; repeating the same call is safe (it cannot send twice).
 * - `refused`: the relay refused the request itself (`code`, e.g. `token_expired`); nothing was sent.
 * - `unavailable`: the outbox could not record the call (its store is down or it is closed); retry is safe.
 *
 * @example
 * import type { ToolOutcome } from "formletter/agent-tools";
 * const done = (outcome: ToolOutcome) => outcome.outcome === "sent" || outcome.outcome === "duplicate";
 */
export type ToolOutcome =
  | {
      readonly outcome: "sent";
      readonly template: string;
      /** Where the message stands; absent when the relay does not say. */
      readonly delivery?: "delivered" | "pending" | "shadow";
    }
  | { readonly outcome: "queued_for_approval"; readonly template: string; readonly queueItemId: string }
  | {
      readonly outcome: "escalated";
      readonly reason: EscalationReason;
      /** Valid template ids, handles or keys, where a corrected call could succeed. */
      readonly hint?: string;
      /** The slot at fault, when one is. */
      readonly slot?: string;
    }
  | {
      readonly outcome: "duplicate";
      readonly first: "sent" | "queued_for_approval" | "escalated";
      readonly queueItemId?: string;
    }
  | { readonly outcome: "relay_unreachable" }
  | { readonly outcome: "refused"; readonly code: string }
  | { readonly outcome: "unavailable" };

/** The outcome names, in the order the docs list them. */
export const toolOutcomes = [
  "sent",
  "queued_for_approval",
  "escalated",
  "duplicate",
  "relay_unreachable",
  "refused",
  "unavailable",
] as const;

/**
 * The outcome as one flat zod object (an MCP `outputSchema` must be an object at its root): `outcome`
 * says which of the optional fields are set, as {@link ToolOutcome} spells out.
 *
 * @example
 * import { toolOutcomeSchema } from "formletter/agent-tools";
 * import { z } from "zod";
 * const outputSchema = z.toJSONSchema(toolOutcomeSchema);
 */
export const toolOutcomeSchema = z.object({
  outcome: z.enum(toolOutcomes),
  template: z.string().meta({ description: "The template id." }).optional(),
  delivery: z.enum(["delivered", "pending", "shadow"]).optional(),
  queueItemId: z.string().meta({ description: "The human queue item a person decides." }).optional(),
  reason: z.enum(escalationReasons).optional(),
  hint: z.string().meta({ description: "What a corrected call could use." }).optional(),
  slot: z.string().optional(),
  first: z.enum(["sent", "queued_for_approval", "escalated"]).optional(),
  code: z.string().meta({ description: "Why the relay refused the request." }).optional(),
});

const firstWords: Readonly<Record<Extract<ToolOutcome, { outcome: "duplicate" }>["first"], string>> = {
  sent: "was sent",
  queued_for_approval: "went to a person for approval",
  escalated: "was escalated to a person",
};

/**
 * The outcome as one short line of text for the model: every word written here, the rest ids and
 * the hint (which lists handles and keys only).
 *
 * @example
 * import { outcomeText } from "formletter/agent-tools";
 * outcomeText({ outcome: "relay_unreachable" }); // "Relay unreachable: …"
 */
export function outcomeText(outcome: ToolOutcome): string {
  switch (outcome.outcome) {
    case "sent": {
      const where =
        outcome.delivery === "pending"
          ? "accepted and queued for delivery"
          : outcome.delivery === "shadow"
            ? "recorded (shadow mode: nothing is delivered)"
            : "sent";
      return `Sent: the ${outcome.template} message was ${where}. Do not send it again.`;
    }
    case "queued_for_approval":
      return `Queued for approval: a person must approve the ${outcome.template} message (queue item ${outcome.queueItemId}) before it is sent. Do not propose it again.`;
    case "escalated": {
      const retry = outcome.hint === undefined ? "" : ` A corrected call may succeed: ${outcome.hint}`;
      const slot = outcome.slot === undefined ? "" : ` (slot ${outcome.slot})`;
      return `Escalated (${outcome.reason})${slot}: nothing was sent; a person will see the ticket.${retry}`;
    }
    case "duplicate":
      return `Duplicate: an identical call was handled before and ${firstWords[outcome.first]}${outcome.queueItemId === undefined ? "" : ` (queue item ${outcome.queueItemId})`}; nothing new was sent.`;
    case "relay_unreachable":
      return "Relay unreachable: no answer came. Repeating the same call is safe: it cannot send twice.";
    case "refused":
      return `Refused (${outcome.code}): the relay did not accept the request; nothing was sent.`;
    case "unavailable":
      return "Unavailable: the outbox could not record the call; nothing new was sent. Repeating the same call later is safe.";
  }
}
