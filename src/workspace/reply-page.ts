import { escapeForPage as e } from "../cli/html-page.js";
import type { PersonReplyRefusal, PersonReplyResult, ScanWarning } from "../outbox/index.js";
import type { QueueItem } from "../store/index.js";

/**
 * What a person's reply did, as one code of a closed list (the page shows the code's sentence, never
 * text from the request): sent, sent with the scan's warning of one kind, sent before, or refused.
 */
export const replyOutcomes = {
  replied: { text: "Your reply was sent to the ticket's recipient; the item is resolved.", refused: false },
  replied_email: {
    text: "Your reply was sent. Check it: it holds an e-mail address that is not in the ticket's records or the draft.",
    refused: true,
  },
  replied_phone: {
    text: "Your reply was sent. Check it: it holds a phone number that is not in the ticket's records or the draft.",
    refused: true,
  },
  replied_url: {
    text: "Your reply was sent. Check it: it holds a link that is not in the ticket's records or the draft.",
    refused: true,
  },
  replied_id: {
    text: "Your reply was sent. Check it: it holds an id that is not in the ticket's records or the draft.",
    refused: true,
  },
  reply_not_delivered: {
    text: "Your reply was recorded, but the transport did not deliver it: it comes back as a failed delivery.",
    refused: true,
  },
  reply_shadow: { text: "Your reply was recorded in shadow mode: nothing is delivered.", refused: false },
  reply_already_sent: { text: "This reply was already sent: nothing new is sent.", refused: true },
  reply_closed: {
    text: "This item was closed before your reply reached it: nothing was sent.",
    refused: true,
  },
  reply_no_recipient: {
    text: "This item has no recipient from the ticket's records: nothing was sent.",
    refused: true,
  },
  reply_text_empty: { text: "A reply needs 1 to 10,000 characters: nothing was sent.", refused: true },
  reply_text_too_long: {
    text: "A reply holds at most 10,000 characters: shorten it and send again. Nothing was sent.",
    refused: true,
  },
  reply_text_control: {
    text: "The reply holds a control or invisible character (other than a line break or tab): remove it. Nothing was sent.",
    refused: true,
  },
  reply_subject_invalid: {
    text: "A subject is one line of at most 200 characters, and only an email has one. Nothing was sent.",
    refused: true,
  },
  reply_suppressed: {
    text: "The recipient is suppressed (a hard bounce or a complaint): nothing was sent. Lift the suppression first if they asked to hear from you.",
    refused: true,
  },
  reply_unavailable: {
    text: "The reply could not be recorded: nothing is known to have been sent. Try again.",
    refused: true,
  },
} as const;

export type ReplyOutcome = keyof typeof replyOutcomes;

const warned: Record<ScanWarning, ReplyOutcome> = {
  email: "replied_email",
  phone: "replied_phone",
  url: "replied_url",
  id: "replied_id",
};

const refusals: Record<PersonReplyRefusal, ReplyOutcome | "not_found"> = {
  actor_invalid: "reply_unavailable",
  not_found: "not_found",
  closed: "reply_closed",
  no_recipient: "reply_no_recipient",
  text_empty: "reply_text_empty",
  text_too_long: "reply_text_too_long",
  text_control: "reply_text_control",
  subject_too_long: "reply_subject_invalid",
  subject_control: "reply_subject_invalid",
  subject_not_for_channel: "reply_subject_invalid",
  suppressed: "reply_suppressed",
};

/** The outcome code of a reply's result. */
export function replyOutcome(result: PersonReplyResult): ReplyOutcome | "not_found" {
  if (!result.ok) return refusals[result.refusal];
  if (!result.sentNow) return "reply_already_sent";
  const status = result.outbound?.status;
  if (status === "shadow") return "reply_shadow";
  if (status === "failed" || status === "in_doubt") return "reply_not_delivered";
  return result.warning === undefined ? "replied" : warned[result.warning];
}

/** The reply form: to whom (from the draft, not editable), the subject for an email, and the text. */
export function replyBody(item: QueueItem, context: { basePath: string; csrf: string }): string {
  const draft = item.draft;
  const itemPath = `${context.basePath}/items/${encodeURIComponent(item.id)}`;
  if (draft === undefined) return "";
  const subject =
    draft.channel === "email"
      ? `<label>subject<input type="text" name="subject" maxlength="200" value="${e(draft.subject ?? "")}"></label>`
      : "";
  return `<h1>Your reply on ticket ${e(item.ticketId)}</h1>
<p>To <strong>${e(draft.to)}</strong> by ${e(draft.channel)}: the recipient the decision resolved from the ticket's records. It is sent once, through the outbox's transports, and the item is then resolved as "replied". Addresses, numbers and links the ticket's records do not hold are pointed out after sending.</p>
<form class="action" method="post" action="${e(`${itemPath}/reply`)}"><input type="hidden" name="csrf" value="${e(context.csrf)}">${subject}<label>text<textarea name="text" required maxlength="10000" rows="10"></textarea></label><button type="submit">Send my reply</button></form>
<p><a href="${e(itemPath)}">Back to the item</a></p>`;
}
