import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { composeAmount, decimalAmount, readLayout } from "../../src/mine/amount-layout.js";
import { normalize } from "../../src/mine/normalize.js";
import { renderings } from "../../src/mine/renderings.js";

const locales = ["en-US", "en-GB", "de-DE", "fr-FR"];
// Two places, none (JPY), three (KWD), codes without a symbol, an unknown code, a lower-case one.
const currencies = ["EUR", "USD", "GBP", "JPY", "KWD", "CHF", "SEK", "INR", "XYZ", "eur"];

/** The formats renderings writes amounts in: grouped with two places, and each currency by symbol and code. */
function formats(locale: string): Intl.NumberFormat[] {
  const out = [new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 })];
  for (const currency of currencies)
    if (/^[A-Z]{3}$/.test(currency))
      for (const currencyDisplay of ["symbol", "code"] as const)
        out.push(new Intl.NumberFormat(locale, { style: "currency", currency, currencyDisplay }));
  return out;
}

const allFormats = locales.flatMap(formats);

const sign = fc.constantFrom(1, -1);
const amount = fc.oneof(
  fc.integer({ min: -1e9, max: 1e9 }),
  fc.tuple(fc.integer({ min: 0, max: 1e9 }), sign).map(([cents, s]) => (s * cents) / 100),
  fc.tuple(fc.integer({ min: 0, max: 1e9 }), sign).map(([mills, s]) => (s * mills) / 1000),
  // Halves of a last place: x.005, x.0005, x.125, x.5.
  fc
    .tuple(
      fc.integer({ min: 0, max: 1e7 }),
      fc.constantFrom(0.005, 0.0005, 0.125, 0.375, 0.5, 0.995, 0.9995),
      sign,
    )
    .map(([whole, half, s]) => s * (whole + half)),
  fc.constantFrom(0, -0, 0.5, -0.5, 1.005, 2.675, 9.995, 999.9995, 1e-6, -1e-6, 1e-7, 1e15, 1e15 - 1, 1e21),
  fc.double({ min: -1e16, max: 1e16, noNaN: true }),
  fc.double({ min: -1e-3, max: 1e-3, noNaN: true }),
  fc.constantFrom(Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN),
);

// renderings' amount forms as they were written before layouts: a call into Intl for each.
const intlFormats = new Map<string, Intl.NumberFormat>();
function intl(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale} ${JSON.stringify(options)}`;
  let format = intlFormats.get(key);
  if (format === undefined) {
    format = new Intl.NumberFormat(locale, options);
    intlFormats.set(key, format);
  }
  return format;
}

function intlRenderings(value: number, currency: string | undefined): string[] {
  const fixed = value.toFixed(2);
  const out = new Set<string>([String(value), fixed, fixed.replace(".", ",")]);
  const code = currency !== undefined && /^[A-Z]{3}$/.test(currency) ? currency : undefined;
  for (const locale of locales) {
    out.add(intl(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value));
    if (code === undefined) continue;
    out.add(intl(locale, { style: "currency", currency: code }).format(value));
    out.add(intl(locale, { style: "currency", currency: code, currencyDisplay: "code" }).format(value));
  }
  if (code !== undefined) {
    out.add(`${fixed} ${code}`);
    out.add(`${code} ${fixed}`);
  }
  // A whole amount also without places, grouped and with its symbol.
  if (Number.isInteger(value) && Math.abs(value) < 1e15)
    for (const locale of locales) {
      out.add(intl(locale, { maximumFractionDigits: 0 }).format(value));
      if (code !== undefined)
        out.add(
          intl(locale, {
            style: "currency",
            currency: code,
            minimumFractionDigits: 0,
            maximumFractionDigits: 0,
          }).format(value),
        );
    }
  return [...out].map(normalize);
}

describe("amount layouts", () => {
  it("read the white space Intl writes, normalised", () => {
    const euros = readLayout(new Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR" }));
    const amount = decimalAmount(-1234567.891);
    expect(euros && amount && composeAmount(euros, amount)).toBe("-1 234 567,89 €");
    const yen = readLayout(
      new Intl.NumberFormat("en-US", { style: "currency", currency: "JPY", currencyDisplay: "code" }),
    );
    expect(yen && amount && composeAmount(yen, amount)).toBe("-jpy 1,234,568");
  });

  it("are read for every format renderings uses", () => {
    for (const format of allFormats)
      expect(readLayout(format), JSON.stringify(format.resolvedOptions())).toBeDefined();
  });

  it("compose every amount as Intl writes it, or leave it to Intl", () => {
    const layouts = allFormats.map((format) => ({ format, layout: readLayout(format) }));
    fc.assert(
      fc.property(amount, (value) => {
        const decimal = decimalAmount(value);
        if (decimal === undefined) return !(Math.abs(value) < 1e15) || String(value).includes("e");
        for (const { format, layout } of layouts)
          if (layout === undefined || composeAmount(layout, decimal) !== normalize(format.format(value)))
            return false;
        return true;
      }),
      { numRuns: 20_000 },
    );
  });

  it("leave to Intl a locale whose grouping or digits they cannot compose", () => {
    // Indian grouping (12,34,567), Arabic-Indic digits, no group in four digits (1234 in Spanish).
    for (const locale of ["en-IN", "ar-EG", "es-ES"]) {
      expect(
        readLayout(new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 })),
        locale,
      ).toBeUndefined();
      expect(
        readLayout(new Intl.NumberFormat(locale, { style: "currency", currency: "EUR" })),
        locale,
      ).toBeUndefined();
    }
    // Places that vary with the amount are not a layout.
    expect(readLayout(new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 }))).toBeUndefined();
  });
});

describe("an amount's renderings", () => {
  it("are Intl's, each once, in the same order", () => {
    fc.assert(
      fc.property(amount, fc.constantFrom(...currencies, undefined), (value, currency) => {
        // Renderings are cached by String(value), which writes -0 as 0: the first of them rendered is kept.
        if (!Number.isFinite(value) || Object.is(value, -0)) return true;
        expect(renderings(value, currency, "UTC")).toEqual([...new Set(intlRenderings(value, currency))]);
        return true;
      }),
      { numRuns: 20_000 },
    );
  });
});
