import type { ObjectSchema, ToolSpec } from "./json-schema.js";

/**
 * A tool for the Anthropic Messages API (`tools` of `messages.create`), strict. Optional slots take
 * the `"(none)"` value rather than a nullable type, so no parameter counts against Anthropic's union
 * budget; and as the case of an enum value may come back changed, handles, keys and template ids are
 * compared case-insensitively when decided.
 */
export type AnthropicTool = {
  name: string;
  description: string;
  input_schema: ObjectSchema;
  strict: true;
};

/** The Messages API's `output_config.format` for structured output (JSON outputs). */
export type AnthropicOutputFormat = { type: "json_schema"; schema: ObjectSchema };

/** Shapes a tool for the Messages API. */
export function anthropicTool(spec: ToolSpec): AnthropicTool {
  return { name: spec.name, description: spec.description, input_schema: spec.parameters, strict: true };
}

/** Shapes a structured-output schema as `output_config.format`. */
export function anthropicFormat(spec: ToolSpec): AnthropicOutputFormat {
  return { type: "json_schema", schema: spec.parameters };
}
