/**
 * What a provider's strict decoding lets a model write for a tool: the arguments a schema formletter
 * generates accepts (required properties, no others, enums, patterns). Written from the JSON Schema
 * rules, not from src/core/llm, so the tests check the schemas against the rules.
 */
import type { JsonSchema } from "../../../src/core/llm/index.js";

/** Whether strict decoding could produce `args` for a tool with these parameters. */
export function strictlyAccepts(schema: JsonSchema, args: unknown): boolean {
  if (schema.anyOf !== undefined) return schema.anyOf.some((branch) => strictlyAccepts(branch, args));
  if (schema.type === "object") {
    if (typeof args !== "object" || args === null || Array.isArray(args)) return false;
    const record = args as Record<string, unknown>;
    const properties = schema.properties ?? {};
    if (Object.keys(record).some((key) => !Object.hasOwn(properties, key))) return false;
    if ((schema.required ?? []).some((key) => !Object.hasOwn(record, key))) return false;
    return Object.entries(record).every(([key, value]) =>
      strictlyAccepts(properties[key] as JsonSchema, value),
    );
  }
  if (schema.type === "string") {
    if (typeof args !== "string") return false;
    if (schema.enum !== undefined && !schema.enum.includes(args)) return false;
    if (schema.pattern !== undefined && !new RegExp(schema.pattern, "u").test(args)) return false;
    return true;
  }
  return false;
}
