/**
 * @module formletter/metrics: escalation rates with Wilson intervals, from an audit log or a replayed
 * history, in one streaming pass; the human decisions they project to; and how much a steered model
 * could encode through a catalog (capacity).
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
} from "../capacity/index.js";
export { catalogCapacity } from "../capacity/index.js";
export type { AccumulatorOptions, DecisionObservation, MetricsAccumulator } from "./accumulator.js";
export { createMetricsAccumulator } from "./accumulator.js";
export type { AuditReportOptions } from "./audit.js";
export { countAuditEvent, reportFromAudit } from "./audit.js";
export type { HistoryTicket } from "./history.js";
export { parseHistoryLine } from "./history.js";
export type { Projection } from "./projection.js";
export { formatBand, observedDays, projectHumanDecisions } from "./projection.js";
export type { ReplayOptions, ReplayProgress } from "./replay.js";
export { replayHistory } from "./replay.js";
export type {
  EscalationReport,
  MalformedLine,
  RateRow,
  ReasonRow,
  ReportOptions,
  TagRows,
} from "./report.js";
export { countingRules } from "./report.js";
export { formatSummary, percent } from "./summary.js";
export type { Interval } from "./wilson.js";
export { wilsonInterval, z95 } from "./wilson.js";
