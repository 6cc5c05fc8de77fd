/**
 * @module formletter/store: the `Store` contract the outbox writes through and its row types. The
 * conformance suite that tests your own store against it is `formletter/store/conformance`, a subpath of
 * its own: it imports vitest, which nothing else of the package needs.
 *
 * `leaseTransaction` gives a transaction's work methods that refuse every call once it has ended (the
 * conformance suite requires it): a store that shares one set of methods across its transactions hands
 * out a lease of them instead.
 *
 * The stores themselves are elsewhere: `memoryStore` in `formletter`, `sqliteStore` in
 * `formletter/sqlite`, `postgresStore` in `formletter/postgres`. Held back: the SQL row mapping and
 * queue-filter helpers the bundled stores share, which are how they store rows, not what a store must do.
 */

export type { Spend } from "../core/definition/ceilings.js";
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
  Suppression,
  SuppressionCause,
  SuppressionPage,
} from "./store.js";
export { queueStatuses } from "./store.js";
export { endLease, leaseTransaction } from "./transaction-lease.js";
