/**
 * Every label of every choice key the model is offered reaches it, whatever the provider, cache mode,
 * stage or output form: a key alone ("inspection") may not say what the author meant ("the annual
 * inspection"), and a label dropped because it looks close to its key loses that meaning.
 */
import { readdirSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { noneValue } from "../../../src/core/llm/index.js";
import { createCatalog, defineRecords, defineTemplate, type Template } from "../../../src/index.js";
import { readyCatalogs } from "../preview/tickets.js";
import { type AnyCatalog, allSchemaStages, allStages, cacheModes, providers } from "./fixtures.js";

type LabelledCatalog = AnyCatalog & { readonly templates: readonly Template[] };

const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .join(" ");
// What a label becomes in a schema's text: one line, no closing full stop.
const asWritten = (label: string) =>
  label
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[.\s]+$/, "");

/** The choice slots of a catalog's templates: template id → slot name → key → label. */
function choiceLabels(catalog: LabelledCatalog): Map<string, Map<string, Readonly<Record<string, string>>>> {
  const labels = new Map<string, Map<string, Readonly<Record<string, string>>>>();
  for (const template of catalog.templates) {
    const slots = new Map<string, Readonly<Record<string, string>>>();
    for (const compiled of template.resolveOrder)
      if (compiled.slot.kind === "choice") slots.set(compiled.name, compiled.slot.choices);
    labels.set(template.id, slots);
  }
  return labels;
}

interface Walk {
  readonly missing: string[];
  /** "template.slot.key" of each key seen offered with its label. */
  readonly seen: Set<string>;
}

/**
 * Walks any shaped output (tools of a provider, a structured-output format or schema): inside a tool or
 * branch named for a template, each property named for one of its choice slots must carry, for each key
 * its enum offers, the key's label in its description.
 */
function checkLabels(
  node: unknown,
  labels: ReturnType<typeof choiceLabels>,
  where: string,
  walk: Walk,
  template?: string,
): void {
  if (typeof node !== "object" || node === null) return;
  const record = node as Record<string, unknown>;
  const named = typeof record.name === "string" && labels.has(record.name) ? record.name : template;
  for (const [key, child] of Object.entries(record)) {
    const inside = labels.has(key) ? key : named;
    if (key === "properties" && inside !== undefined && typeof child === "object" && child !== null) {
      for (const [slot, schema] of Object.entries(child as Record<string, unknown>)) {
        const choices = labels.get(inside)?.get(slot);
        if (choices === undefined) continue;
        const { enum: offered = [], description = "" } = schema as { enum?: string[]; description?: string };
        for (const choice of offered) {
          if (choice === noneValue) continue;
          const label = choices[choice] ?? "";
          walk.seen.add(`${inside}.${slot}.${choice}`);
          if (words(label) === words(choice)) continue;
          if (!description.includes(asWritten(label)))
            walk.missing.push(`${where}: ${inside}.${slot}.${choice} = "${label}" not in "${description}"`);
        }
      }
    }
    checkLabels(child, labels, where, walk, inside);
  }
}

/** Checks every provider, cache mode and stage of both tools and structured output for one ticket. */
function walkEveryShape(catalog: LabelledCatalog, ticket: unknown, modes = cacheModes): Walk {
  const labels = choiceLabels(catalog);
  const walk: Walk = { missing: [], seen: new Set() };
  for (const cache of modes) {
    for (const provider of providers) {
      for (const stage of allStages(catalog.tools(ticket, { provider, cache })))
        checkLabels(stage.tools, labels, `${provider} ${cache} tools ${stage.stage}`, walk);
      for (const stage of allSchemaStages(catalog.proposalSchema(ticket, { provider, cache }))) {
        checkLabels(stage.format, labels, `${provider} ${cache} format ${stage.stage}`, walk);
        checkLabels(stage.schema, labels, `${provider} ${cache} schema ${stage.stage}`, walk);
      }
    }
  }
  return walk;
}

/** Every key of every choice slot, as "template.slot.key". */
function everyKey(catalog: LabelledCatalog): string[] {
  return [...choiceLabels(catalog)].flatMap(([template, slots]) =>
    [...slots].flatMap(([slot, choices]) => Object.keys(choices).map((key) => `${template}.${slot}.${key}`)),
  );
}

// Every catalog a module of templates/ exports, so a catalog added there is checked without a change here.
const templateFolder = new URL("../../../templates/", import.meta.url);
const bundled = await Promise.all(
  readdirSync(templateFolder)
    .filter((file) => file.endsWith(".ts"))
    .map(async (file) => {
      const module: Record<string, unknown> = await import(new URL(file, templateFolder).href);
      return Object.entries(module)
        .filter(([, value]) => typeof (value as Partial<AnyCatalog> | null)?.tools === "function")
        .map(([name, value]) => [`${file} ${name}`, value as LabelledCatalog] as const);
    }),
).then((lists) => lists.flat());

describe("choice labels in the model's tools", () => {
  it("finds every bundled catalog", () => {
    expect(bundled.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        "customer.ts customerCatalog",
        "oncall.ts oncallCatalog",
        "seller.ts sellerCatalog",
      ]),
    );
  });

  it.each(bundled)("%s: tools every ticket shares carry the label of every key", (_, catalog) => {
    const walk = walkEveryShape(catalog, { ticketId: "T-LABELS" }, ["prefix"]);
    expect(walk.missing).toEqual([]);
    expect([...walk.seen].sort()).toEqual(everyKey(catalog).sort());
  });

  it.each(readyCatalogs)(
    "%s: each ticket's own tools carry the label of each key they offer",
    (_, catalog, tickets) => {
      const labelled = catalog as unknown as LabelledCatalog;
      const seen = new Set<string>();
      for (const ticket of fc.sample(tickets, { numRuns: 25, seed: 7 })) {
        if (!labelled.prepare(ticket).ok) continue;
        const walk = walkEveryShape(labelled, ticket, ["ticket"]);
        expect(walk.missing).toEqual([]);
        for (const key of walk.seen) seen.add(key);
      }
      // The tickets reach choice slots at all, or the check above compared nothing.
      expect(seen.size).toBeGreaterThan(0);
    },
  );

  it("a catalog of many templates and long labels close to their keys keeps them all, in both stages", () => {
    const records = defineRecords({ garages: z.object({ id: z.string(), email: z.email() }) });
    const { slot } = records;
    const choices = Object.fromEntries(
      Array.from({ length: 40 }, (_, index) => [
        `service_${index}`,
        index % 2 === 0
          ? // Close to the key: a heuristic that drops "near restatements" would drop these.
            `the annual service ${index}`
          : `service ${index}: ${"a long explanation of what this visit covers and what it leaves out, ".repeat(4)}`,
      ]),
    );
    const templates = Array.from({ length: 24 }, (_, index) =>
      defineTemplate(records, {
        id: `booking_${index}`,
        description: `Booking confirmation ${index}`,
        audience: "garage",
        effect: "informational",
        channel: "email",
        to: slot.ref("garages", { show: "email" }),
        subject: "Booking",
        body: "Booked: {{visit}}.",
        slots: { visit: slot.choice(choices) },
        limits: { perTicket: 1, perDay: 10 },
      }),
    );
    const catalog = createCatalog(records, templates) as unknown as LabelledCatalog;
    const ticket = { ticketId: "T-1", garages: [{ id: "G-1", email: "desk@garage.example" }] };
    // Over Anthropic's 20 strict tools: its tools come in two stages, and the labels are in stage two.
    expect(catalog.tools(ticket, { provider: "anthropic" }).stage).toBe("choose_template");
    const walk = walkEveryShape(catalog, ticket);
    expect(walk.missing).toEqual([]);
    expect([...walk.seen].sort()).toEqual(everyKey(catalog).sort());
  });
});
