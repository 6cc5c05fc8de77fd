import type { EscalationReason } from "../core/decision/reasons.js";
import type { Template } from "../core/definition/template-types.js";

/**
 * Each escalation reason as a reviewer reads it next to the combinations that end so: what the model's
 * choice did and why a person gets the ticket, without the SDK's own terms.
 */
export const reasonForReviewer: Readonly<Record<EscalationReason, string>> = {
  model_escalated: "the model chose to hand the ticket to a person",
  unparseable_output: "the model's answer could not be read",
  invalid_proposal:
    "the choice is incomplete or malformed: a required slot left empty, or a slot the template does not have",
  unknown_template: "the model named a template the catalog does not have",
  record_not_found: "the model named a record this ticket does not hold",
  slot_rejected:
    "a chosen record does not meet the condition the template sets for that slot, or its value is too long or cannot be written on this channel",
  recipient_unresolved: "the chosen recipient has no usable email address or phone number",
  content_flagged:
    "the message would hold an address, number, link or id that is not one of the chosen records' values",
  records_invalid: "the ticket's records do not match their schema",
  limit_exceeded: "the message would go over one of the template's limits or amount ceilings",
  approval_required: "a person must approve the message before it is sent",
  delivery_failed: "the message could not be delivered",
  destination_suppressed:
    "the address bounced for good or its owner complained, so nothing more is sent to it",
};

/** What the first message to an address never written to before does, in words. */
export function firstContactText(template: Pick<Template, "firstContact">): string {
  switch (template.firstContact) {
    case "hold":
      return "held: the first message to an address never written to before waits for a person";
    case "send":
      return "sent: a first message to a new address goes out as decided, and is recorded";
    case undefined:
      return "not set: the outbox's default decides (send, unless the outbox is set to hold)";
  }
}

/** What the template's own code (conditions on records, computed values) may see, in words. */
export function codeSeesText(template: Pick<Template, "audience">): string {
  return `conditions on records and computed values see only what ${template.audience} may read; the recipient is chosen without any field an outsider wrote`;
}
