import type { ObjectSchema, ToolSpec } from "./json-schema.js";

/**
 * A tool for the Vercel AI SDK, before its schema is wrapped: pass `inputSchema` to the SDK's
 * `jsonSchema()` (formletter does not depend on the SDK), e.g.
 * `tool({ description, inputSchema: jsonSchema(inputSchema) })`.
 */
export type AiSdkTool = { description: string; inputSchema: ObjectSchema };

/** AI SDK tools by name, as `generateText({ tools })` takes them once each schema is wrapped. */
export type AiSdkTools = { [name: string]: AiSdkTool };

/** Shapes tools for the AI SDK: a map of name to description and input schema. */
export function aiSdkTools(specs: readonly ToolSpec[]): AiSdkTools {
  const tools: AiSdkTools = {};
  for (const spec of specs)
    tools[spec.name] = { description: spec.description, inputSchema: spec.parameters };
  return tools;
}
