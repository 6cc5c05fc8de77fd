/**
 * @module formletter/store: where the outbox keeps its state, and the in-memory store.
 */
export { memoryStore } from "./memory.js";
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
