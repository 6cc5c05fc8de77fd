/**
 * @module formletter/store: the `Store` contract the outbox writes through, its row types, and the
 * conformance suite that tests your own store against it (with vitest).
 *
 * The stores themselves are elsewhere: `memoryStore` in `formletter`, `sqliteStore` in
 * `formletter/sqlite`, `postgresStore` in `formletter/postgres`. Held back: the SQL row mapping and
 * queue-filter helpers the bundled stores share, which are how they store rows, not what a store must do.
 */

export type { StoreUnderTest } from "./conformance.js";
export { describeStoreConformance } from "./conformance.js";
export type {
  AuditEvent,
  AuditFilter,
  AuditType,
  OutboundRow,
  OutboundStatus,
  QueueFilter,
  QueueItem,
  QueuePage,
  QueueStatus,
  SendCounts,
  Store,
  StoredResult,
  StoreTransaction,
} from "./store.js";
export { queueStatuses } from "./store.js";
