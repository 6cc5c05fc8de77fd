import type { JsonSchema } from "./json-schema.js";

/**
 * OpenAI's published limits for strict function calling and Structured Outputs: the "Supported
 * schemas" section of https://platform.openai.com/docs/guides/structured-outputs and the `tools`
 * parameter of https://platform.openai.com/docs/api-reference/chat/create. OpenAI states the size
 * limits per schema; whether the function schemas of one request are counted together is not
 * documented, so the preflight counts them together: the reading that never under-counts.
 *
 * @example
 * import { openaiLimits } from "formletter/llm";
 * const room = openaiLimits.enumValues - handlesInMyOwnTools;
 */
export const openaiLimits = {
  /** At most 128 functions in `tools`. */
  tools: 128,
  /** At most 1,000 enum values across all enum properties of a schema. */
  enumValues: 1_000,
  /** One string enum of more than 250 values may total at most 15,000 characters. */
  largeEnum: 250,
  largeEnumChars: 15_000,
  /** At most 5,000 object properties in total. */
  properties: 5_000,
  /** At most 10 levels of object nesting. */
  nesting: 10,
  /** At most 120,000 characters of property names, definition names, enum and const values in total. */
  stringChars: 120_000,
} as const;

/**
 * Anthropic's published limits for strict tool use and JSON outputs: the "Schema complexity limits"
 * of https://platform.claude.com/docs/en/build-with-claude/structured-outputs, counted per request
 * across all strict schemas. (Strict mode also rejects `oneOf`, which formletter never generates.)
 *
 * @example
 * import { anthropicLimits } from "formletter/llm";
 * const templatesAtOnce = anthropicLimits.strictTools - 1; // one tool is escalate_to_human
 */
export const anthropicLimits = {
  /** At most 20 tools with `strict: true` in one request. */
  strictTools: 20,
  /** At most 24 optional parameters (properties not in `required`) across all strict schemas. */
  optionalParams: 24,
  /** At most 16 parameters with a union type (`anyOf` or a `type` array) across all strict schemas. */
  unionParams: 16,
} as const;

/** Whose published limits to check. "both" checks the rules of every provider (portable tools). */
export type LimitRules = "openai" | "anthropic" | "both" | "none";

/** Which limit a tool set or schema is over. */
export type PreflightRule =
  | "tool_count"
  | "enum_values"
  | "large_enum"
  | "properties"
  | "nesting"
  | "string_chars"
  | "optional_params"
  | "union_params";

/** One limit a tool set or schema is over, with the figure and what it came to. */
export interface PreflightProblem {
  readonly provider: "openai" | "anthropic";
  readonly rule: PreflightRule;
  readonly limit: number;
  readonly actual: number;
  /** The tool (or schema) at fault, for limits a single schema is over. */
  readonly tool?: string;
  /** The slot at fault, for an enum over a limit on its own. */
  readonly slot?: string;
  readonly detail: string;
}

/** What the preflight checks: each tool's (or the structured-output schema's) name and parameters. */
export interface PreflightInput {
  readonly name: string;
  readonly parameters: JsonSchema;
}

/**
 * Checks tools (or one structured-output schema) against the providers' published limits. Returns
 * every limit that is exceeded; an empty list means the request fits. `rules` defaults to "both".
 *
 * @example
 * import { preflight } from "formletter/llm";
 * const problems = preflight([{ name: "my_tool", parameters: mySchema }], "anthropic");
 * if (problems.length > 0) console.warn(problems.map((p) => p.detail).join("\n"));
 */
export function preflight(tools: readonly PreflightInput[], rules: LimitRules = "both"): PreflightProblem[] {
  // Each schema is measured once, for both providers' rules.
  const sized = tools.map((tool) => ({ name: tool.name, size: measure(tool.parameters) }));
  const problems: PreflightProblem[] = [];
  if (rules === "openai" || rules === "both") problems.push(...openaiProblems(sized));
  if (rules === "anthropic" || rules === "both") problems.push(...anthropicProblems(sized));
  return problems;
}

interface SizedTool {
  readonly name: string;
  readonly size: Size;
}

/** A list of problems and the check that adds one when `actual` is over `limit`. */
function problemList(provider: PreflightProblem["provider"]) {
  const problems: PreflightProblem[] = [];
  const check = (
    rule: PreflightRule,
    limit: number,
    actual: number,
    detail: () => string,
    at: { tool?: string; slot?: string } = {},
  ) => {
    if (actual > limit) problems.push({ provider, rule, limit, actual, detail: detail(), ...at });
  };
  return { problems, check };
}

interface Size {
  enumValues: number;
  properties: number;
  stringChars: number;
  optional: number;
  unions: number;
  depth: number;
  /** Enums over 250 values whose values are over 15,000 characters: [property, characters]. */
  largeEnums: [string, number][];
}

function measure(schema: JsonSchema): Size {
  const size: Size = {
    enumValues: 0,
    properties: 0,
    stringChars: 0,
    optional: 0,
    unions: 0,
    depth: 0,
    largeEnums: [],
  };
  const walk = (node: JsonSchema, name: string, depth: number) => {
    const isObject = node.type === "object" || node.properties !== undefined;
    const level = isObject ? depth + 1 : depth;
    size.depth = Math.max(size.depth, level);
    if (node.enum !== undefined) {
      const chars = node.enum.reduce((sum, value) => sum + value.length, 0);
      size.enumValues += node.enum.length;
      size.stringChars += chars;
      if (node.enum.length > openaiLimits.largeEnum && chars > openaiLimits.largeEnumChars) {
        size.largeEnums.push([name, chars]);
      }
    }
    const required = new Set(node.required ?? []);
    for (const [key, child] of Object.entries(node.properties ?? {})) {
      size.properties += 1;
      size.stringChars += key.length;
      if (!required.has(key)) size.optional += 1;
      if (child.anyOf !== undefined || Array.isArray((child as { type?: unknown }).type)) size.unions += 1;
      walk(child, key, level);
    }
    for (const branch of node.anyOf ?? []) walk(branch, name, depth);
  };
  walk(schema, "", 0);
  return size;
}

function openaiProblems(tools: readonly SizedTool[]): PreflightProblem[] {
  const { problems, check } = problemList("openai");
  check(
    "tool_count",
    openaiLimits.tools,
    tools.length,
    () => `${tools.length} tools is over OpenAI's ${openaiLimits.tools} a request`,
  );
  let enums = 0;
  let properties = 0;
  let chars = 0;
  for (const { name, size } of tools) {
    enums += size.enumValues;
    properties += size.properties;
    chars += size.stringChars;
    check(
      "nesting",
      openaiLimits.nesting,
      size.depth,
      () => `${name} nests ${size.depth} levels, over OpenAI's ${openaiLimits.nesting}`,
      { tool: name },
    );
    for (const [slot, length] of size.largeEnums) {
      check(
        "large_enum",
        openaiLimits.largeEnumChars,
        length,
        () =>
          `${name}.${slot} lists over ${openaiLimits.largeEnum} values totalling ${length} characters, over OpenAI's ${openaiLimits.largeEnumChars}`,
        { tool: name, slot },
      );
    }
  }
  check(
    "enum_values",
    openaiLimits.enumValues,
    enums,
    () => `${enums} enum values is over OpenAI's ${openaiLimits.enumValues}`,
  );
  check(
    "properties",
    openaiLimits.properties,
    properties,
    () => `${properties} properties is over OpenAI's ${openaiLimits.properties}`,
  );
  check(
    "string_chars",
    openaiLimits.stringChars,
    chars,
    () => `${chars} characters of names and enum values is over OpenAI's ${openaiLimits.stringChars}`,
  );
  return problems;
}

function anthropicProblems(tools: readonly SizedTool[]): PreflightProblem[] {
  const { problems, check } = problemList("anthropic");
  check(
    "tool_count",
    anthropicLimits.strictTools,
    tools.length,
    () => `${tools.length} strict tools is over Anthropic's ${anthropicLimits.strictTools} a request`,
  );
  let optional = 0;
  let unions = 0;
  for (const { size } of tools) {
    optional += size.optional;
    unions += size.unions;
  }
  check(
    "optional_params",
    anthropicLimits.optionalParams,
    optional,
    () => `${optional} optional parameters is over Anthropic's ${anthropicLimits.optionalParams}`,
  );
  check(
    "union_params",
    anthropicLimits.unionParams,
    unions,
    () => `${unions} union-typed parameters is over Anthropic's ${anthropicLimits.unionParams}`,
  );
  return problems;
}
