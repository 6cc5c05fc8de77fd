/**
 * The outbox, exported from `formletter`: the runtime — durable decisions, limits, idempotency,
 * delivery and the human queue. The relay and the command line reach it only through this file.
 */

export type { RetryOptions } from "./deliver.js";
export type { DeliveryEventOutcome } from "./delivery-status.js";
export { openHumanQueue } from "./open-queue.js";
export type {
  DeliveryStatus,
  HandleInput,
  HandleResult,
  LoadedRecords,
  Outbox,
  OutboxOptions,
} from "./outbox.js";
export { createOutbox } from "./outbox.js";
export {
  type PersonReplyInput,
  type PersonReplyRefusal,
  type PersonReplyResult,
  personReplyAction,
  type ScanWarning,
} from "./person-reply.js";
export type {
  Actor,
  ApprovalResult,
  ClaimOptions,
  DetachedQueue,
  HumanQueue,
  QueueItemDetail,
} from "./queue.js";
export { QueueError, suppressedRefusal } from "./queue-error.js";
export { type LiftResult, liftSuppression } from "./suppression.js";
