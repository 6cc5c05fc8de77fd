/**
 * @module formletter: templates defined in code, slots filled from records, and a model that only chooses.
 *
 * The root holds what an integrator needs: define records and templates, build the catalog, run the
 * outbox over a store and transports, read decisions and errors. The rest lives at subpaths:
 * `formletter/metrics` (escalation reports, replay, Wilson intervals, capacity), `formletter/store`
 * (the `Store` contract, its row types and the conformance suite for your own store),
 * `formletter/sqlite`, `formletter/postgres`, `formletter/smtp`, `formletter/llm`, `formletter/relay`,
 * `formletter/testing` and `formletter/mine`.
 *
 * Held back on purpose: compiled template internals (compiled slots and fields, prepared collections),
 * the text-cleaning and channel helpers, and the idempotency-key function. They are how decide() works,
 * not how it is used; exporting them would freeze their shape, and a caller mixing them into its own
 * pipeline could skip a check that decide() makes in order.
 */

export type { Catalog, CatalogOptions } from "./core/decision/catalog.js";
export { createCatalog } from "./core/decision/catalog.js";
export type {
  Decision,
  EscalateDecision,
  Escalation,
  Expected,
  Message,
  SendDecision,
} from "./core/decision/decision.js";
export { escalate } from "./core/decision/decision.js";
export type { ParsedOutput } from "./core/decision/proposal.js";
export type { EscalationReason } from "./core/decision/reasons.js";
export { escalationReasons, isEscalationReason } from "./core/decision/reasons.js";
export type { CeilingConfig } from "./core/definition/ceilings.js";
export type { RecordOf, RecordsDefinition, TicketRecords } from "./core/definition/define-records.js";
export { defineRecords } from "./core/definition/define-records.js";
export { readableBy, untrusted } from "./core/definition/labels.js";
export { chosenRecord } from "./core/definition/slots.js";
export { defineTemplate } from "./core/definition/template.js";
export type {
  LocaleChoice,
  LocaleTexts,
  Template,
  TemplateConfig,
  TemplateLocaleConfig,
} from "./core/definition/template-types.js";
export type { FormletterErrorCode } from "./core/errors.js";
export { DefinitionError, FormletterError, isFormletterError, StoreUnavailableError } from "./core/errors.js";
export type { Format } from "./core/message/format.js";
export { format } from "./core/message/format.js";
export type { PreviewOptions, TicketPreview } from "./core/preview/index.js";
export type {
  DeliveryEventOutcome,
  DetachedQueue,
  HandleInput,
  HandleResult,
  HumanQueue,
  LiftResult,
  Outbox,
  OutboxOptions,
  QueueItemDetail,
} from "./outbox/index.js";
export { createOutbox, openHumanQueue, QueueError } from "./outbox/index.js";
export { memoryStore } from "./store/memory.js";
export type { Store } from "./store/store.js";
export type { DeliveryContext, DeliveryReceipt, Transport } from "./transport/index.js";
export {
  consoleTransport,
  DeliveryError,
  memoryTransport,
  signWebhookBody,
  verifyWebhookSignature,
  webhookSignatureHeader,
  webhookTransport,
} from "./transport/index.js";
