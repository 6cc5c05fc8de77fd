import { type AiSdkTools, aiSdkTools } from "./ai-sdk.js";
import {
  type AnthropicOutputFormat,
  type AnthropicTool,
  anthropicFormat,
  anthropicTool,
} from "./anthropic.js";
import type { ObjectSchema, ToolSpec } from "./json-schema.js";
import {
  type OpenAIChatResponseFormat,
  type OpenAIChatTool,
  type OpenAIResponsesTextFormat,
  type OpenAIResponsesTool,
  openaiChatFormat,
  openaiChatTool,
  openaiResponsesFormat,
  openaiResponsesTool,
} from "./openai.js";
import type { LimitRules } from "./preflight.js";

/**
 * The APIs formletter shapes tools for: OpenAI Chat Completions ("openai"), the OpenAI Responses API
 * ("openai-responses"), the Anthropic Messages API ("anthropic") and the Vercel AI SDK ("ai-sdk").
 */
export type LlmProvider = "openai" | "openai-responses" | "anthropic" | "ai-sdk";

/** The `tools` value each provider takes. */
export interface ProviderTools {
  openai: OpenAIChatTool[];
  "openai-responses": OpenAIResponsesTool[];
  anthropic: AnthropicTool[];
  "ai-sdk": AiSdkTools;
}

/** The structured-output format each provider takes; for the AI SDK, the schema for `jsonSchema()`. */
export interface ProviderFormats {
  openai: OpenAIChatResponseFormat;
  "openai-responses": OpenAIResponsesTextFormat;
  anthropic: AnthropicOutputFormat;
  "ai-sdk": ObjectSchema;
}

/** Every provider `catalog.tools()` can write for. */
export const providers: readonly LlmProvider[] = ["openai", "openai-responses", "anthropic", "ai-sdk"];

/** The provider, checked: a wrong name is a programming error, reported at the call. */
export function checkProvider(method: string, provider: unknown): LlmProvider {
  if (!providers.includes(provider as LlmProvider)) {
    throw new TypeError(
      `${method}: provider must be one of ${providers.map((name) => `"${name}"`).join(", ")}; got ${JSON.stringify(provider) ?? String(provider)}`,
    );
  }
  return provider as LlmProvider;
}

/** The limits a provider's tools are checked against unless the caller says otherwise. */
export function defaultRules(provider: LlmProvider): LimitRules {
  if (provider === "anthropic") return "anthropic";
  // The AI SDK forwards to any provider: tools that fit both sets of rules work wherever it sends them.
  if (provider === "ai-sdk") return "both";
  return "openai";
}

/** Shapes provider-neutral tools for `provider`. */
export function shapeTools<P extends LlmProvider>(provider: P, specs: readonly ToolSpec[]): ProviderTools[P] {
  const shaped: { [K in LlmProvider]: () => ProviderTools[K] } = {
    openai: () => specs.map(openaiChatTool),
    "openai-responses": () => specs.map(openaiResponsesTool),
    anthropic: () => specs.map(anthropicTool),
    "ai-sdk": () => aiSdkTools(specs),
  };
  return shaped[provider]();
}

/** Shapes a structured-output schema as `provider`'s format. */
export function shapeFormat<P extends LlmProvider>(provider: P, spec: ToolSpec): ProviderFormats[P] {
  const shaped: { [K in LlmProvider]: () => ProviderFormats[K] } = {
    openai: () => openaiChatFormat(spec),
    "openai-responses": () => openaiResponsesFormat(spec),
    anthropic: () => anthropicFormat(spec),
    "ai-sdk": () => spec.parameters,
  };
  return shaped[provider]();
}
