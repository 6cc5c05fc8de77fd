import { describe, expect, it } from "vitest";
import { noneValue, toolNames } from "../../../src/core/llm/index.js";
import { sellerCatalog } from "../../../templates/seller.js";
import { catalog, clinicTicket, handleOf, templates } from "../../fixtures/clinic.js";
import { providers, sellerTickets } from "./fixtures.js";
import { anthropicSchemaProblems, openaiSchemaProblems } from "./provider-rules.js";

const ticket = clinicTicket();

describe("catalog.proposalSchema()", () => {
  const result = catalog.proposalSchema(ticket, { provider: "openai" });

  it("is one object at the root, whose one property is an anyOf of every choice", () => {
    expect(result.schema.type).toBe("object");
    expect(result.schema).not.toHaveProperty("anyOf");
    expect(result.schema).not.toHaveProperty("oneOf");
    expect(result.schema.required).toEqual(["decision"]);
    const branches = result.schema.properties.decision?.anyOf ?? [];
    expect(branches.map((branch) => Object.keys(branch.properties ?? {}))).toEqual([
      ...templates.map((template) => [template.id]),
      [toolNames.escalate],
    ]);
    expect(JSON.stringify(result.schema)).not.toContain("oneOf");
  });

  it("holds each template's tool parameters, with the tool's description", () => {
    const tools = catalog.tools(ticket, { provider: "openai" }).tools;
    const branches = result.schema.properties.decision?.anyOf ?? [];
    for (const [index, tool] of tools.entries()) {
      const inner = branches[index]?.properties?.[tool.function.name];
      expect(inner).toEqual({ ...tool.function.parameters, description: tool.function.description });
    }
  });

  it("fits both providers' rules, for the clinic and the recorded seller tickets", () => {
    expect(openaiSchemaProblems(result.schema)).toEqual([]);
    expect(anthropicSchemaProblems(result.schema)).toEqual([]);
    for (const line of sellerTickets.slice(0, 60)) {
      if (!sellerCatalog.prepare(line.records).ok) continue;
      const schema = sellerCatalog.proposalSchema(line.records, { provider: "anthropic" });
      expect(schema.stage).toBe("single");
      expect(openaiSchemaProblems(schema.schema)).toEqual([]);
      expect(anthropicSchemaProblems(schema.schema)).toEqual([]);
    }
  });

  it("comes shaped as each provider's structured-output parameter", () => {
    const formats = Object.fromEntries(
      providers.map((provider) => [provider, catalog.proposalSchema(ticket, { provider }).format]),
    );
    expect(formats.openai).toEqual({
      type: "json_schema",
      json_schema: {
        name: toolNames.proposal,
        description: expect.any(String),
        schema: result.schema,
        strict: true,
      },
    });
    expect(formats["openai-responses"]).toEqual({
      type: "json_schema",
      name: toolNames.proposal,
      description: expect.any(String),
      schema: result.schema,
      strict: true,
    });
    expect(formats.anthropic).toEqual({ type: "json_schema", schema: result.schema });
    expect(formats["ai-sdk"]).toEqual(result.schema);
    expect(result.name).toBe(toolNames.proposal);
  });

  it("round-trips: an output that follows the schema is sent by decide()", () => {
    const output = {
      decision: {
        clinician_handover: {
          appointment: handleOf(ticket, "appointments", "A-2"),
          patient: handleOf(ticket, "patients", "P-1"),
          urgency: noneValue,
        },
      },
    };
    expect(catalog.decide(catalog.parseToolCall(result.name, JSON.stringify(output)), ticket)).toMatchObject({
      outcome: "send",
      template: "clinician_handover",
    });
  });

  it("leaves out what the ticket cannot fill, and says why", () => {
    const bare = catalog.proposalSchema({ ticketId: "T-0" }, { provider: "anthropic" });
    expect(bare.templates).toEqual([]);
    expect(bare.omitted).toHaveLength(templates.length);
    expect(bare.schema.properties.decision?.anyOf).toHaveLength(1);
    expect(bare.forTemplate("appointment_reminder")).toBeUndefined();
  });
});
