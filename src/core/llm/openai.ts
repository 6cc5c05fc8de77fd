import type { ObjectSchema, ToolSpec } from "./json-schema.js";

/** A tool for OpenAI Chat Completions (`tools` of `chat.completions.create`), strict. */
export type OpenAIChatTool = {
  type: "function";
  function: { name: string; description: string; parameters: ObjectSchema; strict: true };
};

/** A tool for the OpenAI Responses API (`tools` of `responses.create`), strict. */
export type OpenAIResponsesTool = {
  type: "function";
  name: string;
  description: string;
  parameters: ObjectSchema;
  strict: true;
};

/** Chat Completions `response_format` for structured output. */
export type OpenAIChatResponseFormat = {
  type: "json_schema";
  json_schema: { name: string; description: string; schema: ObjectSchema; strict: true };
};

/** Responses API `text.format` for structured output. */
export type OpenAIResponsesTextFormat = {
  type: "json_schema";
  name: string;
  description: string;
  schema: ObjectSchema;
  strict: true;
};

/** Shapes a tool for Chat Completions. */
export function openaiChatTool(spec: ToolSpec): OpenAIChatTool {
  return {
    type: "function",
    function: { name: spec.name, description: spec.description, parameters: spec.parameters, strict: true },
  };
}

/** Shapes a tool for the Responses API: the same function, one level flatter. */
export function openaiResponsesTool(spec: ToolSpec): OpenAIResponsesTool {
  return {
    type: "function",
    name: spec.name,
    description: spec.description,
    parameters: spec.parameters,
    strict: true,
  };
}

/** Shapes a structured-output schema as Chat Completions' `response_format`. */
export function openaiChatFormat(spec: ToolSpec): OpenAIChatResponseFormat {
  return {
    type: "json_schema",
    json_schema: { name: spec.name, description: spec.description, schema: spec.parameters, strict: true },
  };
}

/** Shapes a structured-output schema as the Responses API's `text.format`. */
export function openaiResponsesFormat(spec: ToolSpec): OpenAIResponsesTextFormat {
  return {
    type: "json_schema",
    name: spec.name,
    description: spec.description,
    schema: spec.parameters,
    strict: true,
  };
}
