import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseHistoryLine } from "../../../src/metrics/index.js";
import { sellerCatalog } from "../../../templates/seller.js";
import { expectSend } from "../../fixtures/expect.js";

const tickets = readFileSync(new URL("../../../examples/data/tickets.jsonl", import.meta.url), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => parseHistoryLine(line))
  .flatMap((ticket) => ("problem" in ticket ? [] : [ticket]));

/** The ticket's records with every seller's profile language set to `locale` (removed when undefined). */
function withSellerLocale(records: unknown, locale: string | undefined): unknown {
  const copy = structuredClone(records) as { sellers?: Record<string, unknown>[] };
  for (const seller of copy.sellers ?? []) {
    if (locale === undefined) delete seller.locale;
    else seller.locale = locale;
  }
  return copy;
}

describe("the seller catalog in German and Spanish", () => {
  const localised = sellerCatalog.templates.filter((template) => template.locales !== undefined);

  it("writes four templates in English, German and Spanish", () => {
    expect(localised.map((template) => template.id).sort()).toEqual([
      "cancellation_request",
      "damage_report",
      "delivery_delay",
      "tracking_request",
    ]);
    for (const template of localised) expect(template.locales?.tags).toEqual(["en", "de", "es"]);
  });

  // Every ordinary ticket of the demo that sends a localised template, in each language.
  const sends = tickets.filter((ticket) => {
    const decision = sellerCatalog.decide(ticket.output, ticket.records);
    return decision.outcome === "send" && localised.some((template) => template.id === decision.template);
  });

  it.each([
    ["de-DE", "de", /^Hallo/],
    ["es-ES", "es", /^Hola/],
    ["fr-FR", "en", /^Hello/],
  ])(
    "sends every localised message of the demo data to a %s seller in %s, with one key per message",
    (tag, used, greeting) => {
      expect(sends.length).toBeGreaterThan(40);
      for (const ticket of sends) {
        const decision = expectSend(
          sellerCatalog.decide(ticket.output, withSellerLocale(ticket.records, tag)),
        );
        const english = expectSend(
          sellerCatalog.decide(ticket.output, withSellerLocale(ticket.records, undefined)),
        );
        expect(decision.locale?.used).toBe(used);
        expect(decision.message.text).toMatch(greeting);
        expect(decision.key).toBe(english.key);
        expect(decision.message.to).toBe(english.message.to);
      }
    },
  );

  it("gives the demo's German and Spanish shops their language, and the others English", () => {
    const used = new Map<string, Set<string>>();
    for (const ticket of sends) {
      const decision = expectSend(sellerCatalog.decide(ticket.output, ticket.records));
      const shop = decision.message.to;
      used.set(shop, (used.get(shop) ?? new Set()).add(decision.locale?.used ?? "none"));
    }
    expect(used.get("orders@nordlicht-home.example")).toEqual(new Set(["de"]));
    expect(used.get("service@veloparts.example")).toEqual(new Set(["de"]));
    expect(used.get("pedidos@casaceramica.example")).toEqual(new Set(["es"]));
    expect(used.get("kundeservice@fjord-outdoor.example")).toEqual(new Set(["en"]));
  });
});
