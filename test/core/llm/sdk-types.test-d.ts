/**
 * The generated objects type-check as the official SDKs' request types: passing them needs no cast.
 * Type-level only (vitest typecheck and `tsc`); the SDKs are dev dependencies, never imported at run time.
 */
import type {
  Tool as AnthropicSdkTool,
  JSONOutputFormat,
  MessageCreateParamsNonStreaming,
} from "@anthropic-ai/sdk/resources/messages";
import { type FlexibleSchema, jsonSchema, type ToolSet, tool } from "ai";
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionTool,
} from "openai/resources/chat/completions";
import type {
  FunctionTool,
  ResponseCreateParamsNonStreaming,
  ResponseFormatTextJSONSchemaConfig,
} from "openai/resources/responses/responses";
import type { ResponseFormatJSONSchema } from "openai/resources/shared";
import { describe, expectTypeOf, it } from "vitest";
import type {
  AiSdkTools,
  AnthropicOutputFormat,
  AnthropicTool,
  ObjectSchema,
  OpenAIChatResponseFormat,
  OpenAIChatTool,
  OpenAIResponsesTextFormat,
  OpenAIResponsesTool,
  ProposalSchemaResult,
  ToolsResult,
} from "../../../src/core/llm/index.js";
import type { Catalog } from "../../../src/index.js";

/**
 * The AI SDK types `jsonSchema()`'s argument as `JSONSchema7` from @types/json-schema, which is not
 * installed here, so it resolves to `any` and would accept anything. These are the draft-07 declarations
 * of @types/json-schema that formletter's schemas use, copied, so the check below can fail.
 */
type JSONSchema7TypeName = "string" | "number" | "integer" | "boolean" | "object" | "array" | "null";
type JSONSchema7Type =
  | string
  | number
  | boolean
  | null
  | JSONSchema7Type[]
  | { [key: string]: JSONSchema7Type };
type JSONSchema7Definition = JSONSchema7 | boolean;
interface JSONSchema7 {
  type?: JSONSchema7TypeName | JSONSchema7TypeName[] | undefined;
  enum?: JSONSchema7Type[] | undefined;
  description?: string | undefined;
  properties?: { [key: string]: JSONSchema7Definition } | undefined;
  required?: string[] | undefined;
  additionalProperties?: JSONSchema7Definition | undefined;
  anyOf?: JSONSchema7Definition[] | undefined;
}

declare const catalog: Catalog;
declare const ticket: unknown;

describe("OpenAI Chat Completions", () => {
  it("tools are ChatCompletionTool[], and go into a request as they are", () => {
    const result = catalog.tools(ticket, { provider: "openai" });
    expectTypeOf(result).toEqualTypeOf<ToolsResult<"openai">>();
    expectTypeOf(result.tools).toEqualTypeOf<OpenAIChatTool[]>();
    expectTypeOf<OpenAIChatTool>().toExtend<ChatCompletionFunctionTool>();
    expectTypeOf<OpenAIChatTool[]>().toExtend<ChatCompletionTool[]>();
    const request: ChatCompletionCreateParamsNonStreaming = {
      model: "gpt-4.1",
      messages: [{ role: "user", content: "hello" }],
      tools: result.tools,
      tool_choice: "required",
    };
    expectTypeOf(request.tools).not.toBeAny();
  });

  it("the structured-output format is a response_format", () => {
    const schema = catalog.proposalSchema(ticket, { provider: "openai" });
    expectTypeOf(schema.format).toEqualTypeOf<OpenAIChatResponseFormat>();
    expectTypeOf<OpenAIChatResponseFormat>().toExtend<ResponseFormatJSONSchema>();
    const request: ChatCompletionCreateParamsNonStreaming = {
      model: "gpt-4.1",
      messages: [],
      response_format: schema.format,
    };
    expectTypeOf(request).not.toBeAny();
  });
});

describe("OpenAI Responses", () => {
  it("tools are FunctionTool[], and go into a request as they are", () => {
    const result = catalog.tools(ticket, { provider: "openai-responses" });
    expectTypeOf(result.tools).toEqualTypeOf<OpenAIResponsesTool[]>();
    expectTypeOf<OpenAIResponsesTool>().toExtend<FunctionTool>();
    const request: ResponseCreateParamsNonStreaming = {
      model: "gpt-4.1",
      input: "hello",
      tools: result.tools,
    };
    expectTypeOf(request).not.toBeAny();
  });

  it("the structured-output format is a text.format", () => {
    const schema = catalog.proposalSchema(ticket, { provider: "openai-responses" });
    expectTypeOf<OpenAIResponsesTextFormat>().toExtend<ResponseFormatTextJSONSchemaConfig>();
    const request: ResponseCreateParamsNonStreaming = {
      model: "gpt-4.1",
      input: "",
      text: { format: schema.format },
    };
    expectTypeOf(request).not.toBeAny();
  });
});

describe("Anthropic Messages", () => {
  it("tools are Tool[], and go into a request as they are", () => {
    const result = catalog.tools(ticket, { provider: "anthropic" });
    expectTypeOf(result.tools).toEqualTypeOf<AnthropicTool[]>();
    expectTypeOf<AnthropicTool>().toExtend<AnthropicSdkTool>();
    const request: MessageCreateParamsNonStreaming = {
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      messages: [{ role: "user", content: "hello" }],
      tools: result.tools,
      tool_choice: { type: "any" },
    };
    expectTypeOf(request).not.toBeAny();
  });

  it("the structured-output format is an output_config.format", () => {
    const schema = catalog.proposalSchema(ticket, { provider: "anthropic" });
    expectTypeOf<AnthropicOutputFormat>().toExtend<JSONOutputFormat>();
    const request: MessageCreateParamsNonStreaming = {
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      messages: [],
      output_config: { format: schema.format },
    };
    expectTypeOf(request).not.toBeAny();
  });
});

describe("Vercel AI SDK", () => {
  it("each input schema is jsonSchema()'s argument, and wraps into a ToolSet", () => {
    const result = catalog.tools(ticket, { provider: "ai-sdk" });
    expectTypeOf(result.tools).toEqualTypeOf<AiSdkTools>();
    expectTypeOf<ObjectSchema>().toExtend<JSONSchema7>();
    expectTypeOf<ObjectSchema>().toExtend<Parameters<typeof jsonSchema>[0]>();
    const tools: ToolSet = {};
    for (const [name, { description, inputSchema }] of Object.entries(result.tools)) {
      tools[name] = tool({ description, inputSchema: jsonSchema(inputSchema) });
    }
    expectTypeOf(tools).not.toBeAny();
  });

  it("the structured-output schema is jsonSchema()'s argument", () => {
    const schema: ProposalSchemaResult<"ai-sdk"> = catalog.proposalSchema(ticket, { provider: "ai-sdk" });
    expectTypeOf(schema.format).toEqualTypeOf<ObjectSchema>();
    expectTypeOf(schema.format).toExtend<JSONSchema7>();
    expectTypeOf(jsonSchema(schema.format)).toExtend<FlexibleSchema>();
  });
});

describe("misuse stays a compile error", () => {
  it("an unknown provider, or a provider's tools used for another", () => {
    // @ts-expect-error: not a provider
    catalog.tools(ticket, { provider: "gemini" });
    const anthropic = catalog.tools(ticket, { provider: "anthropic" });
    // @ts-expect-error: Anthropic tools are not Chat Completions tools
    const wrong: ChatCompletionTool[] = anthropic.tools;
    expectTypeOf(wrong).not.toBeAny();
  });
});
