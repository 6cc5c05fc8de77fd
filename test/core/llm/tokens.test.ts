import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { encode } from "gpt-tokenizer";
import { describe, expect, it } from "vitest";
import { instructions } from "../../../examples/agent-kit.js";
import { estimateTokens, promptCost } from "../../../src/core/llm/index.js";
import { sellerCatalog } from "../../../templates/seller.js";
import { catalog, clinicTicket } from "../../fixtures/clinic.js";
import { cacheModes, providers, sellerTickets } from "./fixtures.js";

/** The error the estimate promises against the real GPT-4o encoding (o200k_base). */
const tolerance = 0.15;
const records = sellerTickets.map((line) => line.records);

// The cases below read the same tickets' prompts and tools, and count the same texts with the real
// tokenizer: each is made and encoded once for the file (the catalog and the tokenizer are deterministic).
const remembered = new Map<string, string>();
const tokens = new Map<string, readonly number[]>();
const ticketIds = new WeakMap<object, number>();
let nextTicketId = 0;

function once(key: string, make: () => string): string {
  let text = remembered.get(key);
  if (text === undefined) {
    text = make();
    remembered.set(key, text);
  }
  return text;
}

function keyOf(ticket: object): number {
  const known = ticketIds.get(ticket);
  if (known !== undefined) return known;
  const id = nextTicketId++;
  ticketIds.set(ticket, id);
  return id;
}

/** The seller catalog's tools for a ticket, as JSON text. */
const toolsText = (ticket: object, provider: (typeof providers)[number], cache: "ticket" | "prefix") =>
  once(`tools ${keyOf(ticket)} ${provider} ${cache}`, () =>
    JSON.stringify(sellerCatalog.tools(ticket, { provider, cache }).tools),
  );

/** The seller catalog's prompt for a ticket. */
const describeText = (ticket: object, cache: "ticket" | "prefix") =>
  once(`describe ${keyOf(ticket)} ${cache}`, () => sellerCatalog.describe(ticket, { cache }));

/** The real tokens of a text (GPT-4o's o200k_base). */
function encoded(text: string): readonly number[] {
  let found = tokens.get(text);
  if (found === undefined) {
    found = encode(text);
    tokens.set(text, found);
  }
  return found;
}

function expectWithinTolerance(text: string, what: string): void {
  const real = encoded(text).length;
  const estimate = estimateTokens(text);
  expect(Math.abs(estimate - real) / real, `${what}: estimate ${estimate}, real ${real}`).toBeLessThanOrEqual(
    tolerance,
  );
}

describe("estimateTokens, calibrated against gpt-tokenizer", { timeout: 120_000 }, () => {
  it("is within ±15% of the real count for every bundled ticket's tools and prompt, every provider and cache mode", () => {
    let checked = 0;
    for (const ticket of records) {
      if (!sellerCatalog.prepare(ticket).ok) continue;
      for (const cache of cacheModes) {
        const prompt = describeText(ticket, cache);
        expectWithinTolerance(prompt, `${ticket.ticketId} describe ${cache}`);
        for (const provider of providers) {
          const tools = toolsText(ticket, provider, cache);
          expectWithinTolerance(tools, `${ticket.ticketId} ${provider} ${cache}`);
          expectWithinTolerance(`${tools}\n${instructions}\n${prompt}`, `${ticket.ticketId} whole`);
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(1_500);
    expectWithinTolerance(instructions, "instructions");
  });

  it("is what catalog.tools() and proposalSchema() report as their tokens", () => {
    for (const cache of cacheModes) {
      const result = catalog.tools(clinicTicket(), { provider: "anthropic", cache });
      expect(result.tokens).toBe(estimateTokens(JSON.stringify(result.tools)));
      expect(result.tokens).toBeGreaterThan(100);
      expect(result.cache).toBe(cache);
      const schema = catalog.proposalSchema(clinicTicket(), { provider: "openai", cache });
      expect(schema.tokens).toBe(estimateTokens(JSON.stringify(schema.format)));
      expect(schema.cache).toBe(cache);
    }
  });

  it("ships without a tokenizer: nothing under src/ imports one", () => {
    const root = fileURLToPath(new URL("../../../src/", import.meta.url));
    const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter((file) =>
      file.endsWith(".ts"),
    );
    expect(files.length).toBeGreaterThan(50);
    for (const file of files)
      expect(readFileSync(join(root, file), "utf8"), file).not.toMatch(/gpt-tokenizer/);
  });

  it("counts nothing for nothing, never throws, and stays linear on hostile text", () => {
    expect(estimateTokens("")).toBe(0);
    expect(estimateTokens(undefined as never)).toBe(0);
    expect(estimateTokens({ length: 5 } as never)).toBe(0);
    const start = performance.now();
    for (const text of [
      "a".repeat(1_000_000),
      "{".repeat(1_000_000),
      " \n".repeat(500_000),
      "\u202E€".repeat(500_000),
    ])
      expect(estimateTokens(text)).toBeGreaterThan(0);
    expect(performance.now() - start).toBeLessThan(10_000);
  });
});

describe("promptCost", { timeout: 120_000 }, () => {
  it("shared tools make most of every prompt a prefix all tickets share; a ticket's own tools do not", () => {
    const shared = promptCost(sellerCatalog, records, { provider: "openai", cache: "prefix", instructions });
    const own = promptCost(sellerCatalog, records, { provider: "openai", instructions });
    expect(shared.tickets).toBe(own.tickets);
    expect(shared.tickets + shared.invalid).toBe(records.length);
    expect(shared.sharedShare).toBeGreaterThanOrEqual(0.85);
    expect(own.sharedShare).toBeLessThan(0.1);
    expect(own.median).toBeLessThan(shared.median);
    expect(own.median).toBeLessThanOrEqual(own.p95);
    expect(own.p95).toBeLessThanOrEqual(own.max);
  });

  it("multiplies out per day at the median, the cached part at the shared prefix", () => {
    const cost = promptCost(sellerCatalog, records.slice(0, 40), {
      provider: "anthropic",
      cache: "prefix",
      instructions,
      ticketsPerDay: 2_500,
    });
    expect(cost.perDay.input).toBe(cost.median * 2_500);
    expect(cost.perDay.cached).toBe(cost.sharedPrefix * 2_500);
    expect(cost.perDay.uncached).toBe(cost.perDay.input - cost.perDay.cached);
    const first = cost.perTicket[0];
    expect(first?.total).toBe((first?.tools ?? 0) + (first?.instructions ?? 0) + (first?.describe ?? 0));
    expect(first?.stage).toBe("single");
    expect(first?.problems).toEqual([]);
  });

  it("counts invalid and throwing records apart, and never throws on them", () => {
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error("boom");
        },
      },
    );
    const cost = promptCost(sellerCatalog, [records[0], { ticketId: "X", orders: "nope" }, hostile, null], {
      provider: "openai",
    });
    expect(cost).toMatchObject({ tickets: 1, invalid: 3, sharedPrefix: 0, sharedShare: 0 });
    expect(promptCost(sellerCatalog, [], { provider: "openai" })).toMatchObject({ tickets: 0, median: 0 });
    expect(() => promptCost(sellerCatalog, [], { provider: "openai", ticketsPerDay: -1 })).toThrow(
      RangeError,
    );
  });
});

describe("the seller catalog's prompt, with the real tokenizer (the goals of the token benchmark)", () => {
  const real = (ticket: object, provider: (typeof providers)[number], cache: "ticket" | "prefix") =>
    encoded(toolsText(ticket, provider, cache)).length +
    encoded(instructions).length +
    encoded(describeText(ticket, cache)).length;
  const valid = records.filter((ticket) => sellerCatalog.prepare(ticket).ok);

  // 1,300: every choice key's label is said in full (about 50 tokens of the seller catalog's reasons), as
  // a key alone ("fit", "defective") can leave the model guessing what the author meant.
  it.each(providers)(
    "%s: a median ticket costs at most 1,300 input tokens with its own tools",
    (provider) => {
      const totals = valid.map((ticket) => real(ticket, provider, "ticket")).sort((a, b) => a - b);
      expect(totals[Math.floor(totals.length / 2)]).toBeLessThanOrEqual(1_300);
    },
  );
});

describe("shared tools, with the real tokenizer", () => {
  it.each(providers)(
    "%s: at least 85% of a ticket's input tokens are a prefix every bundled ticket shares",
    (provider) => {
      const valid = records.filter((ticket) => sellerCatalog.prepare(ticket).ok);
      const prompts = valid.map((ticket) =>
        encoded(
          `${toolsText(ticket, provider, "prefix")}\n${instructions}\n${describeText(ticket, "prefix")}`,
        ),
      );
      const first = prompts[0] ?? [];
      let shared = first.length;
      for (const tokens of prompts) {
        let at = 0;
        while (at < shared && tokens[at] === first[at]) at += 1;
        shared = at;
      }
      const lengths = prompts.map((tokens) => tokens.length).sort((a, b) => a - b);
      const median = lengths[Math.floor(lengths.length / 2)] ?? 1;
      expect(shared / median).toBeGreaterThanOrEqual(0.85);
    },
  );
});
