/**
 * @module formletter/outbox: the runtime — durable decisions, limits, idempotency, delivery and the human queue.
 */

export type { RetryOptions } from "./deliver.js";
export type { DeliveryStatus, HandleInput, HandleResult, Outbox, OutboxOptions } from "./outbox.js";
export { createOutbox } from "./outbox.js";
export type { Actor, ApprovalResult, HumanQueue } from "./queue.js";
export { QueueError } from "./queue.js";
