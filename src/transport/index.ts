/**
 * The built-in transports, exported from `formletter`: how rendered messages leave the process — memory, console and signed webhooks.
 */

export type { ConsoleTransportOptions } from "./console.js";
export { consoleTransport } from "./console.js";
export type { FailedDelivery, MemoryTransport, MemoryTransportOptions, SentMessage } from "./memory.js";
export { memoryTransport } from "./memory.js";
export type { DeliveryContext, DeliveryReceipt, Transport } from "./transport.js";
export { DeliveryError, isRetryable } from "./transport.js";
export type { WebhookTransportOptions } from "./webhook.js";
export { webhookTransport } from "./webhook.js";
export type { VerifyWebhookSignatureOptions } from "./webhook-signature.js";
export { signWebhookBody, verifyWebhookSignature, webhookSignatureHeader } from "./webhook-signature.js";
