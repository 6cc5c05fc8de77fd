/**
 * @module formletter/mine — the migration kit: mine a history of free-text messages for the templates
 * that would replace them, and predict the escalation rate of such a catalog before launch.
 */
export type { CandidateOptions, CandidateTemplate, IdentifierLeftOut } from "./candidate.js";
export { clusterLines } from "./cluster-lines.js";
export type { ClusterOptions } from "./clusters.js";
export type {
  CatalogDraft,
  DraftChoiceSlot,
  DraftFormat,
  DraftIdentifier,
  DraftOptions,
  DraftRefSlot,
  DraftTemplate,
} from "./draft.js";
export { draftTemplates } from "./draft.js";
export type { DraftEffect } from "./draft-effect.js";
export { draftEffect } from "./draft-effect.js";
export type { FieldFacts, FormatChoices } from "./draft-formats.js";
export { countryCode, draftFormat, phoneCountry } from "./draft-formats.js";
export type { JoinedSlot, JoinOptions, JoinPlan, LinkSlot } from "./draft-joins.js";
export { planJoins } from "./draft-joins.js";
export type { SentMessage } from "./history-line.js";
export { parseSentMessage } from "./history-line.js";
export type { HistoryLinesOptions } from "./history-lines.js";
export { historyLines } from "./history-lines.js";
export type { IdentifierKind } from "./literal-identifiers.js";
export type { MailParts } from "./mail/index.js";
export { lineKey, readMail } from "./mail/index.js";
export type { MaskedMessage, ValueIndex, ValueIndexOptions } from "./mask.js";
export { maskMessage, valueIndex } from "./mask.js";
export type { CoveragePoint, LineProblem, MineOptions, MiningReport } from "./mine-history.js";
export { mineHistory } from "./mine-history.js";
export { recipientSource } from "./recipient.js";
export type {
  FieldKind,
  ProfiledField,
  RecordProfileOptions,
  RecordProfileSummary,
  SharedKey,
} from "./record-profile.js";
export { RecordProfile } from "./record-profile.js";
