import type { QueueFilter, QueueItem, QueueStatus } from "./store.js";

/** The statuses a queue filter asks for, or undefined for all. */
export function statusesOf(status: QueueFilter["status"]): ReadonlySet<QueueStatus> | undefined {
  if (status === undefined) return undefined;
  return new Set(typeof status === "string" ? [status] : status);
}

/** Whether a queue item passes a filter (for stores that filter in code). */
export function matchesQueueFilter(
  item: QueueItem,
  filter: QueueFilter,
  statuses: ReadonlySet<QueueStatus> | undefined,
): boolean {
  return (
    (statuses === undefined || statuses.has(item.status)) &&
    (filter.reason === undefined || item.reason === filter.reason) &&
    (filter.template === undefined || item.template === filter.template) &&
    (filter.ticketId === undefined || item.ticketId === filter.ticketId)
  );
}

/** A page size between 1 and 500. @default 50 */
export function pageSize(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return 50;
  return Math.min(500, Math.max(1, Math.floor(limit)));
}
