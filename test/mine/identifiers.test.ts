import { describe, expect, it } from "vitest";
import { z } from "zod";
import { emitCatalog } from "../../src/cli/mine-emit.js";
import type { RecordsDefinition } from "../../src/core/definition/define-records.js";
import { createCatalog, defineRecords, defineTemplate } from "../../src/index.js";
import { type CatalogDraft, configOf } from "../../src/mine/draft.js";
import { draftTemplates, mineHistory } from "../../src/mine/index.js";
import { literalIdentifiers, piecesOf, scanFinds } from "../../src/mine/literal-identifiers.js";

const records = defineRecords({
  sellers: z.object({
    id: z.string(),
    shopName: z.string(),
    email: z.email(),
    phone: z.string(),
    website: z.string(),
    helpdesk: z.string(),
  }),
  orders: z.object({ id: z.string(), number: z.string(), reference: z.string() }),
}) as unknown as RecordsDefinition;

/** A seller and an order of ticket `n`: every value differs from ticket to ticket. */
function ticket(n: number) {
  const three = String(n).padStart(3, "0");
  return {
    sellers: [
      {
        id: "s",
        shopName: `Shop ${n}x`,
        email: `s${n}@mail.example`,
        phone: `+49 151 2345${three}`,
        website: `https://shop${n}.example/help`,
        helpdesk: `help${n}@shop${n}.example`,
      },
    ],
    orders: [{ id: "o", number: `4471-${1000 + n}`, reference: `RF-${three}Q2-K9W4M-8Z3P5-L1N0` }],
  };
}

/** 40 messages of one template, the text and subject of message `n` given. */
function history(text: (n: number) => string, subject?: (n: number) => string): string[] {
  return Array.from({ length: 40 }, (_, n) =>
    JSON.stringify({
      ticketId: `T-${n}`,
      records: ticket(n),
      message: { to: `s${n}@mail.example`, text: text(n), ...(subject ? { subject: subject(n) } : {}) },
    }),
  );
}

async function mined(lines: readonly string[]) {
  const report = await mineHistory(records, lines);
  const draft = draftTemplates(records, report);
  // Every draft still makes a catalog: leaving identifiers out never breaks a template.
  createCatalog(
    records,
    draft.templates.map((template) => defineTemplate(records, configOf(records, template))),
  );
  const source = emitCatalog(draft, { file: "/project/records.ts", exportName: "records" }, "/project/c.ts", {
    history: "history.jsonl",
  });
  return { report, draft, source };
}

/** Every text a drafted template writes: subject, body, description and choice labels. */
function textsOf(draft: CatalogDraft): string[] {
  return draft.templates.flatMap((template) => [
    template.subject ?? "",
    template.body,
    template.description,
    ...template.slots.flatMap((slot) => (slot.kind === "choice" ? Object.values(slot.choices) : [])),
  ]);
}

/** No text of the draft holds an identifier, by the mining finder or by the outbound scan itself. */
function expectNoIdentifier(draft: CatalogDraft): void {
  for (const text of textsOf(draft)) {
    expect(literalIdentifiers(piecesOf(text)).found, text).toEqual([]);
    expect(scanFinds(text.replace(/\{\{[^}]*\}\}/g, " ")), text).toBeUndefined();
  }
}

const fixedIdentifiers = (n: number) =>
  `Hello Shop ${n}x, order 4471-${1000 + n} has shipped. Track it at https://track.acme-parcels.example/status?ref=web, ` +
  "call +1 555 0100 200, write to help@acme-parcels.example and quote ACME7X92KQ4410ZP3T8W.";

describe("identifiers seen in history", () => {
  it("a URL, a phone number, an e-mail address and a long id repeated across 40 messages are never template text", async () => {
    const { report, draft, source } = await mined(history(fixedIdentifiers));
    expect(draft.templates).toHaveLength(1);
    const [template] = draft.templates;
    expect(template?.body).toBe(
      "Hello {{seller.shopName}}, order {{order.number}} has shipped. Track it, call, write and quote.",
    );
    expectNoIdentifier(draft);
    for (const fragment of ["acme", "555", "0100", "x92kq", "track.", "status", "ref=web"]) {
      for (const text of textsOf(draft)) expect(text.toLowerCase()).not.toContain(fragment);
      expect(source.toLowerCase()).not.toContain(fragment);
    }
    // Listed, defanged, with the cluster and how many messages held each; the skeleton shows a mark.
    const [candidate] = report.candidates;
    expect(candidate?.identifiersLeftOut).toEqual(
      expect.arrayContaining([
        { kind: "url", text: "hxxps[:]//track[.]acme-parcels[.]example/status?ref=web", count: 40 },
        { kind: "phone", text: "+1 555 0100 200", count: 40 },
        { kind: "email", text: "help(@)acme-parcels[.]example", count: 40 },
        { kind: "id", text: "ACME…3T8W", count: 40 },
      ]),
    );
    expect(candidate?.identifiersLeftOut).toHaveLength(4);
    for (const shown of [candidate?.skeleton ?? "", ...(candidate?.examples ?? [])]) {
      expect(shown).not.toMatch(/acme|0100|ACME7X92/i);
      expect(shown).toContain("\u2327");
    }
    expect(template?.identifiersLeftOut).toBe(4);
    expect(source).toContain("4 identifier(s) seen in them left out (see the mining report)");
  });

  it.each([
    ["as written", (n: number) => `+49 151 2345${pad(n)}`, ".", "@", "-"],
    ["in Arabic-Indic digits", (n: number) => arabic(`+49 151 2345${pad(n)}`), ".", "@", "-"],
    ["with an Arabic-Indic zero for a dot", (n: number) => `+49 151 2345${pad(n)}`, "\u0660", "@", "-"],
    [
      "in Devanagari digits joined by dots",
      (n: number) => devanagari(`+49.151.2345.${pad(n)}`),
      ".",
      "@",
      "-",
    ],
    [
      "with look-alike dots and other dashes",
      (n: number) => `+49\u2010151\u20102345\u2010${pad(n)}`,
      "\u00b7",
      "@",
      "\u2013",
    ],
    [
      "in fullwidth forms, with a zero-width space and minus signs",
      (n: number) =>
        `\uff0b\uff14\uff19 \uff11\uff15\uff11 ${pad(n)}`
          .replace(/^/, "")
          .replace(` ${pad(n)}`, ` \uff12\uff13\uff14\uff15${pad(n)}`),
      "\uff0e",
      "\u200b@",
      "\u2212",
    ],
  ])("a value a record holds becomes its slot, written %s", async (_, phone, dot, at, dash) => {
    const lines = history(
      (n) =>
        `Hello Shop ${n}x, order 4471-${1000 + n} has shipped. Questions: https://shop${n}${dot}example/help or ${phone(n)}, ` +
        `help${n}${at}shop${n}.example, reference ${`RF-${pad(n)}Q2-K9W4M-8Z3P5-L1N0`.replaceAll("-", dash)}.`,
    );
    const { report, draft } = await mined(lines);
    expect(draft.templates[0]?.body).toBe(
      "Hello {{seller.shopName}}, order {{order.number}} has shipped. Questions: {{seller.website}} or {{seller.phone}}, {{seller.helpdesk}}, reference {{order.reference}}.",
    );
    expect(report.candidates[0]?.identifiersLeftOut).toEqual([]);
    expectNoIdentifier(draft);
  });
});

const pad = (n: number) => String(n).padStart(3, "0");
const arabic = (text: string) => text.replace(/\d/g, (digit) => String.fromCharCode(0x660 + Number(digit)));
const devanagari = (text: string) =>
  text.replace(/\d/g, (digit) => String.fromCharCode(0x966 + Number(digit)));

describe("identifiers in hostile shapes, no record holding them", () => {
  it.each([
    ["a phone number split over brackets and a hyphenation point", "+1 (555) 010\u20270200", ["555", "0200"]],
    ["a toll-free number split over hyphens", "1-800-555-0199", ["800", "0199"]],
    ["a URL with path, query and fragment", "https://help.acme.example/a/b?c=d#e", ["acme", "help."]],
    ["an address with a spaced at-sign", "help @ acme.example", ["acme"]],
    ["an address written out in brackets", "help [at] acme [dot] example", ["acme"]],
    [
      "a number in Arabic-Indic digits",
      "+\u0664\u0669 \u0661\u0665\u0661 \u0662\u0663\u0664\u0665\u0666\u0667\u0668",
      ["\u0664\u0669", "\u0662\u0663"],
    ],
    [
      "a number in Devanagari digits",
      "\u0966\u096e\u0966\u0966 \u0967\u0968\u0969 \u096a\u096b\u096c\u096d",
      ["\u0967\u0968\u0969"],
    ],
    [
      "an id in Arabic-Indic digits",
      "REF\u0663X\u0667Q\u0662K\u0669W\u0664M\u0668Z\u0663P\u0665L\u0661N\u0660",
      ["ref\u0663x", "\u0667q"],
    ],
    ["a host joined by a middle dot", "acme\u00b7example/help", ["acme"]],
    ["a host joined by katakana middle dots", "www\u30fbacme\u30fbexample", ["acme", "www"]],
    ["a host joined by a one-dot leader", "acme\u2024example", ["acme"]],
    ["a host joined by an Arabic-Indic zero", "acme\u0660example/help", ["acme"]],
    [
      "a URL in fullwidth letters",
      "\uff48\uff54\uff54\uff50\uff53\uff1a\uff0f\uff0f\uff41\uff43\uff4d\uff45\uff0e\uff45\uff58\uff41\uff4d\uff50\uff4c\uff45",
      ["acme", "\uff41\uff43\uff4d\uff45"],
    ],
    ["an address with a zero-width space in it", "help@\u200bacme.example", ["acme"]],
    [
      "a URL in an HTML attribute",
      '<a href="https://acme.example/help">the page</a>',
      ["acme"],
      "a href the page/a at any time.",
    ],
    ["a mailto link", "mailto:help@acme.example", ["acme", "mailto"]],
    ["a tel link", "tel:+15550100200", ["555", "tel:"]],
    ["a long number in groups", "4000 1234 5678 9010", ["4000", "9010"]],
    [
      "a long number in digits of the Arabic-Indic extended script",
      "\u06f4\u06f0\u06f0\u06f0\u06f1\u06f2\u06f3\u06f4\u06f5\u06f6\u06f7\u06f8\u06f9\u06f0\u06f1\u06f0",
      ["\u06f4\u06f0\u06f0\u06f0"],
    ],
    [
      "a UUID written with en dashes",
      "3f2a9c1e\u20137b4d\u20134e8a\u20139f0c\u20132d6b8e1a4c7f",
      ["3f2a", "4c7f"],
    ],
    ["a host that reads as one only once a symbol is dropped", "acme.\u00a4example", ["acme"]],
    [
      "a number that reads as one only once a currency sign is dropped",
      "+1 555 \u20ac 0100 200",
      ["555", "0100"],
      // The digits left out leave a place the examples wrote differently, "€" among them: said, not shown.
      "{{! Varies here }} at any time.",
      // No skeleton shows a number, so no draft can join its pieces into one: there is nothing to list.
      0,
    ],
  ] as const)(
    "%s is left out of the draft and listed",
    async (_, written, fragments, rest: string = "at any time.", listedCount: number = 1) => {
      const { report, draft, source } = await mined(
        history(
          (n) =>
            `Hello Shop ${n}x, your parcel for order 4471-${1000 + n} left today. For help use ${written} at any time.`,
        ),
      );
      expect(draft.templates[0]?.body).toBe(
        `Hello {{seller.shopName}}, your parcel for order {{order.number}} left today. For help use ${rest}`,
      );
      expectNoIdentifier(draft);
      for (const fragment of fragments) {
        for (const text of textsOf(draft)) expect(text.toLowerCase()).not.toContain(fragment);
        if (/^[\x20-\x7e]+$/.test(fragment)) expect(source.toLowerCase()).not.toContain(fragment);
      }
      // Listed once: from the messages (40 held it), or from the drafted text when only drafting made it one.
      const listed = [...(report.candidates[0]?.identifiersLeftOut ?? []), ...draft.identifiersLeftOut];
      expect(listed).toHaveLength(listedCount);
      if (listedCount === 0) return;
      expect(listed[0]?.count).toBe(draft.identifiersLeftOut.length === 0 ? 40 : 1);
      expect(listed[0]?.text).not.toMatch(/[a-z0-9]\.[a-z]|:\/\/|@[a-z]|[\u200b\uff00-\uffef]/i);
    },
  );

  it("shows a number longer than any phone number, and an id, only by their ends", async () => {
    const { report } = await mined(
      history(
        (n) =>
          `Hello Shop ${n}x, order 4471-${1000 + n} has shipped, paid with 4000 1234 5678 9010 under key sk_live_51HxQ2LKz8Wq7Tn.`,
      ),
    );
    expect(report.candidates[0]?.identifiersLeftOut).toEqual([
      { kind: "phone", text: "4000\u20269010", count: 40 },
      { kind: "id", text: "sk_l\u2026q7Tn", count: 40 },
    ]);
  });

  it("an identifier written only in the messages' subjects is left out too", async () => {
    const { report, draft } = await mined(
      history(
        (n) => `Hello Shop ${n}x, order 4471-${1000 + n} has shipped today and is on its way to the buyer.`,
        () => "Shipping update: questions to +1 555 0100 200",
      ),
    );
    expectNoIdentifier(draft);
    for (const text of textsOf(draft)) expect(text).not.toMatch(/555|0100/);
    expect(report.candidates[0]?.identifiersLeftOut).toEqual([
      { kind: "phone", text: "+1 555 0100 200", count: 40 },
    ]);
  });

  it("keeps at most 32 distinct identifiers a cluster, counting the rest by kind", async () => {
    const { report } = await mined(
      history(
        (n) =>
          `Hello Shop ${n}x, order 4471-${1000 + n} has shipped. Track it at https://t${n}.acme.example today.`,
      ),
    );
    const listed = report.candidates[0]?.identifiersLeftOut ?? [];
    expect(listed[0]).toEqual({ kind: "url", text: "(others)", count: 8 });
    expect(listed).toHaveLength(10);
    expect(listed.slice(1).every((entry) => entry.count === 1 && entry.text.includes("[.]"))).toBe(true);
  });
});

describe("id-shaped tokens in written text", () => {
  it.each([
    ["twenty characters of letters and digits", "key A1b2C3d4E5f6G7h8J9k0 here", [4, 24]],
    ["twenty characters with an en dash for a hyphen", "key A1b2C3d4E5\u2013f6G7h8J9k here", [4, 24]],
    [
      "twenty characters with Devanagari digits",
      "key A\u0967b\u0968C\u0969d\u096aE\u096bf\u096cG\u096dh\u096eJ\u096fk\u0966 here",
      [4, 24],
    ],
    ["a value's place inside the run", "key A1b2C3d4{{order.id}}E5f6G7h8J9 here", [4, 34]],
  ] as const)("finds %s", (_, text, [start, end]) => {
    expect(literalIdentifiers(piecesOf(text)).found).toEqual([{ kind: "id", start, end }]);
  });

  it("finds no id in a run of nineteen characters", () => {
    expect(literalIdentifiers(piecesOf("key A1b2C3d4E5f6G7h8J9k here")).found).toEqual([]);
  });

  it("finds a twenty-character id wherever it stands after shorter runs, and none of nineteen", () => {
    for (let at = 0; at < 60; at++) {
      const before = `${"abcdefghijklmnopqr ".repeat(4).slice(0, at)} `;
      expect(literalIdentifiers(piecesOf(`${before}A1b2C3d4E5f6G7h8J9k0 end`)).found).toEqual([
        { kind: "id", start: at + 1, end: at + 21 },
      ]);
      expect(literalIdentifiers(piecesOf(`${before}A1b2C3d4E5f6G7h8J9k end`)).found).toEqual([]);
    }
  });
});
