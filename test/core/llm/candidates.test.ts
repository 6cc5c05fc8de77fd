import { describe, expect, it } from "vitest";
import { noneValue } from "../../../src/core/llm/index.js";
import { createCatalog, type Decision, defineTemplate, type Template } from "../../../src/index.js";
import { sellerCatalog } from "../../../templates/seller.js";
import { bulkRecords, bulkTicket, openaiParameters, sellerTickets } from "./fixtures.js";

/** Every combination of `domains`, as objects of slot → value (undefined: left out). */
function* combinations(
  domains: readonly [string, readonly (string | null | undefined)[]][],
): Generator<Record<string, string | null>> {
  if (domains.length === 0) {
    yield {};
    return;
  }
  const [[name, values], ...rest] = domains as [[string, (string | null | undefined)[]], ...typeof domains];
  for (const tail of combinations(rest)) {
    for (const value of values) yield value === undefined ? tail : { ...tail, [name]: value };
  }
}

const accepted = (decision: Decision) =>
  decision.outcome === "send" || decision.reason === "approval_required";

describe("the enums hold every handle and key decide() would accept (seller tickets, brute force)", () => {
  const tickets = sellerTickets.filter((line) => sellerCatalog.prepare(line.records).ok).slice(0, 40);

  it.each(sellerCatalog.templates.map((template) => [template.id, template] as const))(
    "%s",
    (_id, template: Template) => {
      let sends = 0;
      for (const { records } of tickets) {
        const tools = sellerCatalog.tools(records, { provider: "openai", limits: "none" });
        const parameters = openaiParameters(tools, template.id);
        const table = sellerCatalog.handles(records);
        const domains: [string, (string | null | undefined)[]][] = [];
        for (const { name, slot } of template.resolveOrder) {
          if (slot.kind === "derived") continue;
          const keys = slot.kind === "choice" ? Object.keys(slot.choices) : undefined;
          const handles = table.entries
            .filter((entry) => slot.kind === "ref" && entry.collection === slot.collection)
            .map((entry) => entry.handle);
          const values: (string | null | undefined)[] = [...(keys ?? handles)];
          if (slot.optional) values.push(null);
          // A recipient left out of the schema is never given; given anyway, decide() must agree.
          if (name === "to" && parameters?.properties.to === undefined) values.push(undefined);
          domains.push([name, values]);
        }
        for (const slots of combinations(domains)) {
          const decision = sellerCatalog.decide({ template: template.id, slots }, records);
          if (!accepted(decision)) continue;
          sends += 1;
          expect(parameters, `${template.id} accepted on ${records.ticketId} but not offered`).toBeDefined();
          for (const [slot, value] of Object.entries(slots)) {
            const property = parameters?.properties[slot];
            if (slot === "to" && property === undefined) {
              const { to: _given, ...rest } = slots;
              expect(accepted(sellerCatalog.decide({ template: template.id, slots: rest }, records))).toBe(
                true,
              );
              continue;
            }
            expect(property?.enum, `${template.id}.${slot} on ${records.ticketId}`).toContain(
              value ?? noneValue,
            );
          }
        }
      }
      expect(sends).toBeGreaterThan(0);
    },
  );

  it("and omits a template only when decide() accepts nothing for it", () => {
    for (const { records } of tickets) {
      const { omitted } = sellerCatalog.tools(records, { provider: "anthropic" });
      for (const { template, slot } of omitted) {
        expect(sellerCatalog.template(template)?.resolveOrder.map((compiled) => compiled.name)).toContain(
          slot,
        );
      }
    }
  });
});

describe("when the combinations are too many to walk", () => {
  const { slot } = bulkRecords;
  const others =
    (names: string[]) =>
    (part: { id: string }, { slots }: { slots: Record<string, unknown> }) =>
      names.every((name) => (slots[name] as { id?: string } | undefined)?.id !== part.id);
  const triple: Template = defineTemplate(bulkRecords, {
    id: "three_parts",
    description: "Three different parts",
    audience: "desk",
    effect: "informational",
    channel: "email",
    to: slot.ref("desks", { show: "email" }),
    subject: "Parts",
    body: "Parts {{a}}, {{b}} and {{c}}.",
    slots: {
      a: slot.ref("parts", { show: "code" }),
      b: slot.ref("parts", { show: "code", where: others(["a"]) }),
      c: slot.ref("parts", { show: "code", where: others(["a", "b"]) }),
    },
    limits: { perTicket: 1, perDay: 10 },
  });
  const catalog = createCatalog(bulkRecords, [triple]);

  it("lists every record of each ref slot and the recipient, and reports the template as widened", () => {
    const ticket = bulkTicket(100);
    const result = catalog.tools(ticket, { provider: "openai" });
    expect(result.widened).toEqual(["three_parts"]);
    const parameters = openaiParameters(result, "three_parts");
    for (const name of ["a", "b", "c"]) expect(parameters?.properties[name]?.enum).toHaveLength(100);
    expect(parameters?.properties.to?.enum).toHaveLength(1);
  });

  it("walks every combination of a small ticket exactly", () => {
    const result = catalog.tools(bulkTicket(4), { provider: "openai" });
    expect(result.widened).toEqual([]);
    expect(openaiParameters(result, "three_parts")?.properties.to).toBeUndefined();
    // Two parts cannot fill three different slots.
    expect(catalog.tools(bulkTicket(2), { provider: "openai" }).omitted).toEqual([
      { template: "three_parts", reason: "no_candidates", slot: "c" },
    ]);
  });
});
