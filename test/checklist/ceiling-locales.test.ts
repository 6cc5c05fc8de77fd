import { buildChecklist } from "formletter/testing";
import { describe, expect, it } from "vitest";
import type { CollectionSchemas } from "../../src/core/definition/define-records.js";
import { type Catalog, format, type Template } from "../../src/index.js";
import { refundCatalog, refundTicket } from "../fixtures/refunds.js";

const ceilings = { refunds: { values: ["refund.amount"], max: { EUR: { message: 200, day: 1000 } } } };
const german = {
  subject: "Erstattungen",
  body: "Erstattet: {{refund.amount}} ({{refund.cents}}, {{refund.pieces}} Stück) und {{other.amount}} ({{other.cents}}, {{other.pieces}} Stück).",
};
const localised = () =>
  refundCatalog(ceilings, { locale: { default: "en", from: () => "de", texts: { de: german } } });

/** The template with its German variant's `tag` shown with `shownAs`: what a cast could build. */
function tampered(template: Template, tag: string, shownAs: ReturnType<typeof format.money>): Template {
  const locales = template.locales;
  if (locales === undefined) throw new Error("expected a localised template");
  const variant = locales.variants.get("de") as Template;
  const slots = variant.slots.map((compiled) => ({
    ...compiled,
    fields: compiled.fields.map((field) => (field.tag === tag ? { ...field, format: shownAs } : field)),
  }));
  const variants = new Map(locales.variants).set("de", { ...variant, slots });
  return Object.freeze({ ...template, locales: { ...locales, variants } });
}

function checklistOf<S extends CollectionSchemas>(catalog: Catalog<S>, templates: readonly Template[]) {
  const sample = refundTicket("T-1");
  return buildChecklist(Object.freeze({ ...catalog, templates }), { sample, propertyRuns: 20 });
}

describe("checklist: a ceiling counts what every locale shows", () => {
  it("is ✓ and says so for a localised template whose locales show the counted amount", () => {
    const catalog = localised();
    const item = checklistOf(catalog, catalog.templates).items.find((entry) => entry.check === "ceiling");
    expect(item).toMatchObject({ status: "pass", summary: "1 value ceiling" });
    expect(item?.evidence).toEqual([
      "refunds: refund.amount at most EUR 200 a message, 1000 a day (group refund_notice.refunds; over it: refused)",
      "every locale (en, de) shows the amount each ceiling counts",
    ]);
  });

  it("is ✗ when a locale shows the value in minor units or another currency, naming locale and value", () => {
    const catalog = localised();
    const [template] = catalog.templates as [Template];
    for (const [shownAs, counts] of [
      [
        format.money({ currencyField: "currency", minorUnits: true }),
        'field "currency", read in minor units',
      ],
      [format.money({ currency: "USD" }), "money in USD"],
    ] as const) {
      const checklist = checklistOf(catalog, [tampered(template, "refund.amount", shownAs)]);
      const item = checklist.items.find((entry) => entry.check === "ceiling");
      expect(item?.status).toBe("fail");
      expect(item?.summary).toBe(
        "1 value ceiling, but a locale shows another amount than the ceiling counts",
      );
      expect(item?.evidence[0]).toContain("locale de shows refund.amount as money in ");
      expect(item?.evidence[0]).toContain(counts);
      expect(checklist.ok).toBe(false);
    }
  });
});
