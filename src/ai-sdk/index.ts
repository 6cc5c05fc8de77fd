/**
 * @module formletter/ai-sdk: a ticket's formletter tools for the Vercel AI SDK (`ai` 6), with the SDK's tool approval mapped onto the outbox's human queue.
 */

export type { ApprovalDraft, ApprovalOutcome } from "../agent-tools/index.js";
export type {
  ApprovalDecision,
  ApprovalProblem,
  ApprovalRequest,
  Decider,
  FormletterApprovals,
  FormletterApprovalsOptions,
} from "./approvals.js";
export { formletterApprovals } from "./approvals.js";
export type { FormletterTool, FormletterTools, FormletterToolsOptions } from "./formletter-tools.js";
export { formletterTools } from "./formletter-tools.js";
export type { FormletterToolOutput, ResumeOutcome } from "./resume-outcome.js";
export { outputText } from "./resume-outcome.js";
