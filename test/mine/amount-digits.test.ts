import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineRecords } from "../../src/index.js";
import { maskMessage, valueIndex } from "../../src/mine/mask.js";
import { amountMayBeIn, renderings } from "../../src/mine/renderings.js";
import { digitsHeld, HeldDigits, textDigits } from "../../src/mine/text-digits.js";

const records = defineRecords({
  payments: z.object({ id: z.string(), amount: z.number(), currency: z.string() }),
});

// Amounts whose renderings round up across a carry, round differently in Intl (from the shortest
// decimal, half away from zero) than in toFixed (from the binary value), or are grouped.
const amounts = [
  0, 0.5, 1.005, 2.5, 9.995, 9.999, 12.5, 99.9999, 0.9996, 999.9995, 1.0005, 1234567.895, 1999999.999, 42,
  -9.999, -0.005, 123456789.5,
];
// No fraction (JPY, KRW), three (KWD, BHD), four (CLF) places, an unknown code, none.
const currencies = ["USD", "EUR", "JPY", "KRW", "KWD", "BHD", "CLF", "XYZ", undefined];

/** The text written with Arabic-Indic digits and decimal mark. */
const arabic = (text: string) =>
  text.replace(/\d/g, (digit) => String.fromCharCode(0x660 + Number(digit))).replace(".", "\u066b");

const rendered = (amount: number, currency: string | undefined) =>
  renderings(amount, currency, "UTC") as readonly string[];

describe("amountMayBeIn", () => {
  it("admits an amount in a text holding any of its renderings, in ASCII or other digits", () => {
    for (const amount of amounts)
      for (const currency of currencies)
        for (const rendering of rendered(amount, currency))
          for (const text of [rendering, `ref 7 ${rendering} ok`, arabic(rendering)])
            expect(
              amountMayBeIn(amount, currency, new HeldDigits(textDigits(text))),
              `${amount} ${currency} ${text}`,
            ).toBe(true);
  });

  it("admits any amount in a text holding one of its renderings", () => {
    const amount = fc.oneof(
      fc.double({ min: -1e7, max: 1e7, noNaN: true }),
      fc
        .tuple(fc.integer({ min: 0, max: 1e7 }), fc.constantFrom(1, 10, 100, 1000, 10000))
        .map(([n, d]) => n / d),
      fc.integer({ min: 0, max: 100000 }).map((n) => n / 1000 - 0.0005),
    );
    fc.assert(
      fc.property(amount, fc.constantFrom(...currencies), (value, currency) => {
        for (const rendering of rendered(value, currency))
          if (!amountMayBeIn(value, currency, new HeldDigits(textDigits(rendering)))) return false;
        return true;
      }),
      { numRuns: 300 },
    );
  });

  it("rules out an amount whose digits the text does not hold", () => {
    const held = new HeldDigits(textDigits("Order 5521 shipped on 2026-03-04, 3 items"));
    expect(amountMayBeIn(12.5, "USD", held)).toBe(false);
    expect(amountMayBeIn(9.999, "EUR", held)).toBe(false);
    expect(amountMayBeIn(5521, "USD", held)).toBe(true);
    expect(amountMayBeIn(2.5, "JPY", new HeldDigits(textDigits("¥3 only")))).toBe(true);
  });
});

describe("an index built for a text", () => {
  it("holds every rendering the full index holds whose digits the text holds, and masks the same", () => {
    for (const amount of amounts)
      for (const currency of currencies) {
        const ticket = { payments: [{ id: "p1", amount, ...(currency === undefined ? {} : { currency }) }] };
        const full = valueIndex(records, ticket);
        for (const rendering of rendered(amount, currency))
          for (const text of [`Total ${rendering} due`, `Total ${arabic(rendering)} due`]) {
            const held = new HeldDigits(textDigits(text));
            const forText = valueIndex(records, ticket, { text });
            expect(forText.values, text).toEqual(full.values.filter(([form]) => digitsHeld(form, held)));
            expect(maskMessage(text, forText), text).toEqual(maskMessage(text, full));
          }
      }
  });
});
