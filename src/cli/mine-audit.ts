import type { CutLine } from "../metrics/line-cutter.js";
import { personReplyAction } from "../outbox/index.js";
import type { AuditEvent, Store } from "../store/index.js";

/** What reading people's replies from an audit log counted besides the lines. */
export interface AuditReplyCounts {
  replies: number;
  /** Replies whose event holds no records (over the size cap, or the loader failed): mined unmasked. */
  withoutRecords: number;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * One person's reply as a history line (`{ ticketId, records, message, at }`, the line `formletter mine`
 * reads), or a problem naming what the event lacks. Only events the outbox wrote for a person's reply
 * count: `queue` events whose action is the reply's and whose author is "person".
 */
export function replyLine(event: AuditEvent): CutLine | undefined {
  const data = event.data;
  if (event.type !== "queue" || data.action !== personReplyAction || data.author !== "person")
    return undefined;
  const message = data.message;
  if (event.ticketId === undefined || !isObject(message) || typeof message.text !== "string")
    return { problem: `audit event ${event.id}: a person's reply without its ticket or text` };
  return JSON.stringify({
    ticketId: event.ticketId,
    records: isObject(data.records) ? data.records : {},
    message: {
      channel: message.channel,
      to: message.to,
      ...(typeof message.subject === "string" ? { subject: message.subject } : {}),
      text: message.text,
    },
    at: event.at,
  });
}

/**
 * The replies people wrote in the workspace, from an outbox's audit log, as history lines in time order:
 * the loop from an escalation to a person's words to a template. Streams the log; holds one event.
 */
export async function* auditReplyLines(
  store: Store,
  counts: AuditReplyCounts = { replies: 0, withoutRecords: 0 },
): AsyncGenerator<CutLine> {
  for await (const event of store.queryAudit({ type: "queue" })) {
    const line = replyLine(event);
    if (line === undefined) continue;
    counts.replies += 1;
    if (!isObject(event.data.records)) counts.withoutRecords += 1;
    yield line;
  }
}
