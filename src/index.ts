/**
 * @module formletter: templates defined in code, slots filled from records, and a model that only chooses.
 */

export type {
  CandidateBasis,
  CapacityCatalog,
  CapacityOptions,
  CatalogCapacity,
  FieldExposure,
  SampleMessages,
  SlotCapacity,
  TemplateCapacity,
  WorstCase,
} from "./capacity/index.js";
export { catalogCapacity } from "./capacity/index.js";
export type { Catalog, CatalogOptions, HandleEntry, HandleTable } from "./catalog.js";
export { createCatalog } from "./catalog.js";
export type { Channel, SmsSize } from "./channels.js";
export { escapeHtml, smsSize } from "./channels.js";
export type {
  Choices,
  Decision,
  EscalateDecision,
  Escalation,
  EscalationFields,
  EscalationInput,
  Expected,
  Finding,
  LimitName,
  Message,
  SendDecision,
} from "./decision.js";
export { escalate, escalationFacts } from "./decision.js";
export type { FormletterErrorCode, OutboxWrites } from "./errors.js";
export { DefinitionError, FormletterError, isFormletterError, StoreUnavailableError } from "./errors.js";
export type {
  DateFormatOptions,
  Format,
  FormatResult,
  MoneyFormatOptions,
  PhoneFormatOptions,
} from "./format.js";
export { format } from "./format.js";
export type { ChosenValue } from "./idempotency.js";
export { idempotencyKey } from "./idempotency.js";
export type { FieldLabel } from "./labels.js";
export { readableBy, untrusted } from "./labels.js";
export type {
  LlmProvider,
  ProposalSchemaOptions,
  ProposalSchemaResult,
  ToolCallProposal,
  ToolsOptions,
  ToolsResult,
} from "./llm/index.js";
export type {
  AccumulatorOptions,
  AuditReportOptions,
  DecisionObservation,
  EscalationReport,
  HistoryTicket,
  Interval,
  MalformedLine,
  MetricsAccumulator,
  Projection,
  RateRow,
  ReasonRow,
  ReplayOptions,
  ReplayProgress,
  ReportOptions,
  TagRows,
} from "./metrics/index.js";
export {
  countingRules,
  createMetricsAccumulator,
  formatBand,
  formatSummary,
  observedDays,
  parseHistoryLine,
  projectHumanDecisions,
  replayHistory,
  reportFromAudit,
  wilsonInterval,
} from "./metrics/index.js";
export type {
  Actor,
  ApprovalResult,
  DeliveryStatus,
  HandleInput,
  HandleResult,
  HumanQueue,
  Outbox,
  OutboxOptions,
  RetryOptions,
} from "./outbox/index.js";
export { createOutbox, QueueError } from "./outbox/index.js";
export type { ParsedOutput, Proposal, ProposalProblem } from "./proposal.js";
export type { EscalationReason } from "./reasons.js";
export { escalationReasons, isEscalationReason, reasonDescriptions } from "./reasons.js";
export type {
  AnyRecord,
  CollectionSchema,
  CollectionSchemas,
  RecordOf,
  RecordsDefinition,
  RecordsOptions,
  TicketRecords,
  TicketView,
} from "./records.js";
export { defineRecords } from "./records.js";
export type { SanitizeOptions } from "./sanitize.js";
export { sanitizeValue } from "./sanitize.js";
export type {
  ChoiceOptions,
  ChoiceSlot,
  DerivedOptions,
  DerivedSlot,
  EarlierSlots,
  RefOptions,
  RefSlot,
  ShownField,
  Slot,
  SlotBuilder,
  SlotContext,
} from "./slots.js";
export { chosenRecord } from "./slots.js";
export { memoryStore } from "./store/memory.js";
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
} from "./store/store.js";
export type { CompiledField, CompiledSlot, Template, TemplateConfig, TemplateLimits } from "./template.js";
export { defineTemplate } from "./template.js";
export type { PreparedCollection, PreparedTicket, PrepareResult } from "./ticket.js";
export { isPreparedTicket } from "./ticket.js";
export type {
  ConsoleTransportOptions,
  DeliveryContext,
  DeliveryReceipt,
  FailedDelivery,
  MemoryTransport,
  MemoryTransportOptions,
  SentMessage,
  Transport,
  VerifyWebhookSignatureOptions,
  WebhookTransportOptions,
} from "./transport/index.js";
export {
  consoleTransport,
  DeliveryError,
  isRetryable,
  memoryTransport,
  signWebhookBody,
  verifyWebhookSignature,
  webhookSignatureHeader,
  webhookTransport,
} from "./transport/index.js";
