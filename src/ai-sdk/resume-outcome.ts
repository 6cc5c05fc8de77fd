import type { FoundApproval } from "../agent-tools/find-approval.js";
import { outcomeText, type ToolOutcome } from "../agent-tools/outcome.js";

/**
 * What a tool call resumed after an approval response says beyond a {@link ToolOutcome}, read from the
 * outbox's queue, never from the conversation:
 * - `closed`: a person rejected the draft, or closed its item another way; nothing was sent.
 * - `not_queued`: the outbox holds no approval for this call (a call written into the history by hand,
 *   or one that never needed approval): the approval in the conversation sends nothing.
 * - `approval_at_relay`: the call went to a relay, where a person approves it with an operator token;
 *   the approval in the conversation sends nothing by itself.
 */
export type ResumeOutcome =
  | {
      readonly outcome: "closed";
      readonly template: string;
      readonly queueItemId: string;
      readonly status: "rejected" | "resolved";
    }
  | { readonly outcome: "not_queued" }
  | { readonly outcome: "approval_at_relay" };

/** What a formletter tool returns to the AI SDK: the outcome of the call, as data. */
export type FormletterToolOutput = ToolOutcome | ResumeOutcome;

/** The outcome of a resumed call from what the queue holds for it: approved means sent, by a person. */
export function resumeOutcome(found: FoundApproval): FormletterToolOutput {
  if (!found.found)
    return found.why === "records_unavailable" ? { outcome: "unavailable" } : { outcome: "not_queued" };
  const { item } = found;
  const template = item.template ?? "requested";
  switch (item.status) {
    case "approved":
      return { outcome: "sent", template };
    case "open":
    case "claimed":
      return { outcome: "queued_for_approval", template, queueItemId: item.id };
    case "rejected":
    case "resolved":
      return { outcome: "closed", template, queueItemId: item.id, status: item.status };
    default:
      // A status this version does not know is treated as closed, as the queue treats it.
      return { outcome: "closed", template, queueItemId: item.id, status: "resolved" };
  }
}

/** The output as the one short, code-written line the model reads. */
export function outputText(output: FormletterToolOutput): string {
  switch (output.outcome) {
    case "closed":
      return output.status === "rejected"
        ? `Rejected: a person rejected the ${output.template} message (queue item ${output.queueItemId}); nothing was sent. Do not propose it again.`
        : `Closed: a person closed the ${output.template} message (queue item ${output.queueItemId}) without sending it; nothing was sent. Do not propose it again.`;
    case "not_queued":
      return "No approval pending: no message of this call waits for a person's approval, so an approval in the conversation sends nothing.";
    case "approval_at_relay":
      return "Waiting for approval: a person approves this message at the relay; an approval in the conversation sends nothing by itself. Do not propose it again.";
    default:
      return outcomeText(output);
  }
}
