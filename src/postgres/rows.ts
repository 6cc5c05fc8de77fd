import type { AuditEvent, OutboundRow, QueueItem } from "../store/store.js";

/** A row as `pg` returns it: bigint columns as strings, json columns parsed. */
export type Row = Record<string, unknown>;

const optional = <T>(value: unknown): T | undefined =>
  value === null || value === undefined ? undefined : (value as T);

// Epoch milliseconds are bigint columns (they overflow integer); they fit a double exactly.
const time = (value: unknown): number => Number(value);
const optionalTime = (value: unknown): number | undefined =>
  value === null || value === undefined ? undefined : Number(value);

export const outboundColumns =
  "id, key, ticket_id, run_id, template, message, status, attempts, created_at, lease_until, delivered_at, receipt_id, body_sha256";

export const queueColumns =
  "id, seq, status, reason, ticket_id, run_id, template, detail, key, draft, note, created_at, claimed_by, claimed_at, closed_by, closed_at, resolution, close_note, audit_id, outbound_id";

export const auditColumns = "id, at, type, ticket_id, run_id, template, outcome, reason, key, actor, data";

export function outboundOf(row: Row | undefined): OutboundRow | undefined {
  if (row === undefined) return undefined;
  return {
    id: String(row.id),
    key: row.key as string,
    ticketId: row.ticket_id as string,
    runId: row.run_id as string,
    template: row.template as string,
    message: row.message as OutboundRow["message"],
    status: row.status as OutboundRow["status"],
    attempts: row.attempts as number,
    createdAt: time(row.created_at),
    leaseUntil: optionalTime(row.lease_until),
    deliveredAt: optionalTime(row.delivered_at),
    receiptId: optional(row.receipt_id),
    bodySha256: row.body_sha256 as string,
  };
}

export function queueItemOf(row: Row | undefined): QueueItem | undefined {
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
    draft: optional(row.draft),
    note: optional(row.note),
    createdAt: time(row.created_at),
    claimedBy: optional(row.claimed_by),
    claimedAt: optionalTime(row.claimed_at),
    closedBy: optional(row.closed_by),
    closedAt: optionalTime(row.closed_at),
    resolution: optional(row.resolution),
    closeNote: optional(row.close_note),
    auditId: row.audit_id as string,
    outboundId: optional(row.outbound_id),
  };
}

export function auditEventOf(row: Row): AuditEvent {
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
    data: row.data as AuditEvent["data"],
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

/** A store id as a bigint parameter, or undefined for a string no row can have (ids are digits). */
export function idParam(id: unknown): string | undefined {
  return typeof id === "string" && /^[1-9][0-9]{0,17}$/.test(id) ? id : undefined;
}
