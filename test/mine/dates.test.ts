import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineRecords } from "../../src/index.js";
import { maskMessage, valueIndex } from "../../src/mine/index.js";
import { hostileStrings } from "../../src/testing/index.js";

const records = defineRecords({
  customers: z.object({ id: z.string(), locale: z.string(), profile: z.object({ language: z.string() }) }),
  orders: z.object({ id: z.string(), placedAt: z.string(), pickupAt: z.string() }),
});

function ticket(locale: string, language = "none") {
  return {
    customers: [{ id: "c1", locale, profile: { language } }],
    orders: [{ id: "o1", placedAt: "2026-03-03", pickupAt: "2026-03-05T09:30:00Z" }],
  };
}

function masked(
  text: string,
  records_: ReturnType<typeof ticket>,
  options: { locales?: string[]; timeZone?: string } = {},
) {
  return maskMessage(text, valueIndex(records, records_, { ...options, text })).skeleton;
}

describe("dates in the languages the records name", () => {
  it.each([
    ["de-DE", "Ihre Bestellung vom 3. März 2026", "Ihre Bestellung vom {{order.placedAt}}"],
    ["de-DE", "Bestellt am Dienstag, 3. März 2026.", "Bestellt am {{order.placedAt}}."],
    ["de-DE", "Bestellt am Di., 3. März 2026.", "Bestellt am {{order.placedAt}}."],
    ["de-DE", "Bestellt am 3. März.", "Bestellt am {{order.placedAt}}."],
    ["de_AT", "Bestellt am 03. März 2026.", "Bestellt am {{order.placedAt}}."],
    ["de-DE", "Abholung am 05.03.2026, 09:30 bitte.", "Abholung am {{order.pickupAt}} bitte."],
    ["de-DE", "Abholung am 5. März 2026 um 09:30.", "Abholung am {{order.pickupAt}}."],
    ["de-DE", "Abholung Do., 5. März 2026 um 09:30.", "Abholung {{order.pickupAt}}."],
    ["fr", "Votre commande du 3 mars 2026.", "Votre commande du {{order.placedAt}}."],
    ["fr-FR", "Retrait le jeudi 5 mars 2026 à 09:30.", "Retrait le {{order.pickupAt}}."],
    ["fr", "Retrait le 05/03/2026 09:30.", "Retrait le {{order.pickupAt}}."],
    ["es", "Su pedido del 3 de marzo de 2026.", "Su pedido del {{order.placedAt}}."],
    ["es-ES", "Pedido del martes, 3 de marzo de 2026.", "Pedido del {{order.placedAt}}."],
    [
      "pt-BR",
      "Pedido de 3 de mar. de 2026 e 3 de mar de 2026.",
      "Pedido de {{order.placedAt}} e {{order.placedAt}}.",
    ],
    ["nl", "Bestelling van 3 maart 2026.", "Bestelling van {{order.placedAt}}."],
    ["it", "Ordine del 3 marzo 2026.", "Ordine del {{order.placedAt}}."],
    ["pl", "Zamówienie z 3 marca 2026.", "Zamówienie z {{order.placedAt}}."],
    ["ru", "Ваш заказ от 3 марта 2026 г. готов.", "Ваш заказ от {{order.placedAt}} готов."],
    ["tr", "Siparişiniz 3 Mart 2026 tarihinde verildi.", "Siparişiniz {{order.placedAt}} tarihinde verildi."],
    ["el", "Παραγγελία 3 Μαρτίου 2026.", "Παραγγελία {{order.placedAt}}."],
    [
      "ja-JP",
      "ご注文日：2026年3月3日、受け取り：2026/03/05 9:30",
      "ご注文日：{{order.placedAt}}、受け取り：{{order.pickupAt}}",
    ],
    // English always, with the time of a timestamp.
    ["none", "Pick-up on Thursday, March 5, 2026 at 9:30 AM.", "Pick-up on {{order.pickupAt}}."],
    ["none", "Pick-up on Mar 5, 2026, 9:30 AM.", "Pick-up on {{order.pickupAt}}."],
    ["none", "Placed on Tue, 3 March 2026.", "Placed on {{order.placedAt}}."],
  ])("%s: %s", (locale, text, skeleton) => {
    expect(masked(text, ticket(locale))).toBe(skeleton);
  });

  it("reads a locale from a nested field and from the options", () => {
    expect(masked("Commande du 3 mars 2026.", ticket("none", "fr"))).toBe("Commande du {{order.placedAt}}.");
    expect(masked("Ordine del 3 marzo 2026.", ticket("none"), { locales: ["it-IT"] })).toBe(
      "Ordine del {{order.placedAt}}.",
    );
  });

  it("shows a timestamp as the day and time it is in the zone", () => {
    expect(masked("Abholung am 05.03.2026, 10:30.", ticket("de-DE"), { timeZone: "Europe/Berlin" })).toBe(
      "Abholung am {{order.pickupAt}}.",
    );
  });

  it("shows a timestamp written without a zone as the day and time it names, in any zone", () => {
    const wall = {
      ...ticket("de-DE"),
      orders: [{ id: "o1", placedAt: "2026-03-03", pickupAt: "2026-03-05T09:30" }],
    };
    expect(masked("Abholung am 05.03.2026, 09:30.", wall, { timeZone: "America/New_York" })).toBe(
      "Abholung am {{order.pickupAt}}.",
    );
  });

  it("looks in the languages named only: another language's month is not read", () => {
    expect(masked("Ihre Bestellung vom 3. März 2026", ticket("fr"))).not.toContain("{{order.placedAt}}");
  });

  it("bounds the index: a ticket naming many languages adds four", () => {
    const many = {
      customers: ["de", "fr", "es", "it", "nl", "pt", "sv", "pl", "da", "fi"].map((locale, i) => ({
        id: `c${i}`,
        locale,
        profile: { language: locale },
      })),
      orders: ticket("none").orders,
    };
    const four = {
      customers: ["de", "fr", "es", "it"].map((locale, i) => ({
        id: `c${i}`,
        locale,
        profile: { language: locale },
      })),
      orders: ticket("none").orders,
    };
    const size = (t: object) => valueIndex(records, t as ReturnType<typeof ticket>).values.length;
    expect(size(many)).toBe(size(four));
    expect(size(four)).toBeGreaterThan(size(ticket("none")));
  });

  it("never throws on values or options that are not locales, dates or zones", () => {
    for (const value of [
      ...hostileStrings,
      "de-DE-u-ca-buddhist",
      "xx-YY",
      "a".repeat(35),
      "__proto__",
      "de--DE",
    ]) {
      expect(() => valueIndex(records, ticket(value), { locales: [value] })).not.toThrow();
      expect(() => valueIndex(records, ticket("de"), { timeZone: value })).not.toThrow();
    }
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.string({ maxLength: 40 }), (locale, date) => {
        const t = {
          customers: [{ id: "c", locale, profile: { language: locale } }],
          orders: [{ id: "o", placedAt: date, pickupAt: date }],
        };
        expect(() => valueIndex(records, t, { locales: [locale] })).not.toThrow();
      }),
    );
    // An impossible calendar date is no date: no rendering of the day it would roll over to.
    const rolled = { ...ticket("de"), orders: [{ id: "o", placedAt: "2026-02-31", pickupAt: "" }] };
    expect(masked("am 3. März 2026", rolled)).toBe("am 3. März 2026");
  });

  it("keeps the calendar of the record's language, not one an extension asks for", () => {
    expect(masked("Bestellt am 3. März 2026.", ticket("de-DE-u-ca-buddhist"))).toBe(
      "Bestellt am {{order.placedAt}}.",
    );
  });

  it.each([
    ["POL-2023-660857", "pl", "Zamówienie z 3 marca 2026."],
    ["DE-123", "de", "Ihre Bestellung vom 3. März 2026"],
    ["de-CH-1996", "de", "Ihre Bestellung vom 3. März 2026"],
    ["FR-XX", "fr", "Votre commande du 3 mars 2026."],
  ])("does not read the identifier %s as a language, though %s is one", (value, language, text) => {
    expect(masked(text, ticket(value))).not.toContain("{{order.placedAt}}");
    expect(masked(text, ticket(language))).toContain("{{order.placedAt}}");
  });

  it("reads a language with a script, a numeric region or an underscore", () => {
    expect(masked("Su pedido del 3 de marzo de 2026.", ticket("es-419"))).toContain("{{order.placedAt}}");
    expect(masked("Bestellt am 3. März 2026.", ticket("de-Latn_CH"))).toContain("{{order.placedAt}}");
  });
});

describe("month names", () => {
  it("finds a month by its long or short name in each language, whichever languages were asked before", () => {
    const cases: [string, string][] = [
      ["de-DE", "Bestellt am 3. März 2026."],
      ["fr-FR", "Commande du 3 mars 2026."],
      ["en-GB", "Ordered on 3 March 2026."],
      ["en-GB", "Ordered on 3 Mar 2026."],
      ["en-GB", "Ordered on Tuesday, 3 March 2026."],
      ["en-US", "Ordered on March 3, 2026."],
      ["en-US", "Ordered on Mar 3, 2026."],
    ];
    const first = cases.map(([locale, text]) => masked(text, ticket(locale)));
    for (const skeleton of first) expect(skeleton).toContain("{{order.placedAt}}");
    // Asked again in another order, with the lists of languages changing between them: the same.
    const again = [...cases].reverse().map(([locale, text]) => masked(text, ticket(locale)));
    expect(again.reverse()).toEqual(first);
    // A name of the month in a language the ticket does not name is no name.
    expect(masked("Bestellt am 3. März 2026.", ticket("fr-FR"))).not.toContain("{{order.placedAt}}");
  });
});

describe("an index for a known text", () => {
  const placeholders = (text: string) =>
    new Set(valueIndex(records, ticket("de-DE"), { text }).values.map(([, placeholder]) => placeholder));

  it("leaves out the forms of a date whose digits the text does not hold", () => {
    expect(placeholders("Nothing dated here, order 42.")).not.toContain("{{order.placedAt}}");
    expect(placeholders("Ihre Bestellung vom 3. März 2026")).toContain("{{order.placedAt}}");
    expect(placeholders("Abholung am 06.03.2026")).not.toContain("{{order.pickupAt}}");
  });

  it("keeps every form of every value that the text holds, whatever is around it", () => {
    const all = valueIndex(records, ticket("de-DE")).values;
    fc.assert(
      fc.property(fc.constantFrom(...all), fc.string(), fc.string(), ([rendering], before, after) => {
        const text = `${before} ${rendering} ${after}`;
        const index = valueIndex(records, ticket("de-DE"), { text });
        expect(index.values.map(([form]) => form)).toContain(rendering);
      }),
      { numRuns: 300 },
    );
  });
});
