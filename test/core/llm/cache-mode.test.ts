import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { noneValue, toolNames } from "../../../src/core/llm/index.js";
import { sellerCatalog } from "../../../templates/seller.js";
import { catalog, clinicTicket, doctor, nurse } from "../../fixtures/clinic.js";
import { bulkCatalog, bulkTicket, openaiParameters, providers, sellerTickets } from "./fixtures.js";
import { strictlyAccepts } from "./strict-decoding.js";

const tickets = sellerTickets.filter((line) => sellerCatalog.prepare(line.records).ok);
const prefix = { cache: "prefix" } as const;

describe('cache: "prefix": tools identical for every ticket', () => {
  it.each(providers)(
    "%s: the same tools and structured-output schema for every bundled ticket",
    (provider) => {
      expect(tickets.length).toBeGreaterThan(150);
      const first = tickets[0]?.records;
      const tools = JSON.stringify(sellerCatalog.tools(first, { provider, ...prefix }).tools);
      const schema = JSON.stringify(sellerCatalog.proposalSchema(first, { provider, ...prefix }).format);
      for (const line of tickets) {
        expect(JSON.stringify(sellerCatalog.tools(line.records, { provider, ...prefix }).tools)).toBe(tools);
        expect(
          JSON.stringify(sellerCatalog.proposalSchema(line.records, { provider, ...prefix }).format),
        ).toBe(schema);
      }
    },
  );

  it("offers every template, and still tells the caller which ones this ticket cannot fill", () => {
    const noBooking = clinicTicket({ appointments: [] });
    const shared = catalog.tools(noBooking, { provider: "openai", ...prefix });
    const own = catalog.tools(noBooking, { provider: "openai" });
    expect(shared.cache).toBe("prefix");
    expect(shared.templates).toEqual(catalog.templates.map((template) => template.id));
    expect(own.templates.length).toBeLessThan(shared.templates.length);
    expect(shared.omitted).toEqual(own.omitted);
    // Offered all the same, an unfillable template still escalates in decide().
    const [unfillable] = own.omitted;
    const decision = catalog.decide({ template: unfillable?.template, slots: {} }, noBooking);
    expect(decision.outcome).toBe("escalate");
  });

  it("lists no handle: ref slots take the shape of their collection's handles, which every handle has", () => {
    for (const line of tickets) {
      const tools = sellerCatalog.tools(line.records, { provider: "openai", ...prefix }).tools;
      const handles = sellerCatalog.handles(line.records).entries;
      const text = JSON.stringify(tools);
      for (const { handle } of handles) expect(text).not.toContain(`"${handle}"`);
      for (const tool of tools) {
        for (const [slot, schema] of Object.entries(tool.function.parameters.properties)) {
          if (schema.enum !== undefined) continue;
          if (tool.function.name === toolNames.escalate) continue;
          expect(schema.pattern, `${tool.function.name}.${slot}`).toBeDefined();
          const template = sellerCatalog.template(tool.function.name);
          const compiled = template?.resolveOrder.find((candidate) => candidate.name === slot);
          const collection = compiled?.slot.kind === "ref" ? compiled.slot.collection : "";
          const own = handles.filter((entry) => entry.collection === collection);
          const others = handles.filter((entry) => entry.collection !== collection);
          for (const { handle } of own) expect(strictlyAccepts(schema, handle), handle).toBe(true);
          // The pattern is the collection's: a handle of another collection is refused while decoding.
          for (const { handle } of others) expect(strictlyAccepts(schema, handle), handle).toBe(false);
        }
      }
    }
  });

  it("applies the providers' limits to the catalog, not the ticket", () => {
    // 1,200 parts: over OpenAI's enum limit when listed, nothing to count when they are not.
    const big = bulkTicket(1_200);
    const small = bulkTicket(3);
    const one = bulkCatalog(1);
    expect(one.tools(big, { provider: "openai" }).stage).toBe("choose_template");
    expect(one.tools(big, { provider: "openai", ...prefix }).stage).toBe("single");
    // 25 templates: over Anthropic's 20 strict tools for every ticket, so two stages for every ticket.
    const many = bulkCatalog(25);
    for (const ticket of [big, small]) {
      const result = many.tools(ticket, { provider: "anthropic", ...prefix });
      expect(result.stage).toBe("choose_template");
      expect(result.degraded?.reason).toMatch(/26 strict tools is over Anthropic's 20/);
      const second = result.next(toolNames.choose, { template: "part_notice_7" });
      expect(second?.stage).toBe("slots");
      expect(second?.cache).toBe("prefix");
      expect(second?.problems).toEqual([]);
    }
    expect(
      JSON.stringify(
        many.tools(big, { provider: "anthropic", ...prefix }).forTemplate("part_notice_7")?.tools,
      ),
    ).toBe(
      JSON.stringify(
        many.tools(small, { provider: "anthropic", ...prefix }).forTemplate("part_notice_7")?.tools,
      ),
    );
  });

  it("rejects a cache mode it does not know, at the call", () => {
    const ticket = clinicTicket();
    expect(() => catalog.tools(ticket, { provider: "openai", cache: "always" as never })).toThrow(TypeError);
    expect(() => catalog.proposalSchema(ticket, { provider: "openai", cache: 1 as never })).toThrow(
      TypeError,
    );
  });
});

describe("the recipient in shared tools", () => {
  it(`"${noneValue}" lets decide() fill a recipient the records fix, and asks again when they do not`, () => {
    const one = clinicTicket();
    const page = openaiParameters(catalog.tools(one, { provider: "openai", ...prefix }), "oncall_page");
    expect(page?.required).toContain("to");
    expect(strictlyAccepts(page?.properties.to ?? {}, noneValue)).toBe(true);
    const args = (ticket: object) => {
      const appointment = catalog
        .handles(ticket)
        .entries.find((entry) => entry.collection === "appointments");
      return { appointment: appointment?.handle, need: "pain", to: noneValue };
    };
    const fixed = catalog.decide(catalog.parseToolCall("oncall_page", args(one)), one);
    expect(fixed.outcome, JSON.stringify(fixed)).toBe("send");
    const two = clinicTicket({ staff: [nurse, doctor, { ...nurse, id: "S-3", chatId: "U0NURSE2" }] });
    const open = catalog.decide(catalog.parseToolCall("oncall_page", args(two)), two);
    expect(open).toMatchObject({ outcome: "escalate", reason: "invalid_proposal" });
    expect(open.outcome === "escalate" && open.hint).toMatch(/takes one of/);
  });
});

describe("what the shared tools lose, measured on the bundled tickets", () => {
  it("strict decoding no longer refuses a handle of no record of this ticket; decide() still does", () => {
    let invented = 0;
    for (const line of tickets) {
      const own = sellerCatalog.tools(line.records, { provider: "openai" });
      const shared = sellerCatalog.tools(line.records, { provider: "openai", ...prefix });
      for (const tool of own.tools) {
        const name = tool.function.name;
        if (name === toolNames.escalate) continue;
        const order = tool.function.parameters.properties.order;
        if (order?.enum === undefined) continue;
        // A handle of the right shape that is no order of this ticket.
        const fake = `o-${"0".repeat(8)}`;
        expect(strictlyAccepts(order, fake)).toBe(false);
        expect(strictlyAccepts(openaiParameters(shared, name)?.properties.order ?? {}, fake)).toBe(true);
        const decision = sellerCatalog.decide({ template: name, slots: { order: fake } }, line.records);
        expect(decision).toMatchObject({ outcome: "escalate" });
        if (decision.outcome === "escalate" && decision.reason === "record_not_found") invented += 1;
      }
    }
    expect(invented).toBeGreaterThan(500);
  });

  it('the recorded outputs decide the same when given as shared tools require (the recipient as "(none)")', () => {
    let sent = 0;
    for (const line of tickets) {
      const output = line.output as { template?: string; slots?: Record<string, unknown> };
      if (typeof output?.template !== "string" || output.slots === undefined) continue;
      const before = sellerCatalog.decide(output, line.records);
      if (before.outcome !== "send") continue;
      // A strict decoder writes handles as the pattern has them, lower case (decide() ignores case),
      // and "(none)" for an empty optional slot (parseToolCall turns it back into null).
      const slots = Object.entries(output.slots).map(([slot, value]) => [
        slot,
        typeof value === "string" ? value.toLowerCase() : value === null ? noneValue : value,
      ]);
      const args = { to: noneValue, ...Object.fromEntries(slots) };
      const shared = openaiParameters(
        sellerCatalog.tools(line.records, { provider: "openai", ...prefix }),
        output.template.toLowerCase(),
      );
      // Outputs written by hand leave out slots decide() fills; a strict decoder never does.
      if (shared?.required.some((slot) => !Object.hasOwn(args, slot))) continue;
      expect(strictlyAccepts(shared ?? {}, args), JSON.stringify(args)).toBe(true);
      const after = sellerCatalog.decide(sellerCatalog.parseToolCall(output.template, args), line.records);
      expect(after).toEqual(before);
      sent += 1;
    }
    expect(sent).toBeGreaterThan(50);
  });

  it.each(["openai", "anthropic"] as const)(
    "the recorded %s tool calls parse and decide the same in both modes, and the shared tools accept every call the ticket's tools accept",
    (provider) => {
      const file = new URL(`../../../examples/data/recorded-tool-calls.${provider}.json`, import.meta.url);
      const { responses } = JSON.parse(readFileSync(file, "utf8")) as {
        responses: Record<string, unknown[]>;
      };
      let checked = 0;
      for (const [ticketId, list] of Object.entries(responses)) {
        const records = sellerTickets.find((line) => line.ticketId === ticketId)?.records;
        expect(records, ticketId).toBeDefined();
        for (const response of list) {
          const call = toolCall(provider, response);
          if (call === undefined) continue;
          const args = typeof call.args === "string" ? JSON.parse(call.args) : call.args;
          const own = openaiParameters(sellerCatalog.tools(records, { provider: "openai" }), call.name);
          const shared = openaiParameters(
            sellerCatalog.tools(records, { provider: "openai", ...prefix }),
            call.name,
          );
          const withRecipient = shared?.properties.to === undefined ? args : { to: noneValue, ...args };
          if (own !== undefined && strictlyAccepts(own, args))
            expect(strictlyAccepts(shared ?? {}, withRecipient), `${ticketId} ${call.name}`).toBe(true);
          const decision = sellerCatalog.decide(sellerCatalog.parseToolCall(call.name, call.args), records);
          const shaped = sellerCatalog.decide(sellerCatalog.parseToolCall(call.name, withRecipient), records);
          expect(shaped).toEqual(decision);
          checked += 1;
        }
      }
      expect(checked).toBeGreaterThanOrEqual(6);
    },
  );
});

function toolCall(
  provider: "openai" | "anthropic",
  response: unknown,
): { name: string; args: unknown } | undefined {
  if (provider === "openai") {
    const call = (
      response as {
        choices: { message: { tool_calls?: { function: { name: string; arguments: string } }[] } }[];
      }
    ).choices[0]?.message.tool_calls?.[0];
    return call === undefined ? undefined : { name: call.function.name, args: call.function.arguments };
  }
  const block = (response as { content: { type: string; name?: string; input?: unknown }[] }).content.find(
    (part) => part.type === "tool_use",
  );
  return block?.name === undefined ? undefined : { name: block.name, args: block.input };
}
