import { describe, expect, it } from "vitest";
import {
  anthropicLimits,
  type JsonSchema,
  noneValue,
  openaiLimits,
  type PreflightRule,
  preflight,
  toolNames,
} from "../../../src/core/llm/index.js";
import { allSchemaStages, allStages, bulkCatalog, bulkTicket, providers } from "./fixtures.js";
import {
  aiSdkToolsProblems,
  anthropicSchemaProblems,
  anthropicToolsProblems,
  openaiChatToolsProblems,
  openaiSchemaProblems,
} from "./provider-rules.js";

const object = (properties: Record<string, JsonSchema>, required = Object.keys(properties)): JsonSchema => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});
const strings = (count: number, length = 6) =>
  Array.from({ length: count }, (_, index) => `v${String(index).padStart(length - 1, "0")}`);
const rulesOf = (problems: readonly { rule: PreflightRule }[]) => problems.map((problem) => problem.rule);

describe("preflight() checks the published figures, at and over each limit", () => {
  const tool = (name: string, parameters: JsonSchema) => ({ name, parameters });
  const small = tool("t", object({ a: { type: "string", enum: ["x"] } }));

  it("OpenAI: 128 tools", () => {
    expect(preflight(Array(openaiLimits.tools).fill(small), "openai")).toEqual([]);
    expect(rulesOf(preflight(Array(openaiLimits.tools + 1).fill(small), "openai"))).toEqual(["tool_count"]);
  });

  it("OpenAI: 1,000 enum values, counted across the tools of a request", () => {
    const half = tool("t", object({ a: { type: "string", enum: strings(500) } }));
    expect(preflight([half, half], "openai")).toEqual([]);
    const problems = preflight([half, half, small], "openai");
    expect(problems).toEqual([expect.objectContaining({ rule: "enum_values", limit: 1_000, actual: 1_001 })]);
    expect(problems[0]?.detail).toBe("1001 enum values is over OpenAI's 1000");
  });

  it("OpenAI: 15,000 characters for one enum of more than 250 values", () => {
    const long = (count: number, length: number) =>
      tool("t", object({ big: { type: "string", enum: strings(count, length) } }));
    expect(preflight([long(250, 100)], "openai")).toEqual([]);
    expect(preflight([long(251, 59)], "openai")).toEqual([]);
    expect(preflight([long(251, 60)], "openai")).toEqual([
      expect.objectContaining({ rule: "large_enum", tool: "t", slot: "big", actual: 15_060 }),
    ]);
  });

  it("OpenAI: 10 levels of nesting", () => {
    const nest = (levels: number): JsonSchema =>
      levels === 1 ? object({ leaf: { type: "string" } }) : object({ inner: nest(levels - 1) });
    expect(preflight([tool("t", nest(10))], "openai")).toEqual([]);
    expect(rulesOf(preflight([tool("t", nest(11))], "openai"))).toEqual(["nesting"]);
  });

  it("OpenAI: 5,000 properties and 120,000 characters of names and values", () => {
    const wide = (count: number, nameLength: number) =>
      tool(
        "t",
        object(
          Object.fromEntries(strings(count, nameLength).map((name) => [name, { type: "string" as const }])),
        ),
      );
    expect(preflight([wide(5_000, 6)], "openai")).toEqual([]);
    expect(rulesOf(preflight([wide(5_001, 6)], "openai"))).toEqual(["properties"]);
    expect(preflight([wide(4_000, 30)], "openai")).toEqual([]);
    expect(rulesOf(preflight([wide(4_001, 30)], "openai"))).toEqual(["string_chars"]);
  });

  it("Anthropic: 20 strict tools, 24 optional and 16 union-typed parameters a request", () => {
    expect(preflight(Array(anthropicLimits.strictTools).fill(small), "anthropic")).toEqual([]);
    expect(rulesOf(preflight(Array(21).fill(small), "anthropic"))).toEqual(["tool_count"]);
    const optional = (count: number) =>
      tool(
        "t",
        object(Object.fromEntries(strings(count).map((name) => [name, { type: "string" as const }])), []),
      );
    expect(preflight([optional(12), optional(12)], "anthropic")).toEqual([]);
    expect(rulesOf(preflight([optional(12), optional(13)], "anthropic"))).toEqual(["optional_params"]);
    const unions = (count: number) =>
      tool(
        "t",
        object(
          Object.fromEntries(
            strings(count).map((name) => [
              name,
              { anyOf: [{ type: "string" as const }, { type: "object" as const }] },
            ]),
          ),
        ),
      );
    expect(preflight([unions(16)], "anthropic")).toEqual([]);
    expect(rulesOf(preflight([unions(8), unions(9)], "anthropic"))).toEqual(["union_params"]);
  });

  it('"both" checks both providers\' rules, "none" checks nothing', () => {
    const many = Array(129).fill(small);
    expect(preflight(many, "both").map((problem) => [problem.provider, problem.rule])).toEqual([
      ["openai", "tool_count"],
      ["anthropic", "tool_count"],
    ]);
    expect(preflight(many)).toHaveLength(2);
    expect(preflight(many, "none")).toEqual([]);
  });
});

describe("a ticket over OpenAI's 1,000 enum values: two stages, nothing cut", () => {
  const catalog = bulkCatalog(3);
  const ticket = bulkTicket(400);
  const handles = catalog.handles(ticket).entries.filter((entry) => entry.collection === "parts");

  it("stage one offers choose_template and escalate_to_human, and says why", () => {
    const result = catalog.tools(ticket, { provider: "openai" });
    expect(result.stage).toBe("choose_template");
    expect(result.tools.map((tool) => tool.function.name)).toEqual([toolNames.choose, toolNames.escalate]);
    expect(result.tools[0]?.function.parameters.properties.template?.enum).toEqual([
      "part_notice_1",
      "part_notice_2",
      "part_notice_3",
    ]);
    expect(result.degraded?.reason).toBe("1203 enum values is over OpenAI's 1000");
    expect(result.degraded?.problems).toEqual([expect.objectContaining({ rule: "enum_values" })]);
    expect(result.degraded?.opened).toBeUndefined();
    expect(result.problems).toEqual([]);
    expect(openaiChatToolsProblems(result.tools)).toEqual([]);
  });

  it("stage two is one template's tool with every handle, and escalate_to_human", () => {
    const result = catalog.tools(ticket, { provider: "openai" });
    const call = result.tools[0]?.function;
    const second = result.next(call?.name, JSON.stringify({ template: "part_notice_2" }));
    expect(second?.stage).toBe("slots");
    expect(second?.templates).toEqual(["part_notice_2"]);
    expect(second?.tools.map((tool) => tool.function.name)).toEqual(["part_notice_2", toolNames.escalate]);
    expect(second?.tools[0]?.function.parameters.properties.part?.enum).toEqual(
      handles.map((entry) => entry.handle),
    );
    expect(second?.degraded).toEqual(result.degraded);
    expect(second?.problems).toEqual([]);
    expect(openaiChatToolsProblems(second?.tools)).toEqual([]);
    const chosen = handles[399]?.handle ?? "";
    const decision = catalog.decide(catalog.parseToolCall("part_notice_2", `{"part": "${chosen}"}`), ticket);
    expect(decision).toMatchObject({ outcome: "send", choices: { part: chosen } });
  });

  it("next() reads the choice as an object or text, in any case; anything else is undefined", () => {
    const result = catalog.tools(ticket, { provider: "anthropic", limits: "openai" });
    expect(result.next("CHOOSE_TEMPLATE", { template: "PART_NOTICE_3" })?.templates).toEqual([
      "part_notice_3",
    ]);
    expect(result.next(toolNames.choose, { template: "part_notice_9" })).toBeUndefined();
    expect(result.next(toolNames.choose, "{oops")).toBeUndefined();
    expect(result.next(toolNames.escalate, { template: "part_notice_1" })).toBeUndefined();
    expect(result.next("part_notice_1", { part: handles[0]?.handle })).toBeUndefined();
    expect(result.forTemplate("part_notice_1")?.tools.map((tool) => tool.name)).toEqual([
      "part_notice_1",
      toolNames.escalate,
    ]);
  });

  it("Anthropic has no enum-size limit to apply: one stage", () => {
    const result = catalog.tools(ticket, { provider: "anthropic" });
    expect(result.stage).toBe("single");
    expect(anthropicToolsProblems(result.tools)).toEqual([]);
  });
});

describe("one template over 1,000 handles on its own: its slot takes any handle, and says so", () => {
  const catalog = bulkCatalog(1);
  const ticket = bulkTicket(1_200);

  it("opens the slot instead of cutting the list, and reports it", () => {
    const result = catalog.tools(ticket, { provider: "openai" });
    expect(result.stage).toBe("choose_template");
    const second = result.forTemplate("part_notice_1");
    const part = second?.tools[0]?.function.parameters.properties.part;
    expect(part?.enum).toBeUndefined();
    expect(part?.type).toBe("string");
    // Unlisted, the slot still takes only the shape of a parts handle; decide() checks the handle itself.
    expect(part?.pattern).toBe("^p-[0-9a-f]+$");
    for (const entry of catalog.handles(ticket).entries.filter((e) => e.collection === "parts"))
      expect(entry.handle).toMatch(new RegExp(part?.pattern ?? "$^"));
    expect(second?.degraded?.opened).toEqual(["part_notice_1.part"]);
    expect(second?.degraded?.reason).toMatch(/1203 enum values is over OpenAI's 1000/);
    expect(second?.problems).toEqual([]);
    expect(openaiChatToolsProblems(second?.tools)).toEqual([]);
    const handle = catalog
      .handles(ticket)
      .entries.filter((entry) => entry.collection === "parts")
      .at(-1)?.handle;
    expect(catalog.decide(catalog.parseToolCall("part_notice_1", { part: handle }), ticket)).toMatchObject({
      outcome: "send",
    });
    expect(catalog.decide(catalog.parseToolCall("part_notice_1", { part: "p-zzzz" }), ticket)).toMatchObject({
      reason: "record_not_found",
    });
  });

  it("never lists fewer values than fit: each enum is complete or absent", () => {
    let complete = 0;
    for (const provider of providers) {
      for (const stage of allStages(catalog.tools(ticket, { provider }))) {
        const lists = [...JSON.stringify(stage.tools).matchAll(/"enum":\[([^\]]*)\]/g)].map(
          (match) => JSON.parse(`[${match[1]}]`) as string[],
        );
        for (const values of lists) {
          if (!values.some((value) => value.startsWith("p-"))) continue;
          expect(values).toHaveLength(1_200);
          complete += 1;
        }
      }
    }
    // Anthropic has no enum-size limit: its tools list all 1,200, in one stage.
    expect(complete).toBeGreaterThan(0);
  });
});

describe("more than 20 templates for Anthropic: two stages", () => {
  const catalog = bulkCatalog(21);
  const ticket = bulkTicket(3);

  it("stage one lists every template; stage two fits", () => {
    const result = catalog.tools(ticket, { provider: "anthropic" });
    expect(result.stage).toBe("choose_template");
    expect(result.degraded?.reason).toBe("22 strict tools is over Anthropic's 20 a request");
    expect(result.tools[0]?.input_schema.properties.template?.enum).toHaveLength(21);
    expect(result.tools[0]?.description).toContain("part_notice_21: Part notice number 21");
    expect(anthropicToolsProblems(result.tools)).toEqual([]);
    for (const id of result.templates) {
      const second = result.forTemplate(id);
      expect(second?.tools).toHaveLength(2);
      expect(anthropicToolsProblems(second?.tools)).toEqual([]);
    }
  });

  it("OpenAI takes all 22 tools at once; the AI SDK, which may forward to either, takes two stages", () => {
    expect(catalog.tools(ticket, { provider: "openai" }).stage).toBe("single");
    const sdk = catalog.tools(ticket, { provider: "ai-sdk" });
    expect(sdk.stage).toBe("choose_template");
    expect(aiSdkToolsProblems(sdk.tools)).toEqual([]);
    expect(catalog.tools(ticket, { provider: "ai-sdk", limits: "openai" }).stage).toBe("single");
  });

  it("more than 128 templates for OpenAI: two stages", () => {
    const many = bulkCatalog(129);
    const result = many.tools(ticket, { provider: "openai" });
    expect(result.stage).toBe("choose_template");
    expect(result.degraded?.problems).toEqual([expect.objectContaining({ rule: "tool_count", actual: 130 })]);
    expect(openaiChatToolsProblems(result.tools)).toEqual([]);
  });
});

describe("proposalSchema() degrades the same way", () => {
  it("over 1,000 enum values in the one schema: choose a template first", () => {
    const catalog = bulkCatalog(3);
    const ticket = bulkTicket(400);
    const result = catalog.proposalSchema(ticket, { provider: "openai" });
    expect(result.stage).toBe("choose_template");
    expect(Object.keys(result.schema.properties)).toEqual(["decision"]);
    const branches = result.schema.properties.decision?.anyOf ?? [];
    expect(branches.map((branch) => Object.keys(branch.properties ?? {})[0])).toEqual([
      toolNames.choose,
      toolNames.escalate,
    ]);
    const second = result.next({ decision: { [toolNames.choose]: { template: "part_notice_1" } } });
    expect(second?.stage).toBe("slots");
    expect(second?.problems).toEqual([]);
    expect(openaiSchemaProblems(second?.schema)).toEqual([]);
    expect(
      result.next('{"decision": {"escalate_to_human": {"code": "needs_human", "note": ""}}}'),
    ).toBeUndefined();
    for (const stage of allSchemaStages(result)) expect(openaiSchemaProblems(stage.schema)).toEqual([]);
  });

  it("a small ticket fits in one schema for every provider", () => {
    const catalog = bulkCatalog(3);
    const ticket = bulkTicket(10);
    for (const provider of providers) {
      const result = catalog.proposalSchema(ticket, { provider });
      expect(result.stage).toBe("single");
      expect(openaiSchemaProblems(result.schema)).toEqual([]);
      expect(anthropicSchemaProblems(result.schema)).toEqual([]);
    }
    expect(JSON.stringify(catalog.proposalSchema(ticket, { provider: "openai" }).schema)).not.toContain(
      noneValue,
    );
  });
});
