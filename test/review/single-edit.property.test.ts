import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Catalog } from "../../src/core/decision/catalog.js";
import type { Decision } from "../../src/core/decision/decision.js";
import { compareCatalogs } from "../../src/review/compare-catalogs.js";
import { reviewHistory } from "../../src/review/review-history.js";
import type { ReviewCatalogOptions } from "../fixtures/review-catalogs.js";
import { ReviewWorkspace } from "./review-workspace.js";

const space = new ReviewWorkspace();
afterAll(() => space.remove());

/** Each single edit, with what the definition-level review must say about it: parts, items, settings. */
const edits: Record<
  string,
  { options: ReviewCatalogOptions; parts: string[]; items: string[]; settings: string[] }
> = {
  body: {
    options: { noteBody: "Order {{order.number}} is {{order.total}}; paid {{order.amount}}." },
    parts: ["texts"],
    items: [],
    settings: [],
  },
  where: {
    options: { noteWhere: "(order) => order.amount < 300" },
    parts: ["slots"],
    items: [],
    settings: [],
  },
  recipient: {
    options: { recipientField: "backupEmail" },
    parts: ["recipient"],
    items: ["recipient-change"],
    settings: ["recipient", "field to"],
  },
  approval: {
    options: { refundSpread: `{ effect: "reversible" }` },
    parts: ["effect", "approval"],
    items: ["effect-lowered", "approval-removed"],
    settings: ["effect", "approval"],
  },
  widened: {
    options: { totalReaders: ["seller", "buyer"] },
    parts: ["slots"],
    items: ["widened-reading"],
    settings: ["field order.total"],
  },
  formatReads: {
    options: { currencyReaders: ["seller", "buyer"] },
    parts: ["slots"],
    items: ["widened-reading"],
    settings: ["field order.amount"],
  },
  limit: {
    options: { perDay: 1000 },
    parts: ["limits"],
    items: ["limit-raised"],
    settings: ["limits.perDay"],
  },
  firstContact: {
    options: { firstContact: "hold" },
    parts: ["firstContact"],
    items: [],
    settings: ["firstContact"],
  },
};

let base: Catalog;
const heads = new Map<string, Catalog>();

beforeAll(async () => {
  base = (await space.catalog()).catalog;
  for (const [name, edit] of Object.entries(edits))
    heads.set(name, (await space.catalog(edit.options)).catalog);
}, 60_000);

const word = fc.stringMatching(/^[A-Za-z0-9 <>*_`é-]{1,12}$/);
const ticket = fc.record({
  orders: fc.array(fc.record({ number: word, amount: fc.integer({ min: 1, max: 999 }), total: word }), {
    minLength: 1,
    maxLength: 3,
  }),
  pick: fc.nat(),
  template: fc.constantFrom("order_note", "refund_order", "nope"),
  bogus: fc.boolean(),
});

/** What a decision sends (or drafts for approval), as one comparable string; an escalation sends nothing. */
function sent(decision: Decision): string | undefined {
  if (decision.outcome === "send") return JSON.stringify(["send", decision.message]);
  if (decision.reason === "approval_required" && decision.draft !== undefined)
    return JSON.stringify(["approval", decision.draft]);
  return undefined;
}

describe("a single edit to a catalog", () => {
  it("is reported with its kind, and every changed message is listed while no unchanged one is", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...Object.keys(edits)),
        fc.array(ticket, { minLength: 1, maxLength: 8 }),
        async (name, tickets) => {
          const head = heads.get(name) as Catalog;
          const edit = edits[name] as (typeof edits)[string];
          const comparison = compareCatalogs(base, head);
          expect(comparison.changed.flatMap((change) => change.parts)).toEqual(edit.parts);
          expect(comparison.changed.flatMap((change) => change.changes.map((entry) => entry.what))).toEqual(
            edit.settings,
          );
          expect([...new Set(comparison.items.map((item) => item.kind))].sort()).toEqual(
            [...edit.items].sort(),
          );
          const lines = tickets.map((spec, index) => {
            const ticketId = `T-${index}`;
            const records = {
              ticketId,
              orders: spec.orders.map((order, at) => ({
                id: `${ticketId}-${at}`,
                currency: "EUR",
                ...order,
              })),
              sellers: [{ id: "s", email: "shop@seller.example", backupEmail: "backup@seller.example" }],
            };
            const handle = spec.bogus
              ? "o-zzzz"
              : base.handles(records).get("orders", `${ticketId}-${spec.pick % spec.orders.length}`);
            return { ticketId, records, output: { template: spec.template, slots: { order: handle } } };
          });
          const file = space.lines(`h-${name}.jsonl`, lines);
          const review = await reviewHistory(base, head, file, { maxListed: 100 });
          const expected = lines
            .map((line, index) => ({
              line: index + 1,
              before: sent(base.decide(line.output, line.records)),
              after: sent(head.decide(line.output, line.records)),
            }))
            .filter((pair) => pair.before !== pair.after)
            .map((pair) => pair.line);
          expect(review.messages.changes.map((change) => change.line)).toEqual(expected);
          expect(review.messages.unchanged).toBe(lines.length - expected.length);
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);
});
