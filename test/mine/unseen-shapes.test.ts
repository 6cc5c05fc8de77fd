import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { RecordsDefinition } from "../../src/core/definition/define-records.js";
import { defineRecords } from "../../src/index.js";
import { maskMessage, readMail, valueIndex } from "../../src/mine/index.js";

/** The message masked with an index of its ticket built for its own text, and with the whole index. */
function masked(records: RecordsDefinition, ticket: Record<string, unknown>, text: string) {
  const own = maskMessage(text, valueIndex(records, ticket, { text })).skeleton;
  expect(maskMessage(text, valueIndex(records, ticket)).skeleton).toBe(own);
  return own;
}

describe("amounts kept as text and currencies in fields of other names", () => {
  const records = defineRecords({
    invoices: z.object({ id: z.string(), amount: z.string(), currencyCode: z.string(), year: z.string() }),
    fees: z.object({ id: z.string(), fee: z.string(), devise: z.string() }),
  }) as unknown as RecordsDefinition;
  const ticket = {
    invoices: [{ id: "9", amount: "12345.60", currencyCode: "GBP", year: "2026" }],
    fees: [{ id: "4", fee: "1234.50", devise: "EUR" }],
  };

  it.each([
    ["Invoice for £12,345.60 attached.", "Invoice for {{invoice.amount}} attached."],
    ["Invoice for GBP 12,345.60 attached.", "Invoice for {{invoice.amount}} attached."],
    ["La facture de 1\u202f234,50 € est jointe.", "La facture de {{fee.fee}} est jointe."],
    ["La factura de 1.234,50 € está adjunta.", "La factura de {{fee.fee}} está adjunta."],
    ["Die Rechnung über 1.234,50 EUR liegt bei.", "Die Rechnung über {{fee.fee}} liegt bei."],
  ])("%j is masked", (text, expected) => {
    expect(masked(records, ticket, text)).toBe(expected);
  });

  it("reads no amount into a string that is no decimal, and no currency into a code no currency has", () => {
    // "2026" is a year, not 2,026.00; "ABC" names no currency, so only the amount's digits are found.
    expect(masked(records, ticket, "In 2026 we billed 2,026.00.")).toBe(
      "In {{invoice.year}} we billed 2,026.00.",
    );
    const other = { fees: [{ id: "4", fee: "1234.50", devise: "ABC" }] };
    expect(masked(records, other, "Total 1,234.50 €")).toBe("Total {{fee.fee}} €");
  });
});

describe("a legal notice under a message", () => {
  const notices = [
    "CONFIDENTIALITY NOTICE: This e-mail and any attachments are confidential and intended solely for the addressee.",
    "Ce message et ses pièces jointes sont confidentiels et destinés exclusivement à leur destinataire.",
    "Diese E-Mail enthält vertrauliche Informationen. Wenn Sie nicht der richtige Empfänger sind, löschen Sie sie bitte.",
    "Este mensaje es confidencial.\nSi lo ha recibido por error, elimínelo y avise al remitente.",
  ];

  it.each(notices)("%j is cut with the signature and the closing above it", (notice) => {
    const text = `Hello,\n\nYour parcel left today.\n\nBest regards,\nTom Baker\n--\nAcme Ltd\nT +44 20 7000 1234\n\n${notice}`;
    expect(readMail(text)).toEqual({
      body: "Your parcel left today.",
      greeting: "Hello,",
      closing: "Best regards,",
      quoted: false,
      signature: true,
    });
    // Under a name only, and in two languages one above the other.
    const short = readMail(`Hello,\n\nYour parcel left today.\n\nTom Baker\n\n${notice}\n\n${notices[0]}`);
    expect(short.body).toBe("Your parcel left today.\n\nTom Baker");
  });

  it("keeps a sentence about confidential data that ends what was written", () => {
    const text =
      "Hello,\n\nYour records are confidential and only the intended recipient can open them.\n\nBest regards,\nTom";
    expect(readMail(text).body).toBe(
      "Your records are confidential and only the intended recipient can open them.",
    );
    const last = "Hello,\n\nYour parcel left today.\n\nThe file is confidential; delete it after reading.";
    expect(readMail(last).body).toBe(
      "Your parcel left today.\n\nThe file is confidential; delete it after reading.",
    );
  });
});

describe("a timestamp written with its offset", () => {
  const records = defineRecords({
    visits: z.object({ id: z.string(), at: z.string(), locale: z.string() }),
  }) as unknown as RecordsDefinition;

  it.each([
    // The UTC day is the day before; the UTC hour another.
    [
      "2026-03-03T00:30:00+01:00",
      "fr-FR",
      "Votre visite du 3 mars 2026 à 00:30.",
      "Votre visite du {{visit.at}}.",
    ],
    ["2026-03-03T00:30:00+01:00", "fr-FR", "Votre visite du 03/03/2026.", "Votre visite du {{visit.at}}."],
    [
      "2026-03-03T20:30:00-05:00",
      "en-US",
      "Your visit on March 3, 2026 at 8:30 PM.",
      "Your visit on {{visit.at}}.",
    ],
    [
      "2026-03-03T09:30:00+01:00",
      "es-ES",
      "Su visita del 3 de marzo de 2026 a las 9:30.",
      "Su visita del {{visit.at}}.",
    ],
  ])("%s is found as its writer's clock shows it", (at, locale, text, expected) => {
    expect(masked(records, { visits: [{ id: "1", at, locale }] }, text)).toBe(expected);
  });

  it("is still found as the zone mining renders dates in shows it", () => {
    const ticket = { visits: [{ id: "1", at: "2026-03-03T00:30:00+01:00", locale: "en-GB" }] };
    const text = "Your visit on 2 March 2026, 23:30.";
    expect(masked(records, ticket, text)).toBe("Your visit on {{visit.at}}.");
  });
});

describe("closings wishing a good day or saying goodbye", () => {
  it.each([
    "Belle journée,",
    "Bonne fin de journée !",
    "À bientôt,",
    "Très cordialement,",
    "Un abrazo,",
    "Cordialmente,",
    "Buona giornata",
    "Melhores cumprimentos,",
    "Have a nice day!",
    "Schönen Tag noch,",
  ])("%j is cut with the name under it", (closing) => {
    const mail = readMail(`Bonjour,\n\nLe texte.\n\n${closing}\nMarie Dupont`);
    expect(mail).toMatchObject({ body: "Le texte.", closing });
  });

  it("keeps such words that open a sentence", () => {
    const text = "Hello,\n\nHave a nice day at the spa: your booking is confirmed.\n\nBest,\nTom";
    expect(readMail(text).body).toBe("Have a nice day at the spa: your booking is confirmed.");
  });
});

describe("a whole amount written without places", () => {
  const records = defineRecords({
    quotes: z.object({ id: z.string(), total: z.number(), currency: z.string() }),
  }) as unknown as RecordsDefinition;

  it.each([
    [1200, "USD", "The quote is $1,200 in total.", "The quote is {{quote.total}} in total."],
    [1200, "EUR", "Le devis s'élève à 1 200 € au total.", "Le devis s'élève à {{quote.total}} au total."],
    [1200, "EUR", "Das Angebot beträgt 1.200 € insgesamt.", "Das Angebot beträgt {{quote.total}} insgesamt."],
    [45, "GBP", "The fee is £45 in total.", "The fee is {{quote.total}} in total."],
    [12, "EUR", "Le forfait est de 12 € au total.", "Le forfait est de {{quote.total}} au total."],
  ])("%d %s in %j is masked", (total, currency, text, expected) => {
    expect(masked(records, { quotes: [{ id: "1", total, currency }] }, text)).toBe(expected);
  });

  it("is not rounded into a whole one", () => {
    const ticket = { quotes: [{ id: "1", total: 1199.5, currency: "USD" }] };
    expect(masked(records, ticket, "The quote is $1,200 in total.")).toBe("The quote is $1,200 in total.");
  });
});

describe("a day written as an ordinal", () => {
  const records = defineRecords({
    visits: z.object({ id: z.string(), on: z.string(), locale: z.string() }),
  }) as unknown as RecordsDefinition;

  it.each([
    [
      "2026-03-01",
      "fr-FR",
      "Votre visite du 1er mars 2026 est confirmée.",
      "Votre visite du {{visit.on}} est confirmée.",
    ],
    [
      "2026-03-01",
      "fr-FR",
      "Votre visite du dimanche 1er mars est confirmée.",
      "Votre visite du {{visit.on}} est confirmée.",
    ],
    [
      "2026-03-03",
      "en-GB",
      "Your visit on March 3rd, 2026 is confirmed.",
      "Your visit on {{visit.on}} is confirmed.",
    ],
    [
      "2026-03-22",
      "en-US",
      "Your visit on 22nd March 2026 is confirmed.",
      "Your visit on {{visit.on}} is confirmed.",
    ],
    [
      "2026-03-11",
      "en-US",
      "Your visit on March 11th is confirmed.",
      "Your visit on {{visit.on}} is confirmed.",
    ],
  ])("%s in %s is found in %j", (on, locale, text, expected) => {
    expect(masked(records, { visits: [{ id: "1", on, locale }] }, text)).toBe(expected);
  });

  it("is not another day's ordinal, nor one the language does not write", () => {
    const ticket = { visits: [{ id: "1", on: "2026-03-03", locale: "fr-FR" }] };
    expect(masked(records, ticket, "Votre visite du 3er mars.")).toBe("Votre visite du 3er mars.");
    expect(masked(records, ticket, "Your visit on March 3th.")).toBe("Your visit on March 3th.");
  });
});

describe("a phone number dialled from abroad", () => {
  const records = defineRecords({
    owners: z.object({ id: z.string(), mobile: z.string() }),
  }) as unknown as RecordsDefinition;

  it.each([
    [
      "+33 6 12 34 56 78",
      "Rappelez-nous au 0033 6 12 34 56 78 demain.",
      "Rappelez-nous au {{owner.mobile}} demain.",
    ],
    [
      "+33 6 12 34 56 78",
      "Rappelez-nous au +33 (0)6 12 34 56 78 demain.",
      "Rappelez-nous au {{owner.mobile}} demain.",
    ],
    ["+49 151 2345678", "Rufen Sie 0049 151 2345678 an.", "Rufen Sie {{owner.mobile}} an."],
    ["+44 7911 123456", "Call +44 (0)7911 123456 today.", "Call {{owner.mobile}} today."],
  ])("%s is found in %j", (mobile, text, expected) => {
    expect(masked(records, { owners: [{ id: "1", mobile }] }, text)).toBe(expected);
  });

  it("is not another number with those digits in another order", () => {
    const ticket = { owners: [{ id: "1", mobile: "+33 6 12 34 56 78" }] };
    expect(masked(records, ticket, "Call 0033 6 12 34 56 87 today.")).toBe("Call 0033 6 12 34 56 87 today.");
  });
});

describe("a name written without its accents or with the other apostrophe", () => {
  const records = defineRecords({
    patients: z.object({ id: z.string(), name: z.string() }),
  }) as unknown as RecordsDefinition;

  it.each([
    [
      "José María",
      "Hola Jose Maria, su cita está confirmada.",
      "Hola {{patient.name}}, su cita está confirmada.",
    ],
    [
      "Zoë Dvořák",
      "Dear Zoe Dvorak, your visit is confirmed.",
      "Dear {{patient.name}}, your visit is confirmed.",
    ],
    [
      "José María",
      "Hola José María, su cita está confirmada.",
      "Hola {{patient.name}}, su cita está confirmada.",
    ],
    [
      "Siobhan O'Brien",
      "Dear Siobhan O’Brien, your visit is confirmed.",
      "Dear {{patient.name}}, your visit is confirmed.",
    ],
    [
      "Siobhan O’Brien",
      "Dear Siobhan O'Brien, your visit is confirmed.",
      "Dear {{patient.name}}, your visit is confirmed.",
    ],
  ])("%s is found in %j", (name, text, expected) => {
    expect(masked(records, { patients: [{ id: "1", name }] }, text)).toBe(expected);
  });

  it("is not another name its letters make without accents", () => {
    const ticket = { patients: [{ id: "1", name: "Renée" }] };
    expect(masked(records, ticket, "Dear René, your visit is confirmed.")).toBe(
      "Dear René, your visit is confirmed.",
    );
  });
});

describe("a French time of day written with an h", () => {
  const records = defineRecords({
    visits: z.object({ id: z.string(), at: z.string(), locale: z.string() }),
  }) as unknown as RecordsDefinition;

  it.each([
    [
      "2026-03-03T09:05:00Z",
      "Rendez-vous le 3 mars 2026 à 9h05 à la clinique.",
      "Rendez-vous le {{visit.at}} à la clinique.",
    ],
    [
      "2026-03-03T14:30:00Z",
      "Rendez-vous le mardi 3 mars 2026 à 14h30 à la clinique.",
      "Rendez-vous le {{visit.at}} à la clinique.",
    ],
  ])("%s is found with its time in %j", (at, text, expected) => {
    expect(masked(records, { visits: [{ id: "1", at, locale: "fr-FR" }] }, text)).toBe(expected);
  });

  it("is not another time, nor read so in a language that does not write it", () => {
    const ticket = { visits: [{ id: "1", at: "2026-03-03T09:05:00Z", locale: "fr-FR" }] };
    expect(masked(records, ticket, "Rendez-vous le 3 mars 2026 à 9h50.")).toBe(
      "Rendez-vous le {{visit.at}} à 9h50.",
    );
    const english = { visits: [{ id: "1", at: "2026-03-03T09:05:00Z", locale: "en-GB" }] };
    expect(masked(records, english, "Visit on 3 March 2026 at 9h05.")).toBe("Visit on {{visit.at}} at 9h05.");
  });
});
