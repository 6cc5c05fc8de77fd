import { de } from "date-fns/locale";
import { describe, expect, it } from "vitest";
import type { LocaleSource } from "../../../src/core/definition/template-types.js";
import {
  chosenRecord,
  createCatalog,
  createOutbox,
  defineTemplate,
  format,
  memoryStore,
  memoryTransport,
  type TemplateConfig,
} from "../../../src/index.js";
import { catalogCapacity } from "../../../src/metrics/index.js";
import { checkCatalog } from "../../../src/testing/index.js";
import { expectEscalation, expectSend } from "../../fixtures/expect.js";
import {
  arrivalChange,
  bookingConfig,
  bookingTicket,
  lateArrival,
  localeCatalog,
  localeRecords,
} from "../../fixtures/locales.js";

const { slot } = localeRecords;

describe("locales: the recipient's language, read from records", () => {
  it("writes subject, body, choice labels, dates and money in the recipient's locale", () => {
    const decision = expectSend(localeCatalog.decide(lateArrival, bookingTicket("de")));
    expect(decision.message.subject).toBe("Buchung 4711-0815: Ankunft ändert sich");
    expect(decision.message.text).toBe(
      "Hallo Pension Alpenblick,\n\nfür die Buchung 4711-0815 am 14. März 2026, Summe 1.234,50 €, gilt: der Gast kommt später an. Bitte halten Sie das Zimmer frei.\nRückruf unter +49 30 1234567.",
    );
    expect(decision.message.locale).toBe("de");
    expect(decision.values.reason).toBe("der Gast kommt später an");
    expect(decision.locale).toEqual({ used: "de", requested: "de", reason: "requested" });

    const spanish = expectSend(localeCatalog.decide(lateArrival, bookingTicket("es")));
    expect(spanish.message.subject).toBe("Reserva 4711-0815: cambia la llegada");
    expect(spanish.values).toMatchObject({
      "booking.starts": "14 de marzo de 2026",
      "booking.total": "1234,50 €",
      reason: "el huésped llegará tarde",
    });
  });

  it("keeps the template as it was for a template without locales: no locale on message or decision", () => {
    const { locale: _locale, ...plain } = bookingConfig();
    const template = defineTemplate(localeRecords, plain);
    const decision = expectSend(
      createCatalog(localeRecords, [template]).decide(lateArrival, bookingTicket("de")),
    );
    expect(decision).not.toHaveProperty("locale");
    expect(decision.message).not.toHaveProperty("locale");
    expect(decision.message.subject).toBe("Booking 4711-0815: arrival changes");
  });

  it.each([
    ["de", "de", "requested"],
    ["de-AT", "de", "fallback"],
    ["DE_at", "de", "fallback"],
    ["  es-MX ", "es", "fallback"],
    ["es-419", "es", "fallback"],
    ["de-Latn-AT-1996", "de", "fallback"],
    ["en-GB", "en", "fallback"],
    ["en", "en", "requested"],
    ["fr-CA", "en", "unsupported"],
    ["nb-NO", "en", "unsupported"],
  ])("resolves %j to %s (%s)", (value, used, reason) => {
    const decision = expectSend(localeCatalog.decide(lateArrival, bookingTicket(value)));
    expect(decision.locale).toMatchObject({ used, reason });
    expect(decision.message.locale).toBe(used);
  });

  it("names the canonical tag it was asked for, and falls back to the default when there is none", () => {
    expect(expectSend(localeCatalog.decide(lateArrival, bookingTicket("DE_at"))).locale).toEqual({
      used: "de",
      requested: "de-AT",
      reason: "fallback",
    });
    expect(expectSend(localeCatalog.decide(lateArrival, bookingTicket())).locale).toEqual({
      used: "en",
      reason: "missing",
    });
    expect(expectSend(localeCatalog.decide(lateArrival, bookingTicket(""))).locale?.reason).toBe("missing");
    expect(expectSend(localeCatalog.decide(lateArrival, bookingTicket(null))).locale?.reason).toBe("missing");
  });

  it("gives the same idempotency key to the same choices in two locales: one message, not two", () => {
    const german = expectSend(localeCatalog.decide(lateArrival, bookingTicket("de")));
    const spanish = expectSend(localeCatalog.decide(lateArrival, bookingTicket("es")));
    const english = expectSend(localeCatalog.decide(lateArrival, bookingTicket("garbage!")));
    expect(german.message.text).not.toBe(spanish.message.text);
    expect(new Set([german.key, spanish.key, english.key]).size).toBe(1);
  });

  it("sends in a locale's sections exactly as in the default: a choice key's section follows the key", () => {
    const early = { template: "arrival_change", slots: { reason: "early" } };
    const decision = expectSend(localeCatalog.decide(early, bookingTicket("de")));
    expect(decision.message.text).toContain("der Gast kommt früher an.\nRückruf");
    expect(decision.message.text).not.toContain("Zimmer");
  });

  it("renders a locale exactly as a template written in that language alone would", () => {
    const { locale, ...english } = bookingConfig();
    const german = locale?.texts.de;
    const germanOnly = defineTemplate(localeRecords, {
      ...english,
      subject: german?.subject as string,
      body: german?.body as string,
      slots: {
        booking: slot.ref("bookings", {
          show: {
            number: "number",
            starts: {
              field: "startsAt",
              as: format.date("d. MMMM yyyy", { timeZone: "Europe/Berlin", locale: de }),
            },
            total: { field: "total", as: format.money({ currencyField: "currency", locale: "de" }) },
          },
        }),
        partner: slot.ref("partners", {
          show: { name: "name", phone: { field: "phone", as: format.phone() } },
        }),
        reason: slot.choice({ late: "der Gast kommt später an", early: "der Gast kommt früher an" }),
      },
    });
    const alone = expectSend(
      createCatalog(localeRecords, [germanOnly]).decide(lateArrival, bookingTicket("de")),
    );
    const localised = expectSend(localeCatalog.decide(lateArrival, bookingTicket("de")));
    const { locale: _tag, ...message } = localised.message;
    expect(message).toEqual(alone.message);
    expect(localised.values).toEqual(alone.values);
    expect(localised.key).toBe(alone.key);
  });

  it("carries the locale of an approval draft", () => {
    const template = defineTemplate(localeRecords, { ...bookingConfig(), approval: "human" });
    const decision = expectEscalation(
      createCatalog(localeRecords, [template]).decide(lateArrival, bookingTicket("es-ES")),
      "approval_required",
    );
    expect(decision.draft?.locale).toBe("es");
    expect(decision.locale).toEqual({ used: "es", requested: "es-ES", reason: "fallback" });
  });

  it("keeps the locale in the outbox's audit log", async () => {
    const store = memoryStore();
    const email = memoryTransport();
    const outbox = createOutbox({
      catalog: localeCatalog,
      load: () => bookingTicket("de-CH"),
      store,
      transports: { email },
    });
    await outbox.handle({ ticketId: "T-7", output: lateArrival, runId: "run-1" });
    const events = [];
    for await (const event of outbox.audit.query()) events.push(event);
    expect(events.find((event) => event.type === "decision")?.data).toMatchObject({
      locale: { used: "de", requested: "de-CH", reason: "fallback" },
    });
    expect(email.sent[0]?.message.locale).toBe("de");
    await outbox.close();
  });
});

describe("locales: where the locale comes from", () => {
  it("reads the locale with a function of the records, as the audience may see them", () => {
    const seen: unknown[] = [];
    const template = defineTemplate(localeRecords, {
      ...bookingConfig(),
      locale: {
        ...(bookingConfig().locale as NonNullable<TemplateConfig["locale"]>),
        from: (context) => {
          const partner = chosenRecord(context, "to", "partners");
          seen.push(partner?.region);
          return partner?.language;
        },
      },
    });
    const catalog = createCatalog(localeRecords, [template]);
    const decision = expectSend(
      catalog.decide(lateArrival, bookingTicket("es", { language: "de-AT", region: "secret-region" })),
    );
    expect(decision.locale).toEqual({ used: "de", requested: "de-AT", reason: "fallback" });
    // "region" is readable by finance only: the partner's language may not depend on it.
    expect(seen).toEqual([undefined]);
  });

  it("falls back to the default, audited, when the locale function throws or returns nothing", () => {
    const withFrom = (from: LocaleSource) =>
      createCatalog(localeRecords, [
        defineTemplate(localeRecords, {
          ...bookingConfig(),
          locale: { ...(bookingConfig().locale as NonNullable<TemplateConfig["locale"]>), from },
        }),
      ]);
    const threw = withFrom(() => {
      throw new Error("profile service down");
    }).decide(lateArrival, bookingTicket("de"));
    expect(expectSend(threw).locale).toEqual({ used: "en", reason: "failed" });
    const nothing = withFrom(() => undefined).decide(lateArrival, bookingTicket("de"));
    expect(expectSend(nothing).locale).toEqual({ used: "en", reason: "missing" });
    const object = withFrom(() => ({ toString: () => "de" })).decide(lateArrival, bookingTicket("de"));
    expect(expectSend(object).locale).toEqual({ used: "en", reason: "invalid" });
  });

  it("never lets the model choose the locale: a locale in the proposal is an unknown slot", () => {
    const decision = localeCatalog.decide(
      { template: "arrival_change", slots: { reason: "late", locale: "de" } },
      bookingTicket("es"),
    );
    expectEscalation(decision, "invalid_proposal");
  });
});

describe("locales: the outbound scan reads the localised message", () => {
  const withLiterals = (): TemplateConfig => {
    const config = bookingConfig();
    const locale = config.locale as NonNullable<TemplateConfig["locale"]>;
    return {
      ...config,
      body: `${config.body}\nHelp: help@portal.example`,
      locale: {
        ...locale,
        texts: {
          ...locale.texts,
          de: { ...locale.texts.de, body: `${locale.texts.de?.body}\nHilfe: hilfe@portal.example` },
          es: { ...locale.texts.es, body: `${locale.texts.es?.body}\nAyuda: ayuda@portal.example` },
        },
      },
    };
  };
  const catalog = createCatalog(localeRecords, [defineTemplate(localeRecords, withLiterals())]);

  it("accepts the locale's own template text", () => {
    expectSend(catalog.decide(lateArrival, bookingTicket("de")));
    expectSend(catalog.decide(lateArrival, bookingTicket("es")));
    expectSend(catalog.decide(lateArrival, bookingTicket("en")));
  });

  it.each([
    ["de", "help@portal.example"],
    ["es", "hilfe@portal.example"],
    ["en", "ayuda@portal.example"],
  ])("flags, in %s, an address that is template text of another locale only (%s)", (locale, address) => {
    const decision = catalog.decide(lateArrival, bookingTicket(locale, { name: `Pension ${address}` }));
    expectEscalation(decision, "content_flagged");
  });

  it("accepts values formatted in the locale (a phone number shown nationally in a regional text)", () => {
    const config = bookingConfig();
    const locale = config.locale as NonNullable<TemplateConfig["locale"]>;
    const regional = defineTemplate(localeRecords, {
      ...config,
      locale: { ...locale, texts: { "de-DE": locale.texts.de as NonNullable<(typeof locale.texts)["de"]> } },
    });
    const decision = expectSend(
      createCatalog(localeRecords, [regional]).decide(lateArrival, bookingTicket("de-DE")),
    );
    expect(decision.values["partner.phone"]).toBe("030 1234567");
    // A reader elsewhere dials the prefix: the same number, international, in a text without region.
    const abroad = expectSend(localeCatalog.decide(lateArrival, bookingTicket("de-DE")));
    expect(abroad.values["partner.phone"]).toBe("+49 30 1234567");
  });
});

describe("locales: the model's view stays in one language", () => {
  const { locale: _locale, ...plain } = bookingConfig();
  const unlocalised = createCatalog(localeRecords, [defineTemplate(localeRecords, plain)]);

  it("describes the ticket and builds the tools exactly as without locales", () => {
    for (const value of ["de", "es", undefined]) {
      const ticket = bookingTicket(value);
      expect(localeCatalog.describe(ticket)).toBe(unlocalised.describe(ticket));
      // As the provider receives them: serialised.
      expect(JSON.stringify(localeCatalog.tools(ticket, { provider: "openai" }))).toBe(
        JSON.stringify(unlocalised.tools(ticket, { provider: "openai" })),
      );
      expect(JSON.stringify(localeCatalog.proposalSchema(ticket, { provider: "anthropic" }))).toBe(
        JSON.stringify(unlocalised.proposalSchema(ticket, { provider: "anthropic" })),
      );
    }
  });

  it("counts messages per locale in capacity, with no bits added for the locale", () => {
    const localised = catalogCapacity(localeCatalog, { sample: bookingTicket("de") });
    const plainCapacity = catalogCapacity(unlocalised, { sample: bookingTicket("de") });
    const [template] = localised.templates;
    expect(template?.locales).toEqual(["en", "de", "es"]);
    expect(template?.sample).toMatchObject({ enumerated: true, messages: 2, byLocale: { de: 2 } });
    expect(template?.bitsPerMessage).toBe(plainCapacity.templates[0]?.bitsPerMessage);
    expect(localised.notes.join("\n")).toMatch(/locale is read from the recipient's records/);
  });

  it("holds each locale's texts in the catalog version", () => {
    const config = bookingConfig();
    const locale = config.locale as NonNullable<TemplateConfig["locale"]>;
    const changed = defineTemplate(localeRecords, {
      ...config,
      locale: {
        ...locale,
        texts: { ...locale.texts, es: { ...locale.texts.es, subject: "Reserva {{booking.number}}" } },
      },
    });
    expect(createCatalog(localeRecords, [changed]).version).not.toBe(localeCatalog.version);
    expect(createCatalog(localeRecords, [arrivalChange]).version).toBe(localeCatalog.version);
  });
});

describe("locales: formletter/testing checks every locale's messages", () => {
  it("finds no failure in a localised catalog, whichever locale the sample ticket has", () => {
    for (const locale of ["de", "es-MX", undefined]) {
      const report = checkCatalog(localeCatalog, bookingTicket(locale), { runs: 300, seed: 7 });
      expect(report.failures).toEqual([]);
      expect(report.sends).toBeGreaterThan(30);
    }
  });
});
