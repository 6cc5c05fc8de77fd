/**
 * @module formletter/llm: tool schemas, structured-output schemas and tool-call parsing for OpenAI, Anthropic and the Vercel AI SDK, as plain objects.
 */

// createTools and createProposalSchema stay internal: they take a prepared ticket, which
// catalog.tools() and catalog.proposalSchema() make and validate; those methods are the way in.
export type { DescribeOptions } from "../decision/describe.js";
export type { AiSdkTool, AiSdkTools } from "./ai-sdk.js";
export type { AnthropicOutputFormat, AnthropicTool } from "./anthropic.js";
export type { OmissionReason } from "./candidates.js";
export type { CostCatalog, PromptCost, PromptCostOptions, TicketTokens } from "./cost.js";
export { promptCost } from "./cost.js";
export type { JsonSchema, ObjectSchema } from "./json-schema.js";
export { noneValue, toolNames } from "./names.js";
export type { OmittedTemplate } from "./offer.js";
export type {
  OpenAIChatResponseFormat,
  OpenAIChatTool,
  OpenAIResponsesTextFormat,
  OpenAIResponsesTool,
} from "./openai.js";
export type { ToolCallProposal } from "./parse-tool-call.js";
export { parseToolCall } from "./parse-tool-call.js";
export type { LimitRules, PreflightInput, PreflightProblem, PreflightRule } from "./preflight.js";
export { anthropicLimits, openaiLimits, preflight } from "./preflight.js";
export type { ProposalSchemaOptions, ProposalSchemaResult } from "./proposal-schema.js";
export type { LlmProvider, ProviderFormats, ProviderTools } from "./providers.js";
export type { Degradation, ToolsCache, ToolsStage } from "./stages.js";
export { estimateTokens } from "./tokens.js";
export type { ToolsOptions, ToolsResult } from "./tools.js";
