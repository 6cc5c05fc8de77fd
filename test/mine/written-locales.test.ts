import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineRecords } from "../../src/index.js";
import { readFirst } from "../../src/mine/first-lines.js";
import { draftTemplates, mineHistory } from "../../src/mine/index.js";
import { localesWritten } from "../../src/mine/written-locales.js";

const italianDays = ["3 marzo 2026", "14 aprile 2026", "2 giugno 2026", "30 settembre 2026"];

describe("localesWritten", () => {
  it("reads the language a history writes its month names in, from Intl's data", () => {
    const texts = italianDays.map((day) => `La sua prenotazione per il ${day} è confermata.`);
    expect(localesWritten(texts)).toEqual(["it"]);
    expect(localesWritten(["Termin am 3. März 2026", "Termin am 4. Dezember 2026"])).toEqual(["de"]);
    expect(
      localesWritten(["Wizyta 3 marca 2026", "Wizyta 9 października 2026", "Wizyta 1 grudnia 2026"]),
    ).toEqual(["pl"]);
    expect(localesWritten(["ご予約は2026年3月2日です", "ご予約は2026年4月9日です"])).toEqual(["ja"]);
  });

  it("adds nothing for English, for a minority's dates, or for text with no dates", () => {
    expect(localesWritten(["Your visit on 3 March 2026", "Due on August 4, 2026"])).toEqual([]);
    const mostlyEnglish = [
      ...Array.from({ length: 9 }, (_, at) => `Your visit on ${at + 1} May 2026 is confirmed.`),
      "Ihr Termin am 3. März 2026",
    ];
    expect(localesWritten(mostlyEnglish)).toEqual([]);
    expect(localesWritten(["", "hello", "🙂".repeat(1000), "marzo"])).toEqual([]);
  });
});

describe("readFirst", () => {
  it("gives the first lines and the whole stream again, from arrays, generators and async streams", async () => {
    const lines = ["a", "b", "c", "d"];
    function* sync() {
      yield* lines;
    }
    async function* later() {
      yield* lines;
    }
    for (const source of [lines, sync(), later()]) {
      const { first, all } = await readFirst(source, 2);
      expect(first).toEqual(["a", "b"]);
      const seen: string[] = [];
      for await (const line of all) seen.push(line);
      expect(seen).toEqual(lines);
    }
    const short = await readFirst(sync(), 10);
    expect(short.first).toEqual(lines);
  });

  it("closes the source when the reader stops early", async () => {
    let closed = false;
    function* source() {
      try {
        yield* ["a", "b", "c", "d"];
      } finally {
        closed = true;
      }
    }
    const { all } = await readFirst(source(), 1);
    for (const line of all as Iterable<string>) if (line === "b") break;
    expect(closed).toBe(true);
  });
});

describe("mining a history in a language its records do not name", () => {
  const records = defineRecords({
    clienti: z.object({ id: z.string(), email: z.string() }),
    prenotazioni: z.object({ id: z.string(), clienteId: z.string(), data: z.string() }),
  });
  const months = ["marzo", "aprile", "maggio", "giugno"];
  const lines = Array.from({ length: 40 }, (_, at) => {
    const day = 1 + (at % 28);
    const month = at % 4;
    return JSON.stringify({
      ticketId: `T-${at}`,
      records: {
        clienti: [{ id: `C-${at}`, email: `c${at}@x.example` }],
        prenotazioni: [
          { id: `P-${at}`, clienteId: `C-${at}`, data: `2026-0${month + 3}-${String(day).padStart(2, "0")}` },
        ],
      },
      message: {
        to: `c${at}@x.example`,
        text: `La sua prenotazione per il ${day} ${months[month]} 2026 è confermata.`,
      },
    });
  });

  it("looks for its dates in that language and says so", async () => {
    const report = await mineHistory(records, lines);
    expect(report.locales).toEqual(["it"]);
    expect(report.candidates[0]?.skeleton).toBe(
      "La sua prenotazione per il {{prenotazioni.data}} è confermata.",
    );
  });

  it("is the history's language: drafts write its dates in its order of digits, no month names", async () => {
    const report = await mineHistory(records, lines);
    expect(report.language).toBe("it");
    const [template] = draftTemplates(records, report).templates;
    const shown = JSON.stringify(template?.slots);
    expect(shown).toContain('"pattern":"dd/MM/yyyy"');
    expect(shown).not.toContain("MMMM");
  });

  it("a language most records name is the history's language too; English is none", async () => {
    const named = lines.map((line) => {
      const parsed = JSON.parse(line);
      parsed.records.clienti[0].lingua = "de-DE";
      parsed.message.text = parsed.message.text.replace(/\d+ \p{L}+ 2026/u, "2026-03-01");
      return JSON.stringify(parsed);
    });
    const withLanguage = defineRecords({
      clienti: z.object({ id: z.string(), email: z.string(), lingua: z.string() }),
      prenotazioni: z.object({ id: z.string(), clienteId: z.string(), data: z.string() }),
    });
    expect((await mineHistory(withLanguage, named)).language).toBe("de");
    const english = named.map((line) => line.replace('"de-DE"', '"en-GB"'));
    expect((await mineHistory(withLanguage, english)).language).toBeUndefined();
    // A field the definition does not declare is never read, by masking nor here.
    expect((await mineHistory(records, named)).language).toBeUndefined();
  });

  it("a language only an undeclared field names is still read from the text, as masking would not read it", async () => {
    const undeclared = lines.map((line) => {
      const parsed = JSON.parse(line);
      parsed.records.clienti[0].lingua = "it-IT";
      return JSON.stringify(parsed);
    });
    const report = await mineHistory(records, undeclared);
    expect(report.locales).toEqual(["it"]);
    expect(report.candidates[0]?.skeleton).toContain("{{prenotazioni.data}}");
  });

  it("does not without inference", async () => {
    const report = await mineHistory(records, lines, { inferLocales: false });
    expect(report.locales).toEqual([]);
    expect(report.candidates[0]?.skeleton).not.toContain("{{prenotazioni.data}}");
  });
});
