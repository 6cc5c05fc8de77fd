import { merged } from "../core/merged.js";
import type { AuditEvent, OutboundRow, QueueItem, StoredResult, Suppression } from "./store.js";

/**
 * The mapping between the stores' SQL rows (snake_case columns) and the store's records, shared by the
 * SQLite and Postgres stores. The two differ only in how a JSON column arrives: SQLite gives its text,
 * `pg` gives it parsed.
 */

/** A row as a SQL driver returns it. */
export type Row = Record<string, unknown>;

/** How a JSON column's value becomes a value: `JSON.parse` for SQLite's text, as it is for Postgres. */
export type JsonColumn = (value: unknown) => unknown;

const optional = <T>(value: unknown): T | undefined =>
  value === null || value === undefined ? undefined : (value as T);

// Epoch milliseconds: SQLite returns numbers, Postgres bigint columns arrive as strings. Both fit a double.
const time = (value: unknown): number => Number(value);
const optionalTime = (value: unknown): number | undefined =>
  value === null || value === undefined ? undefined : Number(value);

/** An outbound row from its SQL row. */
export function outboundFromRow(row: Row | undefined, json: JsonColumn): OutboundRow | undefined {
  if (row === undefined) return undefined;
  return {
    id: String(row.id),
    key: row.key as string,
    ticketId: row.ticket_id as string,
    runId: row.run_id as string,
    template: row.template as string,
    message: json(row.message) as OutboundRow["message"],
    status: row.status as OutboundRow["status"],
    attempts: Number(row.attempts),
    createdAt: time(row.created_at),
    leaseUntil: optionalTime(row.lease_until),
    deliveredAt: optionalTime(row.delivered_at),
    receiptId: optional(row.receipt_id),
    bodySha256: row.body_sha256 as string,
    // Null in rows written before the columns were (migration 9 of SQLite, 7 of Postgres).
    templateVersion: optional(row.template_version),
    catalogVersion: optional(row.catalog_version),
  };
}

/** A queue item from its SQL row. */
export function queueItemFromRow(row: Row | undefined, json: JsonColumn): QueueItem | undefined {
  if (row === undefined) return undefined;
  return {
    id: String(row.id),
    status: row.status as QueueItem["status"],
    reason: row.reason as QueueItem["reason"],
    ticketId: row.ticket_id as string,
    runId: row.run_id as string,
    template: optional(row.template),
    detail: row.detail as string,
    key: optional(row.key),
    draft:
      row.draft === null || row.draft === undefined ? undefined : (json(row.draft) as QueueItem["draft"]),
    note: optional(row.note),
    createdAt: time(row.created_at),
    claimedBy: optional(row.claimed_by),
    claimedAt: optionalTime(row.claimed_at),
    closedBy: optional(row.closed_by),
    closedAt: optionalTime(row.closed_at),
    resolution: optional(row.resolution),
    closeNote: optional(row.close_note),
    auditId: String(row.audit_id),
    outboundId:
      row.outbound_id === null || row.outbound_id === undefined ? undefined : String(row.outbound_id),
  };
}

/** An audit event from its SQL row. */
export function auditEventFromRow(row: Row, json: JsonColumn): AuditEvent {
  return {
    id: String(row.id),
    at: time(row.at),
    type: row.type as AuditEvent["type"],
    ticketId: optional(row.ticket_id),
    runId: optional(row.run_id),
    template: optional(row.template),
    outcome: optional(row.outcome),
    reason: optional(row.reason),
    key: optional(row.key),
    actor: row.actor as string,
    data: json(row.data) as AuditEvent["data"],
  };
}

/** A suppression from its SQL row. */
export function suppressionFromRow(row: Row | undefined): Suppression | undefined {
  if (row === undefined) return undefined;
  return {
    destination: row.destination as string,
    channel: row.channel as string,
    cause: row.cause as Suppression["cause"],
    provider: row.provider as string,
    at: time(row.at),
    auditId: String(row.audit_id),
  };
}

/** The fields `updateOutbound` may change, and their columns. */
export const outboundUpdatable: Readonly<Record<string, string>> = {
  ticketId: "ticket_id",
  runId: "run_id",
  template: "template",
  status: "status",
  attempts: "attempts",
  createdAt: "created_at",
  leaseUntil: "lease_until",
  deliveredAt: "delivered_at",
  receiptId: "receipt_id",
  bodySha256: "body_sha256",
};

/**
 * The first field of `change` that `columns` (one of the lists below) does not name, or undefined. Own
 * names only: `constructor` or `toString` name the object's prototype, never a column.
 */
export function unchangeableField(
  change: object,
  columns: Readonly<Record<string, string>>,
): string | undefined {
  for (const field of Object.keys(change)) if (!Object.hasOwn(columns, field)) return field;
  return undefined;
}

/** The fields `updateQueueItem` may change, and their columns. */
export const queueUpdatable: Readonly<Record<string, string>> = {
  status: "status",
  reason: "reason",
  ticketId: "ticket_id",
  runId: "run_id",
  template: "template",
  detail: "detail",
  key: "key",
  draft: "draft",
  note: "note",
  createdAt: "created_at",
  claimedBy: "claimed_by",
  claimedAt: "claimed_at",
  closedBy: "closed_by",
  closedAt: "closed_at",
  resolution: "resolution",
  closeNote: "close_note",
  auditId: "audit_id",
  outboundId: "outbound_id",
};

/**
 * A reservation's result as stored: a send's decision leaves its message to the outbound row written
 * with it (migration 4 of both SQL stores), marked by `messageIn`. The message is the same JSON either way.
 */
export function storedResult(result: StoredResult, outboundMessages: ReadonlyMap<string, unknown>): unknown {
  const { decision, outboundId } = result;
  if (outboundId === undefined || decision.outcome !== "send") return result;
  const message = outboundMessages.get(outboundId);
  if (message === undefined || message !== decision.message) return result;
  // Merged in place: the decision keeps its keys in their order, and `message` its slot.
  return merged(result, { decision: merged(decision, { message: null }), messageIn: "outbound" });
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
