import type { KeyObject } from "node:crypto";
import { hash } from "node:crypto";
import type { Message } from "../core/decision/decision.js";
import { scanMessage } from "../core/scan/scan.js";
import { actorNameOf } from "../core/visible-name.js";
import { newOutboundRow, type OutboundRow, type QueueItem, type StoreTransaction } from "../store/store.js";
import { destinationHash } from "./first-contact.js";

/** What a person's own reply to a queue item's recipient takes. */
export interface PersonReplyInput {
  readonly queueItemId: string;
  /** The reply's plain text: 1 to 10,000 characters, newlines and tabs allowed, no other control character. */
  readonly text: string;
  /** Email only: one line of at most 200 characters. @default the draft's subject */
  readonly subject?: string;
  /** Who writes it, as the audit log records it (the operator's id). */
  readonly by: string;
}

/** Why a person's reply was refused; nothing was written or sent. */
export type PersonReplyRefusal =
  | "actor_invalid"
  | "not_found"
  | "closed"
  | "no_recipient"
  | "text_empty"
  | "text_too_long"
  | "text_control"
  | "subject_too_long"
  | "subject_control"
  | "subject_not_for_channel"
  | "suppressed";

/** What sending a person's reply did. */
export type PersonReplyResult =
  | {
      readonly ok: true;
      /** False when this very reply was sent before (a double submit): nothing new was sent. */
      readonly sentNow: boolean;
      readonly item: QueueItem;
      readonly outbound: OutboundRow | undefined;
      /**
       * What the content scan found that the ticket's records do not account for (an address, number,
       * link or id the person typed): shown to the person, never a block.
       */
      readonly warning: ScanWarning | undefined;
    }
  | { readonly ok: false; readonly refusal: PersonReplyRefusal; readonly message: string };

/** What the content scan found in a person's reply: an e-mail address, phone number, link or id. */
export type ScanWarning = "email" | "phone" | "url" | "id";

/** The template name of a person's reply on its outbound row: not a catalog id (those start with a letter). */
export const personTemplate = "@person";
/** The audit action of a person's reply, which `formletter mine --audit` reads. */
export const personReplyAction = "person_reply";

const maxText = 10_000;
const maxSubject = 200;
/** The ticket's records kept with a reply for mining, when their JSON is at most this long. */
const maxRecordsJson = 65_536;

const messages: Record<PersonReplyRefusal, string> = {
  actor_invalid: "who replies must be a readable name of 1 to 200 characters",
  not_found: "no such queue item",
  closed: "the item is closed: a reply is written only to an item still waiting",
  no_recipient:
    "the item has no recipient resolved from the ticket's records (no draft): reply outside formletter and resolve it",
  text_empty: "the reply is empty: write 1 to 10,000 characters",
  text_too_long: "the reply holds more than 10,000 characters: shorten it",
  text_control:
    "the reply holds a control or invisible character (other than a newline or tab): remove it and send again",
  subject_too_long: "the subject holds more than 200 characters: shorten it",
  subject_control:
    "the subject is one line without control or invisible characters: remove line breaks and send again",
  subject_not_for_channel: "only an email has a subject: leave it empty for this recipient",
  suppressed:
    "the recipient is suppressed (a hard bounce or a complaint): lift the suppression first if the person asked to be written to again",
};

export const refusedReply = (refusal: PersonReplyRefusal): PersonReplyResult => ({
  ok: false,
  refusal,
  message: `sendPersonReply: ${messages[refusal]}`,
});

// Control characters but newline and tab, and format characters (bidi controls, zero-width ones).
const textForbidden = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
const allowedInText = /[\n\t]/g;

/** The checked text and subject, or the refusal. CRLF and CR line ends read as newlines. */
export function checkReply(
  input: PersonReplyInput,
): { text: string; subject: string | undefined; by: string } | PersonReplyRefusal {
  const by = actorNameOf(input?.by);
  if (by === undefined) return "actor_invalid";
  if (typeof input.text !== "string") return "text_empty";
  const text = input.text.replace(/\r\n?/g, "\n");
  if (text.trim() === "") return "text_empty";
  if (text.length > maxText) return "text_too_long";
  if (textForbidden.test(text.replace(allowedInText, ""))) return "text_control";
  const subject = input.subject === undefined || input.subject.trim() === "" ? undefined : input.subject;
  if (subject !== undefined) {
    if (typeof subject !== "string" || textForbidden.test(subject)) return "subject_control";
    if (subject.length > maxSubject) return "subject_too_long";
  }
  return { text, subject: subject?.trim(), by };
}

/**
 * The reply's idempotency key: the item and the exact reply. The same reply posted twice has one key,
 * so it is sent once; a different reply to the same item is refused, the item being closed by then.
 */
export function personReplyKey(itemId: string, subject: string | undefined, text: string): string {
  return `person:${hash("sha256", JSON.stringify([itemId, subject ?? null, text]), "hex")}`;
}

/**
 * The content scan of template messages, run on the person's text: every address, number or link must
 * be the recipient or text of the draft (which holds the decision's values as rendered). A person may write anything: what it
 * finds is a warning for them, never a block.
 */
export function replyWarning(item: QueueItem, text: string): ScanWarning | undefined {
  const draft = item.draft;
  return scanMessage(text, {
    literal: draft === undefined ? "" : `${draft.subject ?? ""}\n${draft.text}`,
    formatted: draft === undefined ? [] : [draft.to],
    whole: [],
  })?.kind;
}

/**
 * The transaction of a person's reply: the item must still wait and have a draft whose recipient its
 * decision resolved; writes the outbound row (pending, delivered right after), closes the item as
 * resolved "replied", and one audit event with `author: "person"`, the text, and the ticket's records.
 * With the outbox's contact key, a suppressed recipient is refused here, read in this transaction: the
 * row it would write is delivered right after, with nothing read in between.
 */
export async function recordPersonReply(
  tx: StoreTransaction,
  reply: {
    readonly itemId: string;
    readonly text: string;
    readonly subject: string | undefined;
    readonly by: string;
    readonly at: number;
    readonly mode: "live" | "shadow";
    readonly records: unknown;
    readonly warning: ScanWarning | undefined;
    readonly contactKey: KeyObject | undefined;
  },
): Promise<PersonReplyResult> {
  const item = await tx.getQueueItem(reply.itemId);
  if (item === undefined) return refusedReply("not_found");
  const key = personReplyKey(item.id, reply.subject, reply.text);
  if (item.status !== "open" && item.status !== "claimed") {
    const prior = item.outboundId === undefined ? undefined : await tx.getOutbound(item.outboundId);
    if (prior?.key === key) return { ok: true, sentNow: false, item, outbound: prior, warning: undefined };
    return refusedReply("closed");
  }
  const draft = item.draft;
  if (draft === undefined) return refusedReply("no_recipient");
  // A suppressed destination takes no message, a person's no more than a template's.
  if (reply.contactKey !== undefined && (await tx.getSuppression(destinationHash(reply.contactKey, draft))))
    return refusedReply("suppressed");
  if (reply.subject !== undefined && draft.channel !== "email")
    return refusedReply("subject_not_for_channel");
  const subject = reply.subject ?? draft.subject;
  // Only the draft's channel and recipient, both resolved from the ticket's records by its decision.
  const message: Message = {
    template: personTemplate,
    channel: draft.channel,
    to: draft.to,
    ...(draft.channel === "email" && subject !== undefined ? { subject } : {}),
    text: reply.text,
  };
  const bodySha256 = hash("sha256", message.text, "hex");
  const outboundId = await tx.addOutbound(
    newOutboundRow({
      key,
      ticketId: item.ticketId,
      runId: item.runId,
      template: personTemplate,
      message,
      status: reply.mode === "shadow" ? "shadow" : "pending",
      createdAt: reply.at,
      bodySha256,
    }),
  );
  await tx.updateQueueItem(item.id, {
    status: "resolved",
    resolution: "replied",
    closedBy: reply.by,
    closedAt: reply.at,
    outboundId,
  });
  const records = recordsForAudit(reply.records);
  await tx.appendAudit({
    at: reply.at,
    type: "queue",
    ticketId: item.ticketId,
    runId: item.runId,
    template: item.template,
    outcome: undefined,
    reason: item.reason,
    key,
    actor: reply.by,
    data: {
      action: personReplyAction,
      author: "person",
      item: item.id,
      from: item.status,
      outboundId,
      bodySha256,
      message: { channel: message.channel, to: message.to, subject: message.subject, text: message.text },
      ...(records === undefined ? {} : { records }),
      ...(reply.warning === undefined ? {} : { scan: reply.warning }),
    },
  });
  return {
    ok: true,
    sentNow: true,
    item: (await tx.getQueueItem(item.id)) as QueueItem,
    outbound: await tx.getOutbound(outboundId),
    warning: reply.warning,
  };
}

/** The records kept beside a reply: a plain object of collections within the size cap, else none. */
function recordsForAudit(records: unknown): Record<string, unknown> | undefined {
  if (typeof records !== "object" || records === null || Array.isArray(records)) return undefined;
  let json: string;
  try {
    json = JSON.stringify(records);
  } catch {
    // Records JSON cannot hold (a big integer, a cycle) are left out: the reply is mined unmasked.
    return undefined;
  }
  return json.length <= maxRecordsJson ? (JSON.parse(json) as Record<string, unknown>) : undefined;
}
