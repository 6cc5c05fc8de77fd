/**
 * @module formletter/openai-agents: a ticket's formletter tools as OpenAI Agents SDK function tools; a call the outbox holds for a person stops the run with an interruption carrying its queue item and exact draft, and only the queue item's approval sends.
 */

export type {
  ApprovableState,
  Decided,
  FormletterAgentTools,
  FormletterToolsOptions,
  Settled,
} from "./formletter-tools.js";
export { formletterTools } from "./formletter-tools.js";
export type { FormletterFunctionTool } from "./function-tool.js";
export type { HeldApproval } from "./held-approval.js";
