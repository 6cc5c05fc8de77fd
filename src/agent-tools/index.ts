/**
 * @module formletter/agent-tools: a ticket's tools for any agent framework — names, code-written descriptions, JSON input schemas — whose calls go through the outbox (or the relay) and answer a code-written outcome; approvals by queue item id.
 */

export type {
  AgentTool,
  AgentTools,
  AgentToolsOptions,
  OutboxToolsOptions,
  RelayToolsOptions,
} from "./agent-tools.js";
export { createAgentTools } from "./agent-tools.js";
export type { ApprovalDraft, ApprovalOutcome, ApprovalQueue, Approvals } from "./approvals.js";
export { createApprovals } from "./approvals.js";
export type { FoundApproval } from "./find-approval.js";
export { findApproval } from "./find-approval.js";
export type { ToolOutcome } from "./outcome.js";
export { outcomeText, toolOutcomeSchema, toolOutcomes } from "./outcome.js";
