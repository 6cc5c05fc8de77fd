import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { RecordsDefinition } from "../../src/core/definition/define-records.js";
import { defineRecords } from "../../src/index.js";
import { cleanText } from "../../src/mine/clean-text.js";
import { maskMessage, mineHistory, valueIndex } from "../../src/mine/index.js";
import { nameParts } from "../../src/mine/name-parts.js";
import { singular } from "../../src/mine/singular.js";

/** The message masked with an index of its ticket built for its own text, and with the whole index. */
function masked(records: RecordsDefinition, ticket: Record<string, unknown>, text: string) {
  const own = maskMessage(text, valueIndex(records, ticket, { text })).skeleton;
  expect(maskMessage(text, valueIndex(records, ticket)).skeleton).toBe(own);
  return own;
}

const records = defineRecords({
  customers: z.object({ id: z.string(), name: z.string(), locale: z.string() }),
  visits: z.object({ id: z.string(), at: z.string() }),
}) as unknown as RecordsDefinition;

const ticket = (name: string, locale = "en-GB", at = "2026-03-03T08:30:00Z") => ({
  customers: [{ id: "c1", name, locale }],
  visits: [{ id: "v1", at }],
});

describe("a part of a person's name written alone", () => {
  it.each([
    [
      "Marie Dupont",
      "Dear Marie,\nYour visit is confirmed.",
      "Dear {{customer.name}}, Your visit is confirmed.",
    ],
    [
      "Jean Martin",
      "Bonjour Jean,\nVotre visite est confirmée.",
      "Bonjour {{customer.name}}, Votre visite est confirmée.",
    ],
    ["Jean Martin", "Good morning Jean!", "Good morning {{customer.name}}!"],
    [
      "Lucía García López",
      "Hola Lucía:\nSu visita está confirmada.",
      "Hola {{customer.name}}: Su visita está confirmada.",
    ],
    [
      "Marie Dupont",
      "Dear Mr Dupont, your visit is confirmed.",
      "Dear {{customer.name}}, your visit is confirmed.",
    ],
    ["Marie Dupont", "Bonjour Mme Dupont, merci.", "Bonjour {{customer.name}}, merci."],
    ["Lucía García López", "Estimada Sra. García, gracias.", "Estimada {{customer.name}}, gracias."],
    ["Lucía García López", "Estimada Sra. García López:", "Estimada {{customer.name}}:"],
    ["Anna de la Fuente", "Dear Ms de la Fuente,", "Dear {{customer.name}},"],
    ["Jean-Pierre O'Brien", "Dear Jean-Pierre,\nSee you.", "Dear {{customer.name}}, See you."],
    ["Chloé Berg", "Hi Chloe,\nSee you.", "Hi {{customer.name}}, See you."],
    ["Marie Dupont", "See you soon. Thanks, Marie!", "See you soon. Thanks, {{customer.name}}!"],
    ["Mary Ann Smith", "Dear Mary Ann,\nSee you.", "Dear {{customer.name}}, See you."],
  ])("%s: %j is masked as the whole name's field", (name, text, expected) => {
    expect(masked(records, ticket(name), text)).toBe(expected);
  });

  it.each([
    // A part that is also a word is a name only where someone is addressed or after a title.
    ["Will Summer", "Will you come this Summer? We will see.", "Will you come this Summer? We will see."],
    ["Will Summer", "Dear Will,\nwe will call.", "Dear {{customer.name}}, we will call."],
    ["Will Summer", "Our Summer sale starts now.", "Our Summer sale starts now."],
    ["Will Summer", "Dear Mr Summer, hello.", "Dear {{customer.name}}, hello."],
    // Written in small letters, it is the word.
    ["Will Summer", "will, you know.", "will, you know."],
    // A surname alone, without a title, is not taken: it names companies and places as often.
    ["Marie Dupont", "Dupont Trading will call.", "Dupont Trading will call."],
    // In the middle of a sentence a first name is not taken for someone addressed.
    ["Paul Novak", "We spoke to Paul yesterday.", "We spoke to Paul yesterday."],
    // Parts under three letters are never taken alone.
    ["Al Li", "Dear Al,\nMr Li is here.", "Dear Al, Mr Li is here."],
  ])("%s: %j", (name, text, expected) => {
    expect(masked(records, ticket(name), text)).toBe(expected);
  });

  it("reads parts only of values shaped as a person's name", () => {
    expect(nameParts("Marie Dupont").map((part) => [part.rendering, part.titled])).toEqual([
      ["dupont", true],
      ["marie", false],
    ]);
    for (const value of [
      "Marie",
      "A B",
      "marie dupont",
      "Marie 2 Dupont",
      "Marie 😀 Dupont",
      "One Two Three Four Five",
      Array.from({ length: 200 }, () => "Marie").join(" "),
      "x".repeat(10_000),
    ])
      expect(nameParts(value)).toEqual([]);
  });

  it("stays whole-word and bounded on hostile names and texts", () => {
    const long = Array.from({ length: 200 }, (_, n) => `Name${n}`).join(" ");
    expect(masked(records, ticket(long), "Dear Name1,\nhello")).toBe("Dear Name1, hello");
    // A name repeated all through a text is taken only where it is addressed.
    const repeated = `Dear Marie,\n${"Marie ".repeat(5_000)}end`;
    const skeleton = masked(records, ticket("Marie Dupont"), repeated);
    expect(skeleton.startsWith("Dear {{customer.name}}, Marie Marie")).toBe(true);
    expect(skeleton.split("{{customer.name}}").length).toBe(2);
    // Inside a longer word, or with marks around it, no part is found.
    expect(masked(records, ticket("Marie Dupont"), "Dear Mariette,\nhi")).toBe("Dear Mariette, hi");
    // Direction marks are taken out of a text before masking, as a history's text is read.
    const marked = cleanText("Dear \u202bMarie\u202c,\nhi");
    expect(masked(records, ticket("Marie\u200f Dupont"), marked)).toBe("Dear {{customer.name}}, hi");
  });

  it("makes one cluster of messages that greet each customer by first name, with no name in it", async () => {
    const people = ["Marie Dupont", "Jean Martin", "Lucie Bernard", "Paul Novak", "Hugo Berg", "Emma Smith"];
    const lines = Array.from({ length: 24 }, (_, n) => {
      const name = people[n % people.length] as string;
      const first = name.split(" ")[0] as string;
      return JSON.stringify({
        ticketId: `T-${n}`,
        records: {
          customers: [{ id: `c${n}`, name, locale: "en-GB" }],
          visits: [{ id: `v${n}`, at: "2026-03-03T08:30:00Z" }],
        },
        message: {
          to: `c${n}@mail.example`,
          text: `${n % 2 === 0 ? "Dear" : "Hi"} ${first},\n\nYour visit is booked. Please bring your card.\n\nKind regards,\nThe clinic`,
        },
      });
    });
    const report = await mineHistory(records, lines);
    const [top] = report.candidates;
    expect(top?.size).toBe(24);
    for (const name of people) expect(top?.skeleton).not.toContain(name.split(" ")[0]);
  });
});

describe("a date and its time of day joined by a word", () => {
  it.each([
    ["fr-FR", "Rendez-vous le 03/03/2026 à 08h30.", "Rendez-vous le {{visit.at}}."],
    ["fr-FR", "Rendez-vous le 3 mars 2026 à 8h30.", "Rendez-vous le {{visit.at}}."],
    ["en-GB", "Your visit is on 3 March 2026 at 08:30.", "Your visit is on {{visit.at}}."],
    ["en-US", "Your visit is on March 3, 2026 at 8:30 am.", "Your visit is on {{visit.at}}."],
    ["en-GB", "Your visit is on 03/03/2026 at 08:30.", "Your visit is on {{visit.at}}."],
    ["en-GB", "Your visit is on 3 March at 8:30am.", "Your visit is on {{visit.at}}."],
    ["de-DE", "Ihr Termin ist am 3. März 2026 um 08:30 Uhr.", "Ihr Termin ist am {{visit.at}}."],
    ["de-DE", "Ihr Termin ist am 3. März um 8:30 Uhr.", "Ihr Termin ist am {{visit.at}}."],
    ["es-ES", "Su cita es el 3 de marzo a las 08:30.", "Su cita es el {{visit.at}}."],
    ["es-ES", "Su cita es el 3 de marzo de 2026 a las 8:30.", "Su cita es el {{visit.at}}."],
  ])("%s: %j is one timestamp", (locale, text, expected) => {
    expect(masked(records, ticket("Zoe Example", locale), text)).toBe(expected);
  });

  it.each([
    // Another time, or a word that says something of the time, is not the timestamp's.
    ["en-GB", "On 3 March 2026 at 09:30.", "On {{visit.at}} at 09:30."],
    ["en-GB", "On 3 March 2026 before 08:30.", "On {{visit.at}} before 08:30."],
    ["en-GB", "On 3 March 2026 at 8 people came.", "On {{visit.at}} at 8 people came."],
    // Only a word joins them: a time after a space alone may say something else ("since 3 March 08:30").
    ["en-GB", "On 3 March 2026 8.30 it rained.", "On {{visit.at}} 8.30 it rained."],
    // A calendar day has no time of day to join.
  ])("%s: %j", (locale, text, expected) => {
    expect(masked(records, ticket("Zoe Example", locale), text)).toBe(expected);
  });

  it("joins no time to a calendar day", () => {
    const day = ticket("Zoe Example", "en-GB", "2026-03-03");
    expect(masked(records, day, "On 3 March 2026 at 08:30.")).toBe("On {{visit.at}} at 08:30.");
  });
});

describe("placeholder names of collections", () => {
  it.each([
    ["people", "person"],
    ["staff", "staff"],
    ["data", "data"],
    ["children", "child"],
    ["addresses", "address"],
    ["statuses", "status"],
    ["analyses", "analysis"],
    ["boxes", "box"],
    ["cities", "city"],
    ["orders", "order"],
    ["status", "status"],
    ["courses", "course"],
    ["houses", "house"],
    ["news", "news"],
    ["lineItems", "lineItem"],
    ["order_statuses", "order_status"],
    ["SalesPeople", "SalesPerson"],
    ["ORDERS", "ORDER"],
  ])("%s → %s", (collection, expected) => {
    expect(singular(collection)).toBe(expected);
  });

  it("names a placeholder of an irregular plural as one record", () => {
    const crew = defineRecords({
      people: z.object({ id: z.string(), email: z.string() }),
    }) as unknown as RecordsDefinition;
    const found = masked(
      crew,
      { people: [{ id: "p", email: "ana@mail.example" }] },
      "Mail ana@mail.example now",
    );
    expect(found).toBe("Mail {{person.email}} now");
  });
});
