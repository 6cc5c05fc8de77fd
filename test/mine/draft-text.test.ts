import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { historyRecords } from "../../examples/data/history-corpus.js";
import type { RecordsDefinition } from "../../src/core/definition/define-records.js";
import { createCatalog, defineRecords, defineTemplate } from "../../src/index.js";
import { configOf, type DraftChoiceSlot } from "../../src/mine/draft.js";
import {
  composeBody,
  readSkeleton,
  subjectLine,
  tidy,
  varyingPlaces,
  withValueTags,
} from "../../src/mine/draft-text.js";
import { draftTemplates, mineHistory } from "../../src/mine/index.js";
import { scanFinds } from "../../src/mine/literal-identifiers.js";

/** A skeleton's body as drafted with no choice: every `{{a.b}}` kept as the slot `a`. */
function bodyOf(skeleton: string, examples: readonly string[] = []): string {
  const tag = (path: string) => {
    const [slot = "", alias = ""] = path.split(".");
    return slot === "hidden" ? undefined : { slot, alias };
  };
  const read = readSkeleton(skeleton, tag);
  const varying = varyingPlaces(read, examples, new Set());
  const pieces = withValueTags(read, varying, tag);
  return composeBody(pieces, { dropped: new Set(), choice: undefined, varying });
}

const guests = defineRecords({
  guests: z.object({ id: z.string(), name: z.string(), email: z.email() }),
  bookings: z.object({
    id: z.string(),
    reference: z.string(),
    guestId: z.string(),
    opensAt: z.string(),
    closesAt: z.string(),
  }),
});

/** Messages to guests, each with its booking, the varying phrase `phrases[n % length]` in `text`. */
async function drafted(text: (phrase: string, n: number) => string, phrases: readonly string[], count = 24) {
  const lines = Array.from({ length: count }, (_, n) =>
    JSON.stringify({
      ticketId: `T-${n}`,
      records: {
        guests: [{ id: `g${n}`, name: `Guestname${n}q`, email: `g${n}@mail.example` }],
        bookings: [
          {
            id: `b${n}`,
            reference: `BK-${4000 + n}`,
            guestId: `g${n}`,
            opensAt: `Opensat${n}x`,
            closesAt: `Closesat${n}x`,
          },
        ],
      },
      message: { to: `g${n}@mail.example`, text: text(phrases[n % phrases.length] as string, n) },
    }),
  );
  const records = guests as unknown as RecordsDefinition;
  const report = await mineHistory(records, lines);
  const draft = draftTemplates(records, report);
  // Whatever the text, every draft is one defineTemplate takes and the catalog builds.
  createCatalog(
    records,
    draft.templates.map((template) => defineTemplate(records, configOf(records, template))),
  );
  const [template] = draft.templates;
  const choice = template?.slots.find((slot): slot is DraftChoiceSlot => slot.kind === "choice");
  return { template, choice };
}

describe("the drafted body keeps the template's punctuation and reads as sentences", () => {
  it.each([
    // An en or em dash between two values is the template's, not a value's.
    [
      "Opening hours: {{garage.opensAt}}–{{garage.closesAt}}.",
      "Opening hours: {{garage.opensAt}}–{{garage.closesAt}}.",
    ],
    [
      "Call us {{garage.opensAt}} — {{garage.closesAt}}.",
      "Call us {{garage.opensAt}} — {{garage.closesAt}}.",
    ],
    // Brackets that held only what was taken out go; brackets around a kept value stay.
    ["Your car (…) is ready at {{garage.name}} ({{hidden.code}}).", "Your car is ready at {{garage.name}}."],
    ["Your car ({{car.plate}}) is ready (…, …).", "Your car ({{car.plate}}) is ready."],
    // Function words left before a gap go with it; the words before them stay.
    ["Approved on … by the claims desk.", "Approved by the claims desk."],
    ["The invoice was due on … and is ….", "The invoice was due."],
    ["Track it at ⌧, call ⌧ or write to ⌧.", "Track it, call or write."],
    // A verb's complement taken out mid-clause leaves the verb ("ist vom … bis" keeps "ist").
    [
      "Ihr Zimmer ist vom … bis zum {{hotel.checkOut}} gebucht.",
      "Ihr Zimmer ist bis zum {{hotel.checkOut}} gebucht.",
    ],
    // A German particle at the end of a sentence is no dangling word: nothing was taken out there.
    ["Bitte bringen Sie die Karte mit.", "Bitte bringen Sie die Karte mit."],
    // The greeting taken out leaves no mark first, and each sentence starts with a capital.
    ["…, your parcel left. we are sorry.", "Your parcel left. We are sorry."],
  ])("%j → %j", (skeleton, body) => {
    expect(bodyOf(skeleton)).toBe(body);
  });

  it("keeps an en dash between two values in a drafted template", async () => {
    const { template } = await drafted(
      (phrase, n) =>
        `Dear Guestname${n}q, booking BK-${4000 + n} is confirmed. Reception: Opensat${n}x\u2013Closesat${n}x ${phrase}.`,
      ["daily"],
    );
    expect(template?.body).toBe(
      "Dear {{guest.name}}, booking {{booking.reference}} is confirmed. Reception: {{booking.opensAt}}\u2013{{booking.closesAt}} daily.",
    );
  });

  it("a dash, a bracket or a mark with nothing around it is tidied away", () => {
    expect(tidy("hours: 9 – . ( ) see , , you (soon")).toBe("Hours: 9. See, you soon");
    expect(tidy("a - . b")).toBe("A. b".replace(". b", ". B"));
  });

  it("writes the value back where every example held the same placeholder the skeleton could not", () => {
    const examples = [
      "Hi, reported on {{damage.reportedOn}}. Please send a quote.",
      "Hello, reported on {{damage.reportedOn}}. Please send a quote.",
      "Dear Sam, reported on {{damage.reportedOn}}. Please send a quote.",
    ];
    expect(bodyOf("…, reported on …. Please send a quote.", examples)).toBe(
      "Reported on {{damage.reportedOn}}. Please send a quote.",
    );
  });

  it("keeps the phrase of an optional sentence where every example holding it agrees", () => {
    const examples = [
      "Hi, please send the invoice. We will forward it to the owner straight away.",
      "Hello, please send the invoice. We will forward it to the ownr straight away.",
      "Dear Sam, please send the invoice.",
    ];
    expect(bodyOf("…, please send the invoice. We will forward it to the … away.", examples)).toBe(
      "Please send the invoice. We will forward it to the owner straight away.",
    );
  });
});

describe("a number the examples all wrote", () => {
  it("is the template's text where no record holds it, not a gap that leaves its words dangling", () => {
    const examples = [
      "Hi, the invoice is due within 30 days. Tell us if anything is damaged within 3 days.",
      "Hello, the invoice is due within 30 days. Tell us if anything is damaged within 3 days.",
      "Dear Sam, the invoice is due within 30 days. Tell us if anything is damaged within 3 days.",
    ];
    expect(
      bodyOf("…, the invoice is due within … days. Tell us if anything is damaged within … days.", examples),
    ).toBe("The invoice is due within 30 days. Tell us if anything is damaged within 3 days.");
  });

  it("stays a gap where the examples wrote other numbers, or too few wrote it", () => {
    const varied = [
      "Hi, the invoice is due within 30 days.",
      "Hello, the invoice is due within 14 days.",
      "Dear Sam, the invoice is due within 30 days.",
    ];
    expect(bodyOf("…, the invoice is due within … days.", varied)).toBe("The invoice is due days.");
    expect(
      bodyOf("…, the invoice is due within … days.", varied.slice(0, 1).concat(varied[2] as string)),
    ).toBe("The invoice is due days.");
  });
});

describe("a phrase the examples all wrote, mistyped or not", () => {
  it("is the template's text, not a gap, when the words fell below the share by typos", () => {
    const examples = [
      "Hi, please send the bill. We will forward it to the owner straigth away.",
      "Hello, please send the bill. We will forward it to the ownr straight away.",
      "Dear Sam, please send the bill. We will forward it to the owner straight away.",
    ];
    expect(bodyOf("…, please send the bill. We will forward it to the … away.", examples)).toBe(
      "Please send the bill. We will forward it to the owner straight away.",
    );
  });

  it("is not written as text when every example wrote it alike: the few examples may show one option only", () => {
    const examples = [
      "Hi, it is late because the paint shop is fully booked.",
      "Hello, it is late because the paint shop is fully booked.",
      "Dear Sam, it is late because the paint shop is fully booked.",
    ];
    // Not sent: a comment says what they wrote, as the cluster's other members wrote otherwise.
    const body = bodyOf("…, it is late because the … is ….", examples);
    expect(body.replace(/\{\{![^}]*\}\}/g, "")).not.toContain("paint");
    expect(body).toContain("{{! Varies here; the examples wrote: paint shop is fully booked }}");
  });
});

describe("the choice sits where the phrases varied", () => {
  it("takes whole phrases as its labels, the examples' own words, at their place", async () => {
    const { template, choice } = await drafted(
      (phrase, n) =>
        `Dear Guestname${n}q, please note that booking BK-${4000 + n} will arrive ${phrase} tonight. Please hold the room.`,
      ["after midnight", "late in the evening", "after the reception closes"],
    );
    expect(template?.body).toBe(
      "Dear {{guest.name}}, please note that booking {{booking.reference}} will arrive {{choice}} tonight. Please hold the room.",
    );
    expect(choice?.choices).toEqual({
      after_midnight: "after midnight",
      late_in_the_evening: "late in the evening",
      after_the_reception_closes: "after the reception closes",
    });
  });

  it("takes a run of difference with a shared word inside it as one place", async () => {
    const { template, choice } = await drafted(
      (phrase, n) =>
        `Dear Guestname${n}q, we opened a claim for booking BK-${4000 + n} because it was ${phrase}. Attach the receipt if you have one.`,
      ["delivered to a wrong address", "returned to the depot"],
    );
    // "was … to the …" in the skeleton: "to" is shared, "the" is not; the choice is the whole run.
    expect(template?.body).toBe(
      "Dear {{guest.name}}, we opened a claim for booking {{booking.reference}} because it was {{choice}}. Attach the receipt if you have one.",
    );
    expect(choice?.choices).toEqual({
      delivered_to_a_wrong_address: "delivered to a wrong address",
      returned_to_the_depot: "returned to the depot",
    });
  });

  it("puts a choice only where aligning the examples found its phrases, never in another gap", () => {
    const tag = (path: string) => {
      const [slot = "", alias = ""] = path.split(".");
      return { slot, alias };
    };
    // Gaps where the examples wrote other words (a greeting's name, a word at a place of its own), none
    // of them the place aligning found: the choice's words varied at no one place.
    const pieces = readSkeleton(
      "Hello …, booking {{booking.reference}} is … today. Please hold the keys.",
      tag,
    );
    const nowhere = { choice: undefined, fixed: [], values: new Set<number>(), tags: new Map() };
    const body = composeBody(pieces, { dropped: new Set(), choice: "choice", varying: nowhere });
    expect(body).not.toContain("{{choice}}");
    expect(body).toBe("Hello, booking {{booking.reference}} is today. Please hold the keys.");
    // Where aligning found the place, the choice is there.
    const gap = pieces.findIndex((piece, at) => piece.type === "gap" && at > 3);
    const found = { ...nowhere, choice: { from: gap, to: gap, phrases: ["confirmed", "reserved"] } };
    expect(composeBody(pieces, { dropped: new Set(), choice: "choice", varying: found })).toBe(
      "Hello, booking {{booking.reference}} is {{choice}} today. Please hold the keys.",
    );
  });

  it("offers no phrase holding anything but letters and spaces", async () => {
    const hostile = [
      "<b>late</b>",
      "late, call +49 151 2345678",
      "late via evil.example",
      "late {{guest.email}}",
      "late \u202Eetal",
    ];
    const { template, choice } = await drafted(
      (phrase, n) =>
        `Dear Guestname${n}q, booking BK-${4000 + n} will arrive ${phrase} tonight. Please hold the room.`,
      ["after midnight", "late in the evening", ...hostile],
      40,
    );
    const labels = Object.values(choice?.choices ?? {});
    expect(labels.length).toBeGreaterThanOrEqual(2);
    for (const label of labels) {
      expect(label).toMatch(/^\p{L}+(?: \p{L}+)*$/u);
      expect(scanFinds(label)).toBeUndefined();
    }
    // A phrase cut short by an identifier taken out of it ("late via …") is no phrase.
    expect(labels.join(" ")).not.toContain("via");
    expect(template?.body).not.toMatch(/evil|\+49|<|\u202E/);
  });
});

describe("the subject is a short line, not the body's first words", () => {
  it.each([
    [
      "Hi {{seller.shopName}}, please refund {{order.total}} to the buyer for order {{order.number}}, placed on {{order.placedAt}}. The item was returned.",
      "Refund to the buyer",
    ],
    [
      "The {{vehicle.model}} with plate {{vehicle.plate}} has been repaired: {{damage.part}}. Please send the invoice.",
      "The vehicle has been repaired",
    ],
    [
      "Invoice {{invoice.number}} for {{invoice.amount}} was due on {{invoice.dueOn}} and we have not been paid.",
      "Invoice was due",
    ],
    [
      "Our tenant {{tenant.name}} at {{flat.address}} reports a {{repair.issue}}.",
      "Our tenant reports a repair",
    ],
    [
      "the repair of your {{vehicle.model}} ({{vehicle.plate}}) at {{garage.name}} takes longer than planned because the paint shop is booked.",
      "The repair takes longer than planned",
    ],
    [
      "We have issued a refund of {{booking.total}} for booking {{booking.reference}} whose total was {{booking.total}}.",
      "Issued a refund",
    ],
    ["{{order.number}}.", "Message"],
  ])("%j → %j", (body, subject) => {
    expect(subjectLine(body)).toBe(subject);
  });

  it.each([
    ["Le rappel de vaccin arrive à échéance le {{visit.dueOn}}.", "Le rappel de vaccin arrive à échéance"],
    ["La factura de {{invoice.total}} vence el {{invoice.dueOn}}.", "La factura vence"],
    ["The {{vehicle.model}} is ready since the {{vehicle.readyOn}}.", "The vehicle is ready"],
  ])("%j → %j: a date or an amount after a determiner goes with it", (body, subject) => {
    const quantities = new Set(["visit.dueOn", "invoice.total", "invoice.dueOn", "vehicle.readyOn"]);
    expect(subjectLine(body, (path) => quantities.has(path))).toBe(subject);
  });

  it("never ends on a word that needs what follows, and stays one plain line of 60 characters", () => {
    const vocabulary = [
      "refund",
      "order",
      "the",
      "to",
      "for",
      "on",
      "of",
      "and",
      "a",
      "buyer",
      "parcel",
      "{{order.number}}",
      ",",
      ".",
      "Please",
      "we",
      "is",
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...vocabulary), { maxLength: 30 }), (words) => {
        const subject = subjectLine(words.join(" "));
        expect(subject.length).toBeLessThanOrEqual(60);
        expect(subject).toMatch(/^[\p{L}\p{N}' -]+$/u);
        expect(subject).not.toMatch(/ (?:the|to|for|on|of|and|a)$/i);
      }),
      { numRuns: 300, seed: 36 },
    );
  });
});

describe("drafts of the bundled history", () => {
  it("place each choice at its phrase, with whole phrases, and title each template in a short line", async () => {
    const records = historyRecords as unknown as RecordsDefinition;
    const lines = readFileSync(new URL("../../examples/data/history.jsonl", import.meta.url), "utf8")
      .split("\n")
      .filter((line) => line !== "");
    const draft = draftTemplates(records, await mineHistory(records, lines));
    const claim = draft.templates.find((template) => template.body.includes("lost parcel claim"));
    // One example says "has had no scans", the others "was …": the place takes "was" in.
    expect(claim?.body).toContain("for shipment {{shipment.tracking}} because it {{choice}}. Attach");
    const labels = Object.values(
      claim?.slots.find((slot): slot is DraftChoiceSlot => slot.kind === "choice")?.choices ?? {},
    );
    expect(labels).toEqual(
      expect.arrayContaining(["was delivered to a wrong address", "has had no scans for ten days"]),
    );
    const damage = draft.templates.find((template) => template.body.includes("the buyer reports"));
    expect(damage?.body).toContain("arrived {{choice}}. Please tell us");
    const refund = draft.templates.find((template) => template.body.includes("please refund"));
    expect(refund?.subject).toBe("Refund to the buyer");
    for (const template of draft.templates) {
      expect(template.subject ?? "").not.toMatch(/ (?:the|to|for|on|of|and|a|placed on)$/i);
      expect(template.body).not.toMatch(/\(\s*\)| [.,]|\{\{choice\}\} (?:to|the|a)\b/);
    }
  });
});

describe("any skeleton", () => {
  it("drafts a body with balanced brackets, no empty ones, no mark after a space, and only plain characters", () => {
    const parts = [
      "…",
      "⌧",
      "(",
      ")",
      "–",
      "—",
      ",",
      ".",
      ":",
      " ",
      "the",
      "to",
      "and",
      "is",
      "order",
      "ready",
      "{{order.number}}",
      "{{hidden.x}}",
      "<",
      "\u202E",
      "{",
      '"',
    ];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...parts), { maxLength: 40 }),
        fc.array(fc.array(fc.constantFrom(...parts), { maxLength: 30 }), { maxLength: 4 }),
        (skeleton, examples) => {
          const body = bodyOf(
            skeleton.join(" "),
            examples.map((example) => example.join(" ")),
          );
          // A comment is for whoever reads the template's code: never sent.
          const text = body.replace(/\{\{![^}]*\}\}/g, "").replace(/\{\{[a-z_.]+\}\}/g, "X");
          expect(text).toMatch(/^[\p{L}\p{N} .,;:!?'()\-/&%+\u2013\u2014]*$/u);
          expect(text).not.toMatch(/\(\s*\)| [.,;:!?)]|\( /);
          let depth = 0;
          for (const char of text) {
            depth += char === "(" ? 1 : char === ")" ? -1 : 0;
            expect(depth).toBeGreaterThanOrEqual(0);
          }
          expect(depth).toBe(0);
        },
      ),
      { numRuns: 400, seed: 36 },
    );
  });
});
