import {
  auditEventFromRow,
  type JsonColumn,
  outboundFromRow,
  outboundUpdatable,
  queueItemFromRow,
  queueUpdatable,
  type Row,
  suppressionFromRow,
} from "../rows.js";
import type { AuditEvent, OutboundRow, QueueItem } from "../store.js";

export const outboundColumns =
  "id, key, ticket_id, run_id, template, message, status, attempts, created_at, lease_until, delivered_at, receipt_id, body_sha256, template_version, catalog_version";

export const queueColumns =
  "id, seq, status, reason, ticket_id, run_id, template, detail, key, draft, note, created_at, claimed_by, claimed_at, closed_by, closed_at, resolution, close_note, audit_id, outbound_id";

export const suppressionColumns = "destination, channel, cause, provider, at, audit_id";

export const auditColumns = "id, at, type, ticket_id, run_id, template, outcome, reason, key, actor, data";

const parsed: JsonColumn = (value) => value;

/** The store's records from `pg` rows, whose JSON columns arrive parsed. */
export const outboundOf = (row: Row | undefined): OutboundRow | undefined => outboundFromRow(row, parsed);
export const queueItemOf = (row: Row | undefined): QueueItem | undefined => queueItemFromRow(row, parsed);
export const auditEventOf = (row: Row): AuditEvent => auditEventFromRow(row, parsed);

export { outboundUpdatable, queueUpdatable, type Row, suppressionFromRow as suppressionOf };

/** A store id as a bigint parameter, or undefined for a string no row can have (ids are digits). */
export function idParam(id: unknown): string | undefined {
  return typeof id === "string" && /^[1-9][0-9]{0,17}$/.test(id) ? id : undefined;
}
