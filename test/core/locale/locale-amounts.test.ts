import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createCatalog,
  DefinitionError,
  defineRecords,
  defineTemplate,
  type Format,
  format,
  type LocaleTexts,
  type TemplateConfig,
} from "../../../src/index.js";

/**
 * An insurer's claim payouts to repair shops, written in the shop's language: what a ceiling counts of
 * a payout must be exactly what the message shows, in every locale.
 */
const records = defineRecords(
  {
    shops: z.object({ id: z.string(), email: z.email(), locale: z.string() }),
    payouts: z.object({
      id: z.string(),
      shopId: z.string(),
      amount: z.unknown(),
      currency: z.string(),
      billed: z.string(),
      hours: z.unknown(),
    }),
  },
  { labels: { shops: (s) => `shop ${s.id}`, payouts: (p) => `payout ${p.id}` } },
);
const { slot } = records;

const amount = format.money({ currencyField: "currency" });
const inMinorUnits = format.money({ currencyField: "currency", minorUnits: true });

function payoutConfig(
  texts: Readonly<Record<string, Partial<LocaleTexts>>>,
  shown: Format = amount,
): TemplateConfig {
  return {
    id: "payout_notice",
    description: "Tell the shop what the claim pays out",
    audience: "shop",
    effect: "irreversible",
    approval: "human",
    channel: "email",
    to: slot.ref("shops", { show: "email", match: { id: "payout.shopId" } }),
    slots: {
      payout: slot.ref("payouts", {
        show: { amount: { field: "amount", as: shown }, hours: { field: "hours", as: format.number() } },
      }),
    },
    subject: "Payout",
    body: "We pay [{{payout.amount}}] for [{{payout.hours}}] hours.",
    ceilings: {
      payouts: {
        values: ["payout.amount"],
        max: Object.fromEntries(currencies.map((c) => [c, { day: 1e9 }])),
      },
    },
    limits: { perTicket: 1, perDay: 100 },
    locale: {
      default: "en",
      from: "to.locale",
      missing: "default",
      texts: Object.fromEntries(
        Object.entries(texts).map(([tag, text]) => [
          tag,
          { body: "Wir zahlen [{{payout.amount}}] für [{{payout.hours}}] Stunden.", ...text },
        ]),
      ),
    },
  };
}

const currencies = ["EUR", "USD", "JPY", "KWD", "CHF", "INR", "BHD", "CLP", "GBP"];

function definitionError(config: TemplateConfig): DefinitionError {
  try {
    defineTemplate(records, config);
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionError);
    return error as DefinitionError;
  }
  throw new Error("expected a DefinitionError");
}

describe("a locale's format may change how an amount is written, never which amount", () => {
  it.each<[string, Format, Format, RegExp]>([
    [
      "minor units where the default reads major units",
      amount,
      inMinorUnits,
      /reads the amount as money in the currency of field "currency", read in minor units, but the default shows money in the currency of field "currency"/,
    ],
    [
      "major units where the default reads minor units",
      inMinorUnits,
      amount,
      /reads the amount as money in the currency of field "currency", but the default shows money in the currency of field "currency", read in minor units/,
    ],
    [
      "a fixed currency where the default reads the record's",
      amount,
      format.money({ currency: "EUR" }),
      /reads the amount as money in EUR, but the default shows money in the currency of field "currency"/,
    ],
    [
      "another currency field",
      amount,
      format.money({ currencyField: "billed" }),
      /reads the amount as money in the currency of field "billed"|formats\["payout\.amount"\] reads "billed", which the slot's own format does not/,
    ],
    [
      "another fixed currency",
      format.money({ currency: "USD" }),
      format.money({ currency: "EUR", locale: "de-DE" }),
      /reads the amount as money in EUR, but the default shows money in USD/,
    ],
  ])("refuses %s, naming template, locale and slot", (_name, shown, override, message) => {
    const error = definitionError(payoutConfig({ de: { formats: { "payout.amount": override } } }, shown));
    expect(error.template).toBe("payout_notice");
    expect(error.slot).toBe("payout");
    expect(error.message).toMatch(/^template "payout_notice", locale "de", slot "payout": /);
    expect(error.message).toMatch(message);
  });

  it("refuses a number format that rounds another way than the default's", () => {
    const config = payoutConfig({
      de: { formats: { "payout.hours": format.number({ maximumFractionDigits: 0 }) } },
    });
    expect(definitionError(config).message).toMatch(
      /locale "de", slot "payout": formats\["payout\.hours"\] reads/,
    );
  });

  it("takes an override that only writes the amount another way, and shows the amount counted", () => {
    const template = defineTemplate(
      records,
      payoutConfig({
        de: { formats: { "payout.amount": format.money({ currencyField: "currency", locale: "de-CH" }) } },
      }),
    );
    const catalog = createCatalog(records, [template]);
    const ticket = payoutTicket("de", "1234.565", "EUR");
    const decision = catalog.decide(proposal(catalog, ticket), ticket);
    expect(decision).toMatchObject({
      reason: "approval_required",
      spend: [{ currency: "EUR", units: 123_457 }],
    });
    expect(decision.outcome === "escalate" && decision.draft?.text).toMatch(/\[EUR 1.234\.57\]/);
  });

  it("refuses a locale's text that writes a digit or a multiplier against a counted amount", () => {
    for (const [body, why] of [
      ["Wir zahlen [{{payout.amount}}0] für [{{payout.hours}}] Stunden.", 'the digit "0"'],
      ["お支払い[{{payout.amount}}万]、[{{payout.hours}}]時間。", 'the number word "万"'],
    ] as const) {
      const error = definitionError(payoutConfig({ de: { body } }));
      expect(error.message).toMatch(
        /^template "payout_notice", locale "de", slot "payout": \{\{payout\.amount\}\} is counted by a ceiling, and /,
      );
      expect(error.message).toContain(why);
    }
  });

  it("refuses a ceiling on a number format that rescales or rounds what it shows", () => {
    for (const [options, reason] of [
      [{ style: "percent" }, /times 100 \(style: percent\)/],
      [{ notation: "compact" }, /notation: compact/],
      [{ maximumSignificantDigits: 2 }, /significant digits/],
      [{ roundingIncrement: 5, maximumFractionDigits: 2, minimumFractionDigits: 2 }, /steps of 5/],
      [{ roundingMode: "floor" }, /rounds floor/],
    ] as const) {
      const config = payoutConfig({});
      const error = definitionError({
        ...config,
        slots: {
          payout: slot.ref("payouts", {
            show: {
              amount: { field: "amount", as: amount },
              hours: { field: "hours", as: format.number(options as Intl.NumberFormatOptions) },
            },
          }),
        },
        ceilings: { hours: { values: ["payout.hours"], max: { day: 100 } } },
      });
      expect(error.message).toMatch(
        /ceiling "hours": value "payout\.hours" is shown with a number format that /,
      );
      expect(error.message).toMatch(reason);
    }
  });
});

function payoutTicket(locale: string, value: unknown, currency: string, hours: unknown = 2.5) {
  return {
    ticketId: "T-1",
    shops: [{ id: "s1", email: "desk@garage.example", locale }],
    payouts: [{ id: "p1", shopId: "s1", amount: value, currency, billed: "USD", hours }],
  };
}

function proposal(
  catalog: { handles: (records: unknown) => { get(collection: string, id: string): string | undefined } },
  ticket: ReturnType<typeof payoutTicket>,
) {
  return { template: "payout_notice", slots: { payout: catalog.handles(ticket).get("payouts", "p1") } };
}

/**
 * The amount a reader sees in `text`: the locale's digits and decimal mark read back, grouping and
 * symbols skipped; in whole minor units of `currency`.
 */
function readBack(text: string, locale: string, currency: string): { units: number; symbol: boolean } {
  const formatter = new Intl.NumberFormat(locale, { style: "currency", currency });
  const digits = new Map(
    [...Array(10).keys()].map((d) => [
      new Intl.NumberFormat(locale, { useGrouping: false }).format(d),
      String(d),
    ]),
  );
  const mark = formatter.formatToParts(1.5).find((part) => part.type === "decimal")?.value;
  const symbol = formatter.formatToParts(1).find((part) => part.type === "currency")?.value ?? "";
  let decimal = "";
  for (const character of text) {
    const digit = digits.get(character);
    if (digit !== undefined) decimal += digit;
    else if (character === mark) decimal += ".";
  }
  const [whole = "0", fraction = ""] = decimal.split(".");
  const places = formatter.resolvedOptions().maximumFractionDigits ?? 0;
  return {
    units: Number(whole + fraction.padEnd(places, "0").slice(0, places)),
    // Values are cleaned to NFKC before they are sent: the full-width ￥ of ja-JP is sent as ¥.
    symbol: text.normalize("NFKC").includes(symbol.normalize("NFKC")),
  };
}

describe("property: in every locale, the amount read back from the message is the amount the ceiling counted", () => {
  const locales = ["de-DE", "fr-FR", "de-CH", "ar-EG", "hi-IN", "ja-JP", "fa-IR", "es-MX", "bn-BD", "th-TH"];
  // Presentation only: other digits (Thai, Arabic-Indic), other grouping (Indian lakh), other marks.
  const presentations = [...locales, "th-TH-u-nu-thai", "ar-u-nu-arab", "en-IN", "fr-CH"];
  // A locale's own format: presentation only, or (sometimes) one that would change the amount.
  const override = fc.option(
    fc.record({
      locale: fc.constantFrom(...presentations),
      minorUnits: fc.option(fc.boolean(), { nil: undefined }),
      currency: fc.option(fc.constantFrom(...currencies), { nil: undefined }),
    }),
    { nil: undefined },
  );

  it("holds for random amounts, currencies, units and locale overrides", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...currencies),
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.integer({ min: 0, max: 6 }),
        fc.boolean(),
        fc.boolean(),
        fc.dictionary(fc.constantFrom(...locales), override, { minKeys: 1, maxKeys: 4 }),
        (currency, whole, scale, minor, asNumber, chosen) => {
          const text = whole.toString().padStart(scale + 1, "0");
          const written = scale === 0 ? text : `${text.slice(0, -scale)}.${text.slice(-scale)}`;
          const value =
            asNumber && Number.isSafeInteger(Number(whole)) && scale === 0 ? Number(whole) : written;
          const shown = minor ? inMinorUnits : amount;
          const texts = Object.fromEntries(
            Object.entries(chosen).map(([tag, own]) => [
              tag,
              own === undefined
                ? {}
                : {
                    formats: {
                      "payout.amount": format.money({
                        ...(own.currency === undefined
                          ? { currencyField: "currency" }
                          : { currency: own.currency }),
                        minorUnits: own.minorUnits ?? minor,
                        locale: own.locale,
                      }),
                    },
                  },
            ]),
          );
          const changesAmount = Object.values(chosen).some(
            (own) => own?.currency !== undefined || (own?.minorUnits ?? minor) !== minor,
          );
          if (changesAmount) {
            expect(() => defineTemplate(records, payoutConfig(texts, shown))).toThrow(DefinitionError);
            return;
          }
          const catalog = createCatalog(records, [defineTemplate(records, payoutConfig(texts, shown))]);
          for (const [tag, own] of Object.entries(chosen)) {
            const ticket = payoutTicket(tag, value, currency);
            const decision = catalog.decide(proposal(catalog, ticket), ticket);
            if (decision.outcome !== "escalate" || decision.reason !== "approval_required") {
              // Only an amount too large to count exactly may be refused, and then in no locale is it sent.
              expect(decision).toMatchObject({ outcome: "escalate", reason: "slot_rejected" });
              continue;
            }
            const counted = decision.spend?.[0];
            const body = decision.draft?.text ?? "";
            const shownAmount = /\[([^\]]*)\] /.exec(body)?.[1] ?? "";
            const read = readBack(shownAmount, own?.locale ?? tag, currency);
            expect(counted?.currency).toBe(currency);
            expect(read.symbol, body).toBe(true);
            expect(read.units, body).toBe(counted?.units);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
