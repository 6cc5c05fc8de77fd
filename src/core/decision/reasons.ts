/**
 * Every way a decision can end with a human instead of a message. One closed union, so a
 * dashboard or a `switch` can be exhaustive.
 */
export const escalationReasons = [
  "model_escalated",
  "unparseable_output",
  "invalid_proposal",
  "unknown_template",
  "record_not_found",
  "slot_rejected",
  "recipient_unresolved",
  "content_flagged",
  "records_invalid",
  "limit_exceeded",
  "approval_required",
  "delivery_failed",
  "destination_suppressed",
] as const;

/** Why a ticket went to the human queue. */
export type EscalationReason = (typeof escalationReasons)[number];

/** One line per reason: what happened and what usually fixes it. */
export const reasonDescriptions: Readonly<Record<EscalationReason, string>> = {
  model_escalated: "the model chose to escalate, with one of the catalog's escalation codes",
  unparseable_output: "the model's output was not JSON, or too large to read",
  invalid_proposal: "wrong shape: unknown keys, wrong types, missing or extra slots, over-long strings",
  unknown_template: "the template id is not in the catalog",
  record_not_found: "a handle names no record of this ticket's collection",
  slot_rejected:
    "a record failed the slot's `where`, or its value failed formatting, length or channel limits",
  recipient_unresolved: "the recipient record has no valid email address or phone number",
  content_flagged: "the rendered message holds an address, number, URL or ID that is not a resolved value",
  records_invalid: "the loaded ticket records failed their schema or hold duplicate IDs",
  limit_exceeded:
    "a per-ticket, per-day or per-run limit of the template was reached, or a value ceiling (limit: ceiling)",
  approval_required: "the template needs a human to approve the rendered draft",
  delivery_failed: "the transport failed after its last retry",
  destination_suppressed:
    "the recipient's address hard-bounced or its owner complained before; a person lifts the suppression to send again",
};

/** True when `value` is one of the closed escalation reasons. */
export function isEscalationReason(value: unknown): value is EscalationReason {
  return typeof value === "string" && (escalationReasons as readonly string[]).includes(value);
}
