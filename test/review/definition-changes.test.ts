import { afterAll, describe, expect, it } from "vitest";
import { compareCatalogs } from "../../src/review/compare-catalogs.js";
import { definitionChanges } from "../../src/review/definition-changes.js";
import { cli } from "../cli/run.js";
import { refundTemplate } from "../fixtures/refunds.js";
import { ReviewWorkspace } from "./review-workspace.js";

const space = new ReviewWorkspace();
afterAll(() => space.remove());

describe("the settings a changed template lists", () => {
  it("names a label widened through a nested field, as a review item and with both labels", async () => {
    const base = await space.catalog({ buyerNameReaders: ["seller"] });
    const head = await space.catalog({ buyerNameReaders: ["seller", "buyer"] });
    const comparison = compareCatalogs(base.catalog, head.catalog);
    expect(comparison.items).toEqual([
      {
        kind: "widened-reading",
        template: "refund_order",
        detail: "order.buyer reads orders.buyer.name, now readable by buyer (was only seller)",
      },
    ]);
    expect(comparison.changed).toEqual([
      expect.objectContaining({
        id: "refund_order",
        changes: [
          {
            what: "field order.buyer",
            base: "orders.buyer (name readable by seller)",
            head: "orders.buyer (name readable by seller, buyer)",
          },
        ],
      }),
    ]);
  });

  it("gives each changed setting as both versions declare it", async () => {
    const base = await space.catalog();
    const head = await space.catalog({
      recipientField: "backupEmail",
      perDay: 500,
      firstContact: "hold",
      german: { body: "Bestellung {{order.number}}: {{order.total}}, {{order.amount}}." },
      refundSpread: `{ effect: "reversible" }`,
    });
    const changes = Object.fromEntries(
      compareCatalogs(base.catalog, head.catalog).changed.map((change) => [
        change.id,
        change.changes.map((entry) => [entry.what, entry.base, entry.head]),
      ]),
    );
    expect(changes.order_note).toEqual([
      ["recipient", "sellers.email", "sellers.backupEmail"],
      ["limits.perDay", "100", "500"],
      ["firstContact", "(none)", "hold"],
      ["locales", "(none)", "en, de (default en)"],
      ["field to", "sellers.email (no label)", "sellers.backupEmail (no label)"],
    ]);
    expect(changes.refund_order).toEqual([
      ["effect", "irreversible", "reversible"],
      ["approval", "human", "(none)"],
    ]);
  });

  it("flags an audience changed on a template that shows fields as widened reading", async () => {
    const readers = { totalReaders: ["seller", "partner"], currencyReaders: ["seller", "partner"] };
    const base = await space.catalog(readers);
    const head = await space.catalog({ ...readers, noteAudience: "partner" });
    const comparison = compareCatalogs(base.catalog, head.catalog);
    expect(comparison.items).toEqual([
      {
        kind: "widened-reading",
        template: "order_note",
        detail: 'audience changed from "seller" to "partner": every field shown now goes to another role',
      },
    ]);
    expect(comparison.changed[0]?.changes).toEqual([{ what: "audience", base: "seller", head: "partner" }]);
  });

  it("writes a ceiling added or raised with its values, maxima and what happens over it", () => {
    const none = refundTemplate(undefined);
    const low = refundTemplate({ refunds: { values: ["refund.amount"], max: { EUR: { day: 500 } } } });
    const high = refundTemplate({ refunds: { values: ["refund.amount"], max: { EUR: { day: 900 } } } });
    expect(definitionChanges(none, low)).toEqual([
      {
        what: "ceilings",
        base: "(none)",
        head: expect.stringMatching(
          /^refunds \(group .+\): refund\.amount, EUR 500\.00 a day; over: escalate$/,
        ),
      },
    ]);
    const [raised] = definitionChanges(low, high);
    expect(raised?.what).toBe("ceilings");
    expect(raised?.base).not.toBe(raised?.head);
  });

  it("pairs a template removed and one added with the same content as renamed", async () => {
    const base = await space.catalog();
    const head = await space.catalog({ refundId: "refund_whole_order" });
    const comparison = compareCatalogs(base.catalog, head.catalog);
    const refund = base.catalog.template("refund_order");
    expect(comparison.renamed).toEqual([
      { from: "refund_order", to: "refund_whole_order", version: refund?.version },
    ]);
    expect(comparison.added.map((side) => side.id)).toEqual(["refund_whole_order"]);
    expect(comparison.removed.map((side) => side.id)).toEqual(["refund_order"]);
    const run = await cli(["diff", "--base", base.file, "--head", head.file]);
    expect(run.stdout).toContain(`  renamed   refund_order → refund_whole_order (${refund?.version})`);
    expect(run.stdout).not.toMatch(/^ {2}(added|removed) /m);
  });

  it("does not pair a removed template with an added one whose content differs", async () => {
    const base = await space.catalog();
    const head = await space.catalog({
      refundId: "refund_whole_order",
      refundSpread: `{ effect: "reversible" }`,
    });
    expect(compareCatalogs(base.catalog, head.catalog).renamed).toEqual([]);
  });
});
