/**
 * The providers' published rules for strict tools and structured output, written down independently of
 * src/core/llm/preflight.ts, so the tests check the generated schemas against the rules and not against the
 * code that produced them.
 *
 * OpenAI: https://platform.openai.com/docs/guides/structured-outputs ("Supported schemas"): the root is
 * an object and not `anyOf`; every object has `additionalProperties: false` and lists every property
 * in `required`; `allOf`, `not`, `if`/`then`/`else`, `dependentRequired`, `dependentSchemas` are not
 * supported; at most 5,000 properties, 10 levels of nesting, 1,000 enum values, 120,000 characters of
 * names and enum values, and 15,000 characters for one enum of more than 250 values. Function names
 * match ^[a-zA-Z0-9_-]{1,64}$; at most 128 tools.
 *
 * Anthropic: https://platform.claude.com/docs/en/build-with-claude/structured-outputs: `additionalProperties:
 * false` on objects, no `oneOf`, no numeric or length constraints, enums of primitives; at most 20
 * strict tools, 24 optional parameters and 16 union-typed parameters a request. Tool names match
 * ^[a-zA-Z0-9_-]{1,64}$.
 */

type Node = Record<string, unknown>;

const toolName = /^[a-zA-Z0-9_-]{1,64}$/;
const openaiBanned = ["allOf", "not", "if", "then", "else", "dependentRequired", "dependentSchemas", "oneOf"];
const anthropicBanned = [
  "oneOf",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "$ref",
];
// Keywords formletter's schemas may use at all: anything else is a surprise worth failing on.
const known = new Set([
  "type",
  "description",
  "enum",
  "pattern",
  "properties",
  "required",
  "additionalProperties",
  "anyOf",
]);

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

interface Walked {
  problems: string[];
  enumValues: number;
  properties: number;
  chars: number;
  depth: number;
  optional: number;
  unions: number;
  /** Properties left out of `required`: fine for Anthropic (up to 24), never for OpenAI strict. */
  notRequired: string[];
}

/** Walks a schema and collects structural problems and the counts the limits are about. */
function walk(schema: unknown, banned: readonly string[], where: string): Walked {
  const out: Walked = {
    problems: [],
    enumValues: 0,
    properties: 0,
    chars: 0,
    depth: 0,
    optional: 0,
    unions: 0,
    notRequired: [],
  };
  const visit = (node: unknown, path: string, depth: number) => {
    if (!isNode(node)) {
      out.problems.push(`${path}: not a schema object`);
      return;
    }
    for (const key of Object.keys(node)) {
      if (banned.includes(key)) out.problems.push(`${path}: "${key}" is not supported`);
      if (!known.has(key)) out.problems.push(`${path}: unexpected keyword "${key}"`);
    }
    const isObject = node.type === "object";
    const level = isObject ? depth + 1 : depth;
    out.depth = Math.max(out.depth, level);
    if (node.type !== undefined && node.type !== "object" && node.type !== "string") {
      out.problems.push(`${path}: type ${JSON.stringify(node.type)} (only "object" and "string" expected)`);
    }
    if (Array.isArray(node.enum)) {
      const values = node.enum;
      if (values.length === 0) out.problems.push(`${path}: empty enum`);
      if (values.some((value) => typeof value !== "string"))
        out.problems.push(`${path}: non-string enum value`);
      if (new Set(values).size !== values.length) out.problems.push(`${path}: repeated enum value`);
      const chars = values.reduce((sum: number, value) => sum + String(value).length, 0);
      out.enumValues += values.length;
      out.chars += chars;
      if (values.length > 250 && chars > 15_000)
        out.problems.push(`${path}: ${values.length} values of ${chars} characters`);
      if (node.type !== "string") out.problems.push(`${path}: an enum without type "string"`);
    } else if (node.enum !== undefined) out.problems.push(`${path}: enum is not an array`);
    if (isObject) {
      if (node.additionalProperties !== false)
        out.problems.push(`${path}: additionalProperties is not false`);
      const properties = isNode(node.properties) ? node.properties : undefined;
      if (properties === undefined) out.problems.push(`${path}: an object without properties`);
      const required = Array.isArray(node.required) ? (node.required as unknown[]) : [];
      for (const [name, child] of Object.entries(properties ?? {})) {
        out.properties += 1;
        out.chars += name.length;
        if (!required.includes(name)) {
          out.optional += 1;
          out.notRequired.push(`${path}.${name}: not required`);
        }
        if (isNode(child) && (child.anyOf !== undefined || Array.isArray(child.type))) out.unions += 1;
        visit(child, `${path}.${name}`, level);
      }
      for (const name of required) {
        if (typeof name !== "string" || !Object.hasOwn(properties ?? {}, name)) {
          out.problems.push(`${path}: required names "${String(name)}", which is not a property`);
        }
      }
    }
    if (node.anyOf !== undefined) {
      if (!Array.isArray(node.anyOf) || node.anyOf.length === 0) out.problems.push(`${path}: anyOf is empty`);
      const firstKeys = new Set<string>();
      for (const [index, branch] of (node.anyOf as unknown[]).entries()) {
        // OpenAI rejects anyOf branches that are objects starting with the same key.
        const first =
          isNode(branch) && isNode(branch.properties) ? Object.keys(branch.properties)[0] : undefined;
        if (first !== undefined) {
          if (firstKeys.has(first)) out.problems.push(`${path}.anyOf: two branches start with "${first}"`);
          firstKeys.add(first);
        }
        visit(branch, `${path}.anyOf[${index}]`, depth);
      }
    }
  };
  visit(schema, where, 0);
  if (!isNode(schema) || schema.type !== "object") out.problems.push(`${where}: the root is not an object`);
  if (isNode(schema) && (schema.anyOf !== undefined || schema.oneOf !== undefined)) {
    out.problems.push(`${where}: a union at the root`);
  }
  return out;
}

/** Problems of one strict schema under OpenAI's rules (tools and response formats alike). */
export function openaiSchemaProblems(schema: unknown, where = "schema"): string[] {
  const walked = walk(schema, openaiBanned, where);
  const problems = [...walked.problems, ...walked.notRequired];
  if (walked.enumValues > 1_000) problems.push(`${where}: ${walked.enumValues} enum values`);
  if (walked.properties > 5_000) problems.push(`${where}: ${walked.properties} properties`);
  if (walked.depth > 10) problems.push(`${where}: ${walked.depth} levels of nesting`);
  if (walked.chars > 120_000) problems.push(`${where}: ${walked.chars} characters of names and values`);
  return problems;
}

/** Problems of a Chat Completions `tools` array (strict function tools). */
export function openaiChatToolsProblems(tools: unknown): string[] {
  if (!Array.isArray(tools)) return ["tools is not an array"];
  const problems: string[] = [];
  if (tools.length > 128) problems.push(`${tools.length} tools`);
  let enums = 0;
  for (const [index, tool] of tools.entries()) {
    const fn = isNode(tool) && isNode(tool.function) ? tool.function : undefined;
    if (!isNode(tool) || tool.type !== "function" || fn === undefined) {
      problems.push(`tools[${index}]: not { type: "function", function }`);
      continue;
    }
    if (typeof fn.name !== "string" || !toolName.test(fn.name)) problems.push(`tools[${index}]: bad name`);
    if (fn.strict !== true) problems.push(`${String(fn.name)}: not strict`);
    if (typeof fn.description !== "string" || fn.description === "")
      problems.push(`${String(fn.name)}: no description`);
    problems.push(...openaiSchemaProblems(fn.parameters, String(fn.name)));
    enums += walk(fn.parameters, [], "").enumValues;
  }
  // Counted across tools as well: formletter's preflight reads the per-schema limit that way.
  if (enums > 1_000) problems.push(`${enums} enum values across the tools`);
  return problems;
}

/** Problems of a Responses API `tools` array. */
export function openaiResponsesToolsProblems(tools: unknown): string[] {
  if (!Array.isArray(tools)) return ["tools is not an array"];
  const problems: string[] = [];
  if (tools.length > 128) problems.push(`${tools.length} tools`);
  for (const [index, tool] of tools.entries()) {
    if (!isNode(tool) || tool.type !== "function" || "function" in tool) {
      problems.push(`tools[${index}]: not a flat { type: "function", name, parameters }`);
      continue;
    }
    if (typeof tool.name !== "string" || !toolName.test(tool.name))
      problems.push(`tools[${index}]: bad name`);
    if (tool.strict !== true) problems.push(`${String(tool.name)}: not strict`);
    problems.push(...openaiSchemaProblems(tool.parameters, String(tool.name)));
  }
  return problems;
}

/** Problems of an Anthropic `tools` array of strict tools. */
export function anthropicToolsProblems(tools: unknown): string[] {
  if (!Array.isArray(tools)) return ["tools is not an array"];
  const problems: string[] = [];
  if (tools.length > 20) problems.push(`${tools.length} strict tools`);
  let optional = 0;
  let unions = 0;
  for (const [index, tool] of tools.entries()) {
    if (!isNode(tool) || typeof tool.name !== "string" || !toolName.test(tool.name)) {
      problems.push(`tools[${index}]: bad name`);
      continue;
    }
    if (tool.strict !== true) problems.push(`${tool.name}: not strict`);
    if ("parameters" in tool || "function" in tool)
      problems.push(`${tool.name}: OpenAI fields on an Anthropic tool`);
    const walked = walk(tool.input_schema, anthropicBanned, tool.name);
    problems.push(...walked.problems);
    optional += walked.optional;
    unions += walked.unions;
  }
  if (optional > 24) problems.push(`${optional} optional parameters`);
  if (unions > 16) problems.push(`${unions} union-typed parameters`);
  return problems;
}

/** Problems of one Anthropic JSON-outputs schema (`output_config.format.schema`). */
export function anthropicSchemaProblems(schema: unknown, where = "schema"): string[] {
  const walked = walk(schema, anthropicBanned, where);
  const problems = [...walked.problems];
  if (walked.optional > 24) problems.push(`${walked.optional} optional parameters`);
  if (walked.unions > 16) problems.push(`${walked.unions} union-typed parameters`);
  return problems;
}

/** Problems of AI SDK tools: a map of name to `{ description, inputSchema }`, portable to both providers. */
export function aiSdkToolsProblems(tools: unknown): string[] {
  if (!isNode(tools)) return ["tools is not an object"];
  const problems: string[] = [];
  const entries = Object.entries(tools);
  if (entries.length > 20) problems.push(`${entries.length} tools (over Anthropic's 20 strict tools)`);
  for (const [name, tool] of entries) {
    if (!toolName.test(name)) problems.push(`${name}: bad name`);
    if (!isNode(tool) || typeof tool.description !== "string") {
      problems.push(`${name}: not { description, inputSchema }`);
      continue;
    }
    problems.push(...openaiSchemaProblems(tool.inputSchema, name));
    problems.push(...walk(tool.inputSchema, anthropicBanned, name).problems);
  }
  return problems;
}
