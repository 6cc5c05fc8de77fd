import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createCatalog,
  DefinitionError,
  defineTemplate,
  format,
  type LocaleTexts,
  type TemplateConfig,
  type TemplateLocaleConfig,
} from "../../../src/index.js";
import { expectSend } from "../../fixtures/expect.js";
import {
  bookingConfig,
  bookingTicket,
  lateArrival,
  localeCatalog,
  localeRecords,
} from "../../fixtures/locales.js";

const tags = ["en", "de", "es"];

describe("locales: a hostile locale value falls back safely and is audited", () => {
  it.each<[string, unknown, string]>([
    ["__proto__", "__proto__", "invalid"],
    ["constructor", "constructor", "invalid"],
    ["toString", "toString", "invalid"],
    ["hasOwnProperty", "hasOwnProperty", "invalid"],
    ["a reserved long language", "klingon", "invalid"],
    ["an undetermined language", "und", "invalid"],
    ["a private-use tag", "x-de", "invalid"],
    ["a tag with a trailing hyphen", "de-", "invalid"],
    ["a tag with markup", "de<script>", "invalid"],
    ["a tag with a bidi override", "de\u202e", "invalid"],
    ["a tag with a line break", "de\nBcc: x@evil.example", "invalid"],
    ["a tag of another script's letters", "dе", "invalid"],
    ["a list of preferences", "de-AT,de;q=0.9", "invalid"],
    // Well-formed, and Intl would parse it: only the cap refuses it.
    [
      "a well-formed tag of 115 characters",
      `de-DE-x-${Array.from({ length: 12 }, (_, i) => `abcdefg${i.toString(16)}`).join("-")}`,
      "invalid",
    ],
    ["a megabyte", "de-".repeat(350_000), "invalid"],
    ["a number", 49, "invalid"],
    ["a boolean", true, "invalid"],
    ["an array", ["de"], "invalid"],
    ["an object that stringifies as a tag", { toString: () => "de" }, "invalid"],
    ["a well-formed tag of no language the template has", "zu-ZA", "unsupported"],
    ["a tag with extensions, which are ignored", "de-DE-u-nu-arab-x-evil", "fallback"],
  ])("%s", (_name, value, reason) => {
    const decision = expectSend(localeCatalog.decide(lateArrival, bookingTicket(value)));
    expect(decision.locale?.reason).toBe(reason);
    expect(tags).toContain(decision.locale?.used);
    // What the audit keeps of the value is its canonical tag or nothing: never the raw text.
    if (reason === "invalid") expect(decision.locale).toEqual({ used: "en", reason: "invalid" });
  });

  it("resolves a megabyte of locale in linear time, never parsing more than 64 characters", () => {
    const started = performance.now();
    for (let i = 0; i < 20; i++)
      localeCatalog.decide(lateArrival, bookingTicket(`${"de-".repeat(300_000)}${i}`));
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("returns a send in a template locale for any value, and never echoes a value that is not a tag", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 80 }),
          fc.string({ unit: "grapheme", maxLength: 20 }),
          fc.constantFrom("de", "de-AT", "es-419", "en-GB", "DE_at", "zh-Hant-TW"),
          fc.stringMatching(/^[a-zA-Z]{2,3}([-_][a-zA-Z0-9]{1,8}){0,4}$/),
          fc.anything(),
        ),
        (value) => {
          const decision = localeCatalog.decide(lateArrival, bookingTicket(value));
          if (decision.outcome !== "send") return false;
          const { locale } = decision;
          if (locale === undefined || !tags.includes(locale.used)) return false;
          if (decision.message.locale !== locale.used) return false;
          if (locale.requested !== undefined && !/^[A-Za-z0-9-]{2,64}$/.test(locale.requested)) return false;
          return Object.isFrozen(locale);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("keeps the cached choice of one decision from being changed by another's caller", () => {
    const first = expectSend(localeCatalog.decide(lateArrival, bookingTicket("de-AT")));
    expect(() => {
      (first.locale as { used: string }).used = "es";
    }).toThrow(TypeError);
    expect(expectSend(localeCatalog.decide(lateArrival, bookingTicket("de-AT"))).locale?.used).toBe("de");
  });
});

describe("locales: the fallback chain with a tag's likely script", () => {
  it.each([
    ["zh-TW", "zh-Hant"],
    ["zh-HK", "zh-Hant"],
    ["zh-CN", "zh"],
    ["zh-Hant-TW", "zh-Hant"],
    ["sr-RS", "sr-Cyrl"],
    ["sr-Latn-RS", "sr-Latn"],
  ])("writes to %s in %s", (requested, used) => {
    const config = bookingConfig();
    const locale = config.locale as TemplateLocaleConfig;
    // The German words under other tags: which text is chosen is all this test looks at.
    const { formats: _formats, ...words } = locale.texts.de as LocaleTexts;
    const numericDate = format.date("dd.MM.yyyy", { timeZone: "UTC" });
    const template = defineTemplate(localeRecords, {
      ...config,
      slots: {
        ...config.slots,
        booking: localeRecords.slot.ref("bookings", {
          show: {
            number: "number",
            starts: { field: "startsAt", as: numericDate },
            total: { field: "total", as: format.number() },
          },
        }),
      },
      locale: { ...locale, texts: { zh: words, "zh-Hant": words, "sr-Cyrl": words, "sr-Latn": words } },
    });
    const catalog = createCatalog(localeRecords, [template]);
    expect(expectSend(catalog.decide(lateArrival, bookingTicket(requested))).locale).toMatchObject({
      used,
      reason: "fallback",
    });
  });
});

describe("locales: who may choose the language", () => {
  const from = (source: string): TemplateConfig => ({
    ...bookingConfig(),
    locale: { ...(bookingConfig().locale as TemplateLocaleConfig), from: source },
  });

  it("lets the recipient choose its own language: a field it wrote itself picks among code-defined texts", () => {
    const template = defineTemplate(localeRecords, from("to.language"));
    expect(template.locales?.from).toEqual({ kind: "field", slot: "to", field: "language" });
  });

  it("refuses a language chosen by a field another outsider wrote", () => {
    const config = bookingConfig();
    const note = { ...config.slots, note: localeRecords.slot.ref("notes", { show: "id" }) };
    let error: unknown;
    try {
      // The buyer wrote notes.locale: it may not pick the words the partner reads, as its text may not.
      defineTemplate(localeRecords, {
        ...config,
        slots: note,
        body: `${config.body} {{note}}`,
        locale: { ...(config.locale as TemplateLocaleConfig), texts: {}, from: "note.locale" },
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DefinitionError);
    expect((error as DefinitionError).message).toMatch(
      /slot "note": picks the language by notes\.locale for audience "partner", but notes\.locale is labelled: it is untrusted text written by "buyer"/,
    );
  });
});
