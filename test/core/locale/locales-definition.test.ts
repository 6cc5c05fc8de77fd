import { ar, de, es, he } from "date-fns/locale";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createCatalog,
  DefinitionError,
  defineRecords,
  defineTemplate,
  format,
  type LocaleTexts,
  type TemplateConfig,
  type TemplateLocaleConfig,
} from "../../../src/index.js";
import { expectEscalation, expectSend } from "../../fixtures/expect.js";
import { bookingConfig, bookingTicket, lateArrival, localeRecords } from "../../fixtures/locales.js";

const { slot } = localeRecords;

/** The booking template with its locale option changed by `change`. */
function withLocale(change: (locale: TemplateLocaleConfig) => Partial<TemplateLocaleConfig>): TemplateConfig {
  const config = bookingConfig();
  const locale = config.locale as TemplateLocaleConfig;
  return { ...config, locale: { ...locale, ...change(locale) } };
}

/** The booking template with its German text changed by `change`. */
function withGerman(change: (german: LocaleTexts) => LocaleTexts): TemplateConfig {
  return withLocale((locale) => ({
    texts: { ...locale.texts, de: change(locale.texts.de as LocaleTexts) },
  }));
}

function definitionError(config: TemplateConfig): DefinitionError {
  try {
    defineTemplate(localeRecords, config);
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionError);
    return error as DefinitionError;
  }
  throw new Error("expected a DefinitionError");
}

describe("locales: every locale has the default's shape, checked when the template is defined", () => {
  it.each<[string, TemplateConfig, RegExp, string | undefined]>([
    [
      "a locale leaves out a slot",
      withGerman((german) => ({
        ...german,
        body: (german.body as string).replace(" unter {{partner.phone}}", ""),
      })),
      /^template "arrival_change", locale "de", slot "partner": its body leaves out \{\{partner\.phone\}\}/,
      "partner",
    ],
    [
      "a locale shows a value the default part does not",
      withGerman((german) => ({ ...german, subject: "Buchung {{booking.number}} am {{booking.starts}}" })),
      /locale "de", slot "booking": its subject uses \{\{booking\.starts\}\}, which the default subject does not/,
      "booking",
    ],
    [
      "a locale adds a section",
      withGerman((german) => ({
        ...german,
        body: `${german.body}{{#reason.early}} Früher!{{/reason.early}}`,
      })),
      /locale "de", slot "reason": its body uses \{\{#reason\.early\}\}/,
      "reason",
    ],
    [
      "a locale inverts a section",
      withGerman((german) => ({
        ...german,
        body: (german.body as string).replaceAll("#reason.late", "^reason.late"),
      })),
      /locale "de", slot "reason": its body uses \{\{\^reason\.late\}\}/,
      "reason",
    ],
    [
      "a locale names a slot that does not exist",
      withGerman((german) => ({ ...german, subject: "Buchung {{booking.number}} {{booking.guest}}" })),
      /locale "de", slot "booking": its subject uses \{\{booking\.guest\}\}/,
      "booking",
    ],
    [
      "a locale has no subject",
      withGerman(({ subject: _subject, ...german }) => german),
      /locale "de": has no subject, which the default has; translate it, or set locale\.missing: "default"/,
      undefined,
    ],
    [
      "a locale has an HTML part the default has not",
      withGerman((german) => ({ ...german, html: "<p>{{partner.name}}</p>" })),
      /locale "de": has a html, which the default does not/,
      undefined,
    ],
    [
      "a locale has no label for a choice key",
      withGerman((german) => ({ ...german, choices: { reason: { late: "der Gast kommt später an" } } })),
      /locale "de", slot "reason": has no label for choice "early"; add choices\.reason\.early/,
      "reason",
    ],
    [
      "a locale labels a key the slot does not have",
      withGerman((german) => ({
        ...german,
        choices: { reason: { late: "später", early: "früher", never: "nie" } },
      })),
      /locale "de", slot "reason": labels choice "never", which is not a key of the slot/,
      "reason",
    ],
    [
      "a locale labels choices of a slot that is not a choice",
      withGerman((german) => ({ ...german, choices: { ...german.choices, booking: { a: "b" } } })),
      /locale "de", slot "booking": choices\.booking names no choice slot/,
      "booking",
    ],
    [
      "a choice label spans two lines",
      withGerman((german) => ({ ...german, choices: { reason: { late: "später\nan", early: "früher" } } })),
      /locale "de", slot "reason": choice "late" needs a non-empty, single-line label/,
      "reason",
    ],
    [
      "a locale's mustache uses an unescaped tag",
      withGerman((german) => ({ ...german, subject: "Buchung {{{booking.number}}}" })),
      /locale "de": subject: unescaped tags/,
      undefined,
    ],
    [
      "a locale's subject is two lines",
      withGerman((german) => ({ ...german, subject: "Buchung {{booking.number}}:\nAnkunft" })),
      /locale "de": subject must be a single line/,
      undefined,
    ],
    [
      "a locale's text is not a BCP 47 tag",
      withLocale((locale) => ({ texts: { ...locale.texts, german: locale.texts.de as LocaleTexts } })),
      /locale\.texts\["german"\]: "german" is not a BCP 47 language tag/,
      undefined,
    ],
    [
      "a locale's tag is not written canonically",
      withLocale((locale) => ({ texts: { "de-de": locale.texts.de as LocaleTexts } })),
      /write the tag "de-de" as "de-DE"/,
      undefined,
    ],
    [
      "the default is also among the texts",
      withLocale((locale) => ({ texts: { ...locale.texts, en: locale.texts.de as LocaleTexts } })),
      /locale "en": is the default locale/,
      undefined,
    ],
    [
      "the default is not a tag",
      withLocale(() => ({ default: "__proto__" })),
      /locale\.default: "__proto__" is not a BCP 47 language tag/,
      undefined,
    ],
    [
      "the locale is read from a field that does not exist",
      withLocale(() => ({ from: "to.language_code" })),
      /locale\.from names "language_code", which is not a field of "partners"/,
      undefined,
    ],
    [
      "the locale is read from a choice slot",
      withLocale(() => ({ from: "reason.locale" })),
      /locale\.from must be "<ref slot>\.<field>"/,
      undefined,
    ],
    [
      "the locale is read from a private field the audience may not read",
      withLocale(() => ({ from: "to.region" })),
      /slot "to": picks the language by partners\.region for audience "partner", but partners\.region is labelled: it is readable only by "finance"/,
      "to",
    ],
    [
      "a date shows month names in a locale with no date-fns locale",
      withLocale(() => ({ dates: [es] })),
      /locale "de", slot "booking": format\.date: "d\. MMMM yyyy" shows month or day names, and the template gives no date-fns locale for "de"/,
      "booking",
    ],
    [
      "a locale's format is of another kind",
      withGerman((german) => ({ ...german, formats: { "booking.total": format.number() } })),
      /locale "de", slot "booking": formats\["booking\.total"\] is a number format, but the value is money/,
      "booking",
    ],
    [
      "a locale's format reads another field",
      withGerman((german) => ({
        ...german,
        formats: {
          "booking.starts": format.date("d.M.yyyy", { timeZone: "UTC", sourceZoneField: "number" }),
        },
      })),
      /locale "de", slot "booking": formats\["booking\.starts"\] reads "number", which the slot's own format does not/,
      "booking",
    ],
    [
      "a locale formats a value the template does not show",
      withGerman((german) => ({ ...german, formats: { "booking.end": format.number() } })),
      /locale "de": formats\["booking\.end"\] names no shown value/,
      undefined,
    ],
    [
      "a locale's format was built with bad options",
      withGerman((german) => ({
        ...german,
        formats: { "booking.starts": format.date("d. MMMM", { timeZone: "Mars/Olympus" }) },
      })),
      /locale "de", slot "booking": format\.date: time zone "Mars\/Olympus"/,
      "booking",
    ],
  ])("throws when %s", (_name, config, message, slotName) => {
    const error = definitionError(config);
    expect(error.message).toMatch(message);
    expect(error.code).toBe("template_invalid");
    expect(error.template).toBe("arrival_change");
    expect(error.slot).toBe(slotName);
  });

  it("holds every locale to the rule that an optional slot shows only inside its section", () => {
    const config = bookingConfig();
    const locale = config.locale as TemplateLocaleConfig;
    const other = slot.ref("bookings", { show: "number", optional: true });
    const german = locale.texts.de as LocaleTexts;
    const withOther = (germanBody: string): TemplateConfig => ({
      ...config,
      slots: { ...config.slots, other },
      body: `${config.body}{{#other}} Also {{other}}.{{/other}}`,
      locale: { ...locale, texts: { de: { ...german, body: `${german.body}${germanBody}` } } },
    });
    expect(() =>
      defineTemplate(localeRecords, withOther("{{#other}} Auch {{other}}.{{/other}}")),
    ).not.toThrow();
    // The same tags and sections as the default, but the value moved out of its section.
    const error = definitionError(withOther("{{#other}} Auch{{/other}} {{other}}."));
    expect(error.message).toMatch(
      /^template "arrival_change", locale "de", slot "other": optional slot is shown outside \{\{#other\}\}/,
    );
  });

  it("accepts a numeric date pattern without a date-fns locale, and English without one", () => {
    const config = withLocale(() => ({ dates: [] }));
    const numeric = {
      ...config,
      slots: {
        ...config.slots,
        booking: slot.ref("bookings", {
          show: {
            number: "number",
            starts: { field: "startsAt", as: format.date("dd.MM.yyyy", { timeZone: "UTC" }) },
            total: { field: "total", as: format.money({ currencyField: "currency" }) },
          },
        }),
      },
    };
    const locale = numeric.locale as TemplateLocaleConfig;
    const germanWithoutOverride = { ...(locale.texts.de as LocaleTexts), formats: {} };
    const template = defineTemplate(localeRecords, {
      ...numeric,
      locale: { ...locale, texts: { de: germanWithoutOverride } },
    });
    const decision = expectSend(
      createCatalog(localeRecords, [template]).decide(lateArrival, bookingTicket("de")),
    );
    expect(decision.values["booking.starts"]).toBe("14.03.2026");
  });

  it('takes a missing part or label from the default when the template says missing: "default"', () => {
    const config = withLocale((locale) => ({
      missing: "default",
      texts: {
        ...locale.texts,
        de: {
          body: (locale.texts.de as LocaleTexts).body as string,
          choices: { reason: { late: "später" } },
        },
      },
    }));
    const decision = expectSend(
      createCatalog(localeRecords, [defineTemplate(localeRecords, config)]).decide(
        { template: "arrival_change", slots: { reason: "early" } },
        bookingTicket("de"),
      ),
    );
    expect(decision.message.subject).toBe("Booking 4711-0815: arrival changes");
    expect(decision.values.reason).toBe("the guest will arrive early");
    expect(decision.message.text).toMatch(/^Hallo/);
  });

  it("checks each locale's HTML where its values land", () => {
    const config = {
      ...bookingConfig(),
      html: "<p>Hello {{partner.name}}, {{reason}} ({{booking.number}}, {{booking.starts}}, {{booking.total}}, {{partner.phone}}){{#reason.late}}!{{/reason.late}}</p>",
    };
    const locale = config.locale as TemplateLocaleConfig;
    const html = (text: string): TemplateConfig => ({
      ...config,
      locale: {
        ...locale,
        texts: {
          ...locale.texts,
          de: { ...(locale.texts.de as LocaleTexts), html: text },
          es: { ...(locale.texts.es as LocaleTexts), html: config.html },
        },
      },
    });
    expect(() =>
      defineTemplate(
        localeRecords,
        html(
          "<p>Hallo {{partner.name}}, {{reason}} ({{booking.number}}, {{booking.starts}}, {{booking.total}}, {{partner.phone}}){{#reason.late}}!{{/reason.late}}</p>",
        ),
      ),
    ).not.toThrow();
    const error = definitionError(
      html(
        '<p>Hallo <a href="{{partner.name}}">x</a>, {{reason}} ({{booking.number}}, {{booking.starts}}, {{booking.total}}, {{partner.phone}}){{#reason.late}}!{{/reason.late}}</p>',
      ),
    );
    expect(error.message).toMatch(
      /^template "arrival_change", locale "de", slot "partner": html: \{\{partner\.name\}\} is in the href attribute/,
    );
  });

  it("holds every locale of a WhatsApp template to the platform's placement rules", () => {
    const records = defineRecords({
      guests: z.object({ id: z.string(), name: z.string(), phone: z.string(), locale: z.string() }),
    });
    const base: TemplateConfig = {
      id: "welcome",
      effect: "informational",
      description: "Welcome the guest.",
      audience: "guest",
      channel: "whatsapp",
      to: records.slot.ref("guests", { show: "phone", as: format.phone() }),
      body: "Welcome to the house, {{name}}, we are glad you are here!",
      slots: { name: records.slot.ref("guests", { show: "name" }) },
      limits: { perTicket: 1, perDay: 10 },
      locale: {
        default: "en",
        from: "to.locale",
        texts: { de: { body: "{{name}}, willkommen im Haus, schön dass Sie da sind!" } },
      },
    };
    expect(() => defineTemplate(records, base)).toThrow(
      /template "welcome", locale "de": WhatsApp templates may not start or end with a variable/,
    );
  });
});

describe("locales: SMS segments are counted per locale and script", () => {
  const records = defineRecords({
    guests: z.object({ id: z.string(), code: z.string(), phone: z.string(), locale: z.string() }),
  });
  const sms = (texts: Record<string, LocaleTexts>, maxSegments = 1): TemplateConfig => ({
    id: "door_code",
    description: "Send the guest the door code.",
    audience: "guest",
    effect: "informational",
    channel: "sms",
    to: records.slot.ref("guests", { show: "phone", as: format.phone() }),
    body: "Your door code is {{code}}. It works from 3 pm on the day you arrive. Reply STOP to opt out.",
    slots: { code: records.slot.ref("guests", { show: "code" }) },
    limits: { perTicket: 1, perDay: 10 },
    maxSegments,
    locale: { default: "en", from: "to.locale", texts },
  });
  const ticket = (locale: string, code = "4711") => ({
    ticketId: "T-1",
    guests: [{ id: "G-1", code, phone: "+4915112345678", locale }],
  });
  const german = {
    body: "Ihr Türcode ist {{code}}. Er gilt ab 15 Uhr am Anreisetag. Antworten Sie STOP zum Abbestellen.",
  };
  const spanish = { body: "Su código de puerta es {{code}}. Funciona desde las 15 h del día de llegada." };
  const greek = {
    body: "Ο κωδικός της πόρτας σας είναι {{code}}. Ισχύει από τις 15:00 την ημέρα άφιξης. Απαντήστε STOP για διαγραφή.",
  };

  it("fails the definition when a locale's own text takes more segments than allowed (UCS-2)", () => {
    expect(() => defineTemplate(records, sms({ de: german, el: greek }))).toThrow(
      /template "door_code", locale "el": the body's fixed text alone takes 2 UCS-2 segments, over maxSegments 1/,
    );
    expect(() => defineTemplate(records, sms({ de: german, el: greek }, 2))).not.toThrow();
  });

  it.each([
    ["en", "GSM-7", 1],
    ["de", "GSM-7", 1],
    // "ó" is not in the GSM-7 alphabet: one letter makes the whole Spanish message UCS-2.
    ["es", "UCS-2", 2],
    ["el", "UCS-2", 2],
  ] as const)("encodes the %s message as %s in %i segment(s)", (locale, encoding, segments) => {
    const catalog = createCatalog(records, [
      defineTemplate(records, sms({ de: german, es: spanish, el: greek }, 2)),
    ]);
    const decision = expectSend(catalog.decide({ template: "door_code", slots: {} }, ticket(locale)));
    expect(decision.message.sms).toEqual({ encoding, segments });
    expect(decision.message.locale).toBe(locale);
  });

  it("escalates a message whose value pushes its locale over the segments, and sends the same in another", () => {
    const catalog = createCatalog(records, [defineTemplate(records, sms({ de: german, es: spanish }, 1))]);
    const code = "A".repeat(20);
    expectSend(catalog.decide({ template: "door_code", slots: {} }, ticket("de", code)));
    const decision = expectEscalation(
      catalog.decide({ template: "door_code", slots: {} }, ticket("es", code)),
      "slot_rejected",
    );
    expect(decision.detail).toMatch(/UCS-2 segments, over maxSegments 1/);
  });
});

describe("locales: right-to-left scripts", () => {
  const records = defineRecords({
    stays: z.object({ id: z.string(), guest: z.string(), nights: z.number(), arrives: z.string() }),
    hosts: z.object({ id: z.string(), email: z.email(), locale: z.string() }),
  });
  const config: TemplateConfig = {
    id: "stay_booked",
    effect: "informational",
    description: "Tell the host about a booked stay.",
    audience: "host",
    channel: "email",
    to: records.slot.ref("hosts", { show: "email" }),
    subject: "New stay: {{stay.guest}}",
    body: "{{stay.guest}} arrives on {{stay.arrives}} for {{stay.nights}} nights.",
    slots: {
      stay: records.slot.ref("stays", {
        show: {
          guest: "guest",
          nights: { field: "nights", as: format.number() },
          arrives: { field: "arrives", as: format.date("d MMMM yyyy", { timeZone: "UTC" }) },
        },
      }),
    },
    limits: { perTicket: 1, perDay: 10 },
    locale: {
      default: "en",
      from: "to.locale",
      dates: [ar, he, de],
      texts: {
        // The right-to-left mark (U+200F) is the author's own: template text is never cleaned.
        ar: {
          subject: "\u200fإقامة جديدة: {{stay.guest}}",
          body: "\u200fيصل {{stay.guest}} في {{stay.arrives}} لمدة {{stay.nights}} ليالٍ.",
        },
        he: {
          subject: "שהייה חדשה: {{stay.guest}}",
          body: "{{stay.guest}} מגיע/ה ב-{{stay.arrives}} ל-{{stay.nights}} לילות.",
        },
      },
    },
  };
  const catalog = createCatalog(records, [defineTemplate(records, config)]);
  const ticket = (locale: string, guest: string) => ({
    ticketId: "T-1",
    stays: [{ id: "S-1", guest, nights: 12, arrives: "2026-03-14" }],
    hosts: [{ id: "H-1", email: "host@example.org", locale }],
  });

  it("keeps the template's own bidi marks and strips a value's", () => {
    // A right-to-left override in a record would reverse what follows it on screen.
    const decision = expectSend(
      catalog.decide({ template: "stay_booked", slots: {} }, ticket("ar-EG", "\u202eمريم\u202c")),
    );
    expect(decision.locale).toMatchObject({ used: "ar", reason: "fallback" });
    expect(decision.message.subject).toBe("\u200fإقامة جديدة: مريم");
    expect(decision.message.text.startsWith("\u200fيصل مريم في ")).toBe(true);
    expect(decision.message.text).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    // Arabic month name, and the number as Intl writes it in Arabic, its bidi marks removed.
    expect(decision.values["stay.arrives"]).toContain("مارس");
    expect(decision.values["stay.nights"]).toBe(
      new Intl.NumberFormat("ar").format(12).replace(/\p{Cf}/gu, ""),
    );
  });

  it("renders Hebrew text with a Hebrew value unchanged", () => {
    const decision = expectSend(catalog.decide({ template: "stay_booked", slots: {} }, ticket("he", "מרים")));
    expect(decision.message.subject).toBe("שהייה חדשה: מרים");
    expect(decision.message.text).toMatch(/^מרים מגיע\/ה ב-14 מרץ 2026 ל-12 לילות\.$/);
  });
});
