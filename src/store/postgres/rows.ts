import {
  auditEventFromRow,
  type JsonColumn,
  outboundFromRow,
  outboundUpdatable,
  queueItemFromRow,
  queueUpdatable,
  type Row,
} from "../rows.js";
import type { AuditEvent, OutboundRow, QueueItem, StoredResult } from "../store.js";

export const outboundColumns =
  "id, key, ticket_id, run_id, template, message, status, attempts, created_at, lease_until, delivered_at, receipt_id, body_sha256";

export const queueColumns =
  "id, seq, status, reason, ticket_id, run_id, template, detail, key, draft, note, created_at, claimed_by, claimed_at, closed_by, closed_at, resolution, close_note, audit_id, outbound_id";

export const auditColumns = "id, at, type, ticket_id, run_id, template, outcome, reason, key, actor, data";

const parsed: JsonColumn = (value) => value;

/** The store's records from `pg` rows, whose JSON columns arrive parsed. */
export const outboundOf = (row: Row | undefined): OutboundRow | undefined => outboundFromRow(row, parsed);
export const queueItemOf = (row: Row | undefined): QueueItem | undefined => queueItemFromRow(row, parsed);
export const auditEventOf = (row: Row): AuditEvent => auditEventFromRow(row, parsed);

export { outboundUpdatable, queueUpdatable, type Row };

/**
 * A reservation's result as stored: a send's decision leaves its message to the outbound row written
 * with it (see migration 4), marked by `messageIn`. The message is the same JSON either way.
 */
export function storedResult(result: StoredResult, outboundMessages: ReadonlyMap<string, unknown>): unknown {
  const { decision, outboundId } = result;
  if (outboundId === undefined || decision.outcome !== "send") return result;
  const message = outboundMessages.get(outboundId);
  if (message === undefined || message !== decision.message) return result;
  // Spread in place: the decision keeps its keys in their order, and `message` its slot.
  return { ...result, decision: { ...decision, message: null }, messageIn: "outbound" };
}

/** A stored result as written: its message put back where `storedResult` left null. */
export function resultOf(result: unknown, message: unknown): StoredResult | undefined {
  if (result === null || result === undefined) return undefined;
  const stored = result as StoredResult & { messageIn?: string; decision: { message?: unknown } };
  if (stored.messageIn !== "outbound") return stored;
  const { messageIn: _, ...written } = stored;
  written.decision.message = message;
  return written;
}

/** A store id as a bigint parameter, or undefined for a string no row can have (ids are digits). */
export function idParam(id: unknown): string | undefined {
  return typeof id === "string" && /^[1-9][0-9]{0,17}$/.test(id) ? id : undefined;
}
