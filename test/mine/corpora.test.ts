import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import {
  type CorpusLine,
  type CorpusOptions,
  corpusDomains,
  generateCorpus,
  noVariation,
  onlyVariations,
  trueEscalationShare,
  trueGroup,
  type VariationKind,
  variationKinds,
} from "../fixtures/corpora/corpus.js";
import { writtenForms } from "../fixtures/corpora/written-values.js";

type Row = Readonly<Record<string, unknown>>;

function lines(options: CorpusOptions): CorpusLine[] {
  return [...generateCorpus(options).lines()];
}

function recordOf(line: CorpusLine, collection: string): Row {
  const id = line.focus[collection];
  const found = line.line.records[collection]?.find((row) => row.id === id);
  if (found === undefined) throw new Error(`line ${line.line.ticketId}: no ${collection} record ${id}`);
  return found;
}

/** The template's text filled with this line's values and choice: what is written with nothing varied. */
function filled(text: string, line: CorpusLine): string {
  return text
    .replace(/\{\{choice\}\}/g, () => line.choices[0] ?? "")
    .replace(/\{\{([a-z_]+\.[A-Za-z]+)\}\}/g, (_, field: string) => line.values[field] ?? "");
}

/** The address a recipient names, read as a mail client reads it. */
function bareAddress(to: string): string {
  const bracketed = /<([^>]+)>\s*$/.exec(to);
  const address = bracketed?.[1] ?? to.replace(/^mailto:/i, "");
  return address.toLowerCase();
}

const everything = { style: "mail", languages: ["en", "de"] } as const;

// The loops below assert on every line, record and value of thousands of lines. A check that holds costs
// a comparison here; only one that fails goes through expect (an expect call costs far more), which
// reports it as it would have.
function is(actual: unknown, expected: unknown, message?: string): void {
  if (!Object.is(actual, expected)) expect(actual, message).toBe(expected);
}

function sameList(actual: readonly unknown[], expected: readonly unknown[]): void {
  if (actual.length !== expected.length || actual.some((item, index) => !Object.is(item, expected[index])))
    expect(actual).toEqual(expected);
}

function contains(whole: string | readonly string[] | undefined, part: string): void {
  if (whole?.includes(part) !== true) expect(whole).toContain(part);
}

function doesNotMatch(text: string, pattern: RegExp): void {
  if (pattern.test(text)) expect(text).not.toMatch(pattern);
}

/** Evidence of a kind in the text itself, where a kind leaves a mark that can be seen without the truth. */
const marks: Partial<Record<VariationKind, (line: CorpusLine) => boolean>> = {
  emoji: (line) => /\p{Extended_Pictographic}/u.test(line.line.message.text),
  "quoted-replies": (line) =>
    /^> |^-----(Original Message|Ursprüngliche Nachricht)-----$|^-{10} (Forwarded message|Weitergeleitete Nachricht) -{9}$/m.test(
      line.line.message.text,
    ),
  signatures: (line) => /^--\s*$|iPhone|Outlook (for|für) Android|^T \+\d/m.test(line.line.message.text),
  "team-line": (line) => /(support team|Serviceteam) · /.test(line.line.message.text),
  "recipient-forms": (line) => /[<A-Z]|mailto:/.test(line.line.message.to),
  // Two spaces inside a line, a space ending a line other than the "-- " signature delimiter, or CRLF.
  whitespace: (line) => /\S {2}\S|[^-\s] $|\r\n/m.test(line.line.message.text),
};

describe("generated message corpora", () => {
  it("gives the same lines for the same seed, other lines for another, and builds them as they are read", () => {
    const options = { domain: "travel", messages: 300, seed: 11, ...everything } as const;
    const firstLines = lines(options);
    const first = JSON.stringify(firstLines);
    const corpus = generateCorpus(options);
    expect(JSON.stringify([...corpus.lines()])).toBe(first);
    expect(JSON.stringify([...corpus.lines()])).toBe(first);
    expect(JSON.stringify(lines({ ...options, seed: 12 }))).not.toBe(first);
    // A million lines are read one at a time: asking for the first builds only the first.
    const huge = generateCorpus({ ...options, messages: 1_000_000 }).lines();
    const head = huge.next();
    expect(head.done).toBe(false);
    expect(JSON.stringify(head.value)).toBe(JSON.stringify(firstLines[0]));
  });

  it.each(corpusDomains)(
    "%s: its records pass the domain's schema, and keys point at records of the ticket",
    (domain) => {
      const corpus = generateCorpus({ domain, messages: 300, seed: 3 });
      let several = 0;
      let tickets = 0;
      for (const line of corpus.lines()) {
        tickets++;
        const records = line.line.records;
        sameList(Object.keys(records).sort(), [...corpus.records.names].sort());
        for (const [collection, rows] of Object.entries(records)) {
          const schema = corpus.records.collections[collection] as {
            safeParse: (v: unknown) => { success: boolean };
          };
          for (const row of rows) is(schema.safeParse(row).success, true, `${collection} ${String(row.id)}`);
          is(new Set(rows.map((row) => row.id)).size, rows.length);
        }
        if (Object.values(records).filter((rows) => rows.length >= 2).length >= 2) several++;
        for (const [key, target] of Object.entries(corpus.joins)) {
          const [collection, field] = key.split(".") as [string, string];
          const ids = new Set(records[target]?.map((row) => row.id));
          for (const row of records[collection] ?? [])
            is(ids.has(row[field]), true, `${key} ${String(row[field])}`);
          // The records a message is about belong together.
          is(recordOf(line, collection)[field], line.focus[target]);
        }
      }
      expect(several / tickets).toBeGreaterThan(0.5);
    },
  );

  it.each(corpusDomains)(
    "%s: 5 to 8 templates, two sharing a pool, one that moves money or cancels",
    (domain) => {
      const { templates } = generateCorpus({ domain, messages: 0, languages: ["en", "de"] });
      const english = templates.filter((template) => template.language === "en");
      expect(english.length).toBeGreaterThanOrEqual(5);
      expect(english.length).toBeLessThanOrEqual(8);
      const pools = english.map((template) => template.pool);
      expect(new Set(pools).size).toBeLessThan(pools.length);
      expect(english.some((template) => template.effect !== "informational")).toBe(true);
      for (const twin of templates.filter((template) => template.language === "de")) {
        const original = english.find((template) => template.id === twin.twinOf);
        expect(original?.fields.slice().sort()).toEqual(twin.fields.slice().sort());
        expect(twin.id).not.toBe(original?.id);
      }
    },
  );

  it.each(corpusDomains)("%s has hard negatives: two templates that differ in a few words", (domain) => {
    const words = (text: string) =>
      new Set(
        text
          .replace(/\{\{[^}]+\}\}/g, " ")
          .toLowerCase()
          .match(/\p{L}+/gu),
      );
    const templates = generateCorpus({ domain, messages: 0 }).templates;
    const closest = Math.min(
      ...templates.flatMap((a, index) =>
        templates.slice(index + 1).map((b) => {
          const [x, y] = [words(a.text), words(b.text)];
          return [...x].filter((w) => !y.has(w)).length + [...y].filter((w) => !x.has(w)).length;
        }),
      ),
    );
    expect(closest).toBeLessThanOrEqual(8);
  });

  it.each(corpusDomains)(
    "%s: with every variation off, a template's message is exactly its text",
    (domain) => {
      for (const style of ["plain", "mail"] as const) {
        const corpus = generateCorpus({ domain, style, messages: 400, seed: 5, variations: noVariation });
        const templates = new Map(corpus.templates.map((template) => [template.id, template]));
        let checked = 0;
        for (const line of corpus.lines()) {
          sameList(line.variations, []);
          is(line.quoted, false);
          if (line.template === undefined) continue;
          const template = templates.get(line.template);
          if (template === undefined) throw new Error(`no template ${line.template}`);
          const { message } = line.line;
          is(message.text, `${template.greeting}\n\n${filled(template.text, line)}\n\n${template.signOff}`);
          if (style === "mail" && template.subject !== undefined)
            is(message.subject, filled(template.subject, line));
          else is(message.subject, undefined);
          if (!line.newRecipient) {
            const address = String(recordOf(line, template.audience)[template.recipientField]);
            is(message.to, template.recipientField === "phone" ? address.replace(/\s/g, "") : address);
          }
          checked++;
        }
        expect(checked).toBeGreaterThan(250);
      }
    },
  );

  it.each(variationKinds)("%s appears when switched on, alone, and changes only what it says", (kind) => {
    const shown = new Set<string>();
    for (const domain of corpusDomains) {
      const corpus = generateCorpus({
        domain,
        messages: 160,
        seed: 9,
        ...everything,
        variations: onlyVariations(kind),
      });
      const templates = new Map(corpus.templates.map((template) => [template.id, template]));
      for (const line of corpus.lines()) {
        is(
          line.variations.every((each) => each === kind),
          true,
        );
        if (line.variations.includes(kind)) shown.add(domain);
        const mark = marks[kind];
        if (mark !== undefined) is(mark(line), line.variations.includes(kind), line.line.message.text);
        const template = line.template === undefined ? undefined : templates.get(line.template);
        // Unflagged English lines are written exactly as their template (German tickets may borrow pools).
        if (template === undefined || line.variations.length > 0 || line.language !== template.language)
          continue;
        is(
          line.line.message.text,
          `${template.greeting}\n\n${filled(template.text, line)}\n\n${template.signOff}`,
        );
      }
    }
    expect([...shown].sort()).toEqual([...corpusDomains].sort());
  });

  it.each(variationKinds)("%s never appears when switched off, all others on", (kind) => {
    for (const domain of corpusDomains) {
      for (const line of generateCorpus({
        domain,
        messages: 160,
        seed: 2,
        ...everything,
        variations: { [kind]: false },
      }).lines()) {
        if (line.variations.includes(kind)) expect(line.variations).not.toContain(kind);
        const mark = marks[kind];
        if (mark !== undefined) is(mark(line), false, line.line.message.text);
      }
    }
  });

  it("writes values unvaried when value formats are off, and in their other forms when on", () => {
    for (const domain of corpusDomains) {
      const off = generateCorpus({
        domain,
        messages: 300,
        seed: 4,
        languages: ["en", "de"],
        variations: { "value-formats": false },
      });
      const on = generateCorpus({ domain, messages: 300, seed: 4, languages: ["en", "de"] });
      for (const [corpus, varied] of [
        [off, false],
        [on, true],
      ] as const) {
        let other = 0;
        for (const line of corpus.lines()) {
          for (const [field, text] of Object.entries(line.values)) {
            const [collection, name] = field.split(".") as [string, string];
            const record = recordOf(line, collection);
            const forms = writtenForms(corpus.kinds[field] ?? "text", record[name], record, line.language);
            contains(forms, text);
            if (text !== forms[0]) other++;
          }
        }
        if (varied) expect(other).toBeGreaterThan(0);
        else expect(other).toBe(0);
      }
    }
  });

  it.each(corpusDomains)("%s: every template's message holds its records' values as written", (domain) => {
    const corpus = generateCorpus({ domain, messages: 500, seed: 8, ...everything });
    const templates = new Map(corpus.templates.map((template) => [template.id, template]));
    for (const line of corpus.lines()) {
      if (line.template === undefined) {
        if (Object.keys(line.values).length > 0) expect(line.values).toEqual({});
        continue;
      }
      const template = templates.get(line.template);
      sameList(Object.keys(line.values).sort(), [...(template?.fields ?? [])].sort());
      for (const text of Object.values(line.values)) contains(line.line.message.text, text);
      for (const choice of line.choices) contains(template?.choices.flat(), choice);
      if (line.choices.length !== (template?.choices.length ?? 0))
        expect(line.choices).toHaveLength(template?.choices.length ?? 0);
    }
  });

  it("holds the values that collide: an amount two fields hold, phones with +, ISO dates and timestamps, times with an en dash", () => {
    for (const domain of corpusDomains) {
      let same = 0;
      const all = lines({ domain, messages: 300, seed: 6 });
      for (const line of all) {
        const numbers = Object.keys(line.focus).flatMap((collection) =>
          Object.values(recordOf(line, collection)).filter((value) => typeof value === "number"),
        );
        if (new Set(numbers).size < numbers.length) same++;
        for (const rows of Object.values(line.line.records)) {
          for (const row of rows)
            if (typeof row.phone === "string" && !/^\+\d/.test(row.phone)) expect(row.phone).toMatch(/^\+\d/);
        }
      }
      expect(same, domain).toBeGreaterThan(50);
      const text = JSON.stringify(all.map((line) => line.line.records));
      expect(text).toMatch(/"\d{4}-\d{2}-\d{2}"/);
      expect(text).toMatch(/"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z"/);
    }
    const times = lines({ domain: "rentals", messages: 300, seed: 6 }).filter((line) =>
      /\b\d{1,2}:\d{2}–\d{1,2}:\d{2}\b/.test(line.line.message.text),
    );
    expect(times.length).toBeGreaterThan(10);
  });

  it("keeps the shares of free-form messages and new recipients, and the escalation share follows from them", () => {
    const all = lines({
      domain: "insurance",
      messages: 4000,
      seed: 21,
      freeFormShare: 0.2,
      newRecipientShare: 0.08,
    });
    const free = all.filter((line) => line.template === undefined).length / all.length;
    const fresh = all.filter((line) => line.newRecipient).length / all.length;
    expect(Math.abs(free - 0.2)).toBeLessThan(0.025);
    expect(Math.abs(fresh - 0.08)).toBeLessThan(0.02);
    const either = all.filter((line) => line.template === undefined || line.newRecipient).length / all.length;
    expect(trueEscalationShare(all)).toBe(either);
    expect(Math.abs(either - (1 - 0.8 * 0.92))).toBeLessThan(0.03);
    expect(trueEscalationShare([])).toBe(0);
    expect(
      trueEscalationShare(lines({ domain: "travel", messages: 300, freeFormShare: 0, newRecipientShare: 0 })),
    ).toBe(0);
  });

  it("uses templates as a real history does, a few often and some rarely, or evenly when asked", () => {
    const count = (mix: "skewed" | "uniform") => {
      const corpus = generateCorpus({
        domain: "car-repair",
        messages: 3000,
        seed: 31,
        templateMix: mix,
        freeFormShare: 0,
      });
      const counts = new Map(corpus.templates.map((template) => [template.id, 0]));
      for (const line of corpus.lines())
        counts.set(line.template ?? "", (counts.get(line.template ?? "") ?? 0) + 1);
      return corpus.templates.map((template) => counts.get(template.id) ?? 0);
    };
    const skewed = count("skewed");
    expect((skewed[0] ?? 0) / Math.min(...skewed)).toBeGreaterThan(2.5);
    expect(Math.min(...skewed)).toBeGreaterThan(100);
    const uniform = count("uniform");
    expect(Math.max(...uniform) / Math.min(...uniform)).toBeLessThan(1.3);
    expect(() => generateCorpus({ domain: "travel", messages: 1, templateMix: "zipf" as never })).toThrow(
      /templateMix is "skewed" or "uniform"/,
    );
  });

  it("sends to records' addresses however written, and new recipients to addresses no record holds", () => {
    let forms = 0;
    for (const domain of corpusDomains) {
      const corpus = generateCorpus({
        domain,
        messages: 500,
        seed: 13,
        style: "mail",
        newRecipientShare: 0.1,
      });
      const templates = new Map(corpus.templates.map((template) => [template.id, template]));
      for (const line of corpus.lines()) {
        const template = templates.get(line.template ?? "");
        const held = Object.values(line.line.records).flatMap((rows) =>
          rows.flatMap((row) =>
            Object.values(row).filter((value): value is string => typeof value === "string"),
          ),
        );
        const address = bareAddress(line.line.message.to);
        const known = held.some(
          (value) =>
            value.toLowerCase() === address || value.replace(/\s/g, "") === address.replace(/\s/g, ""),
        );
        is(known, !line.newRecipient, line.line.message.to);
        if (template !== undefined && !line.newRecipient) {
          const record = String(recordOf(line, template.audience)[template.recipientField]);
          is(address.replace(/\s/g, ""), record.toLowerCase().replace(/\s/g, ""));
          if (address !== line.line.message.to) forms++;
        }
      }
    }
    expect(forms).toBeGreaterThan(50);
  });

  it("writes German twins, German dates and German quote headers only with German among the languages", () => {
    const germanDate =
      /\b\d{1,2}\. (Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember) \d{4}\b/;
    for (const domain of corpusDomains) {
      const english = generateCorpus({ domain, messages: 400, seed: 17, style: "mail" });
      expect(english.templates.every((template) => template.language === "en")).toBe(true);
      for (const line of english.lines()) {
        is(line.language, "en");
        doesNotMatch(line.template ?? "", /_de$/);
        doesNotMatch(line.line.message.text, germanDate);
        doesNotMatch(line.line.message.text, /schrieb|Ursprüngliche Nachricht|Viele Grüße/);
      }
      const both = generateCorpus({
        domain,
        messages: 400,
        seed: 17,
        style: "mail",
        languages: ["en", "de"],
      });
      const twins = new Set(
        both.templates.filter((template) => template.twinOf !== undefined).map((t) => t.id),
      );
      expect(twins.size).toBeGreaterThanOrEqual(2);
      const all = [...both.lines()];
      const used = all.filter((line) => twins.has(line.template ?? ""));
      expect(used.length).toBeGreaterThan(20);
      expect(used.every((line) => line.language === "de")).toBe(true);
      expect(all.some((line) => germanDate.test(line.line.message.text))).toBe(true);
      expect(all.some((line) => /^Am .* schrieb .*:$/m.test(line.line.message.text))).toBe(true);
    }
  });

  it("writes a mail export: subjects, reply prefixes on quoted replies, client quote headers, nested quotes", () => {
    const all = corpusDomains.flatMap((domain) =>
      lines({ domain, messages: 400, seed: 19, style: "mail", languages: ["en", "de"] }),
    );
    const email = all.filter((line) => line.line.message.channel === "email");
    expect(email.every((line) => typeof line.line.message.subject === "string")).toBe(true);
    for (const line of email) {
      const subject = line.line.message.subject ?? "";
      is(/^(Re|RE|AW|Fwd|FW|WG): /.test(subject), line.quoted);
      // A forward carries the whole earlier message under the forward header, a reply quotes it.
      const forward = /^-{10} (Forwarded message|Weitergeleitete Nachricht) -{9}$/m.test(
        line.line.message.text,
      );
      is(forward, /^(Fwd|FW|WG): /.test(subject), subject);
    }
    const texts = all.map((line) => line.line.message.text).join("\n");
    for (const header of [
      /^On \w{3}, \d{1,2} \w{3} \d{4} at \d{2}:\d{2}, .+ <[^>]+> wrote:$/m,
      /^Am \d{2}\.\d{2}\.\d{4} um \d{2}:\d{2} schrieb .+ <[^>]+>:$/m,
      /^-----Original Message-----\nFrom: .+\nSent: /m,
      /^-----Ursprüngliche Nachricht-----\nVon: .+\nGesendet: /m,
      /^> > /m,
      /^---------- Forwarded message ---------\nFrom: .+ <[^>]+>\nDate: /m,
      /^---------- Weitergeleitete Nachricht ---------\nVon: .+ <[^>]+>\nDatum: /m,
      /^-- $/m,
      /^Sent from my iPhone$/m,
      /^Von meinem iPhone gesendet$/m,
    ]) {
      expect(texts).toMatch(header);
    }
    const share = all.filter((line) => line.quoted).length / email.length;
    expect(share).toBeGreaterThan(0.2);
    expect(lines({ domain: "travel", messages: 200, style: "plain" }).some((line) => line.quoted)).toBe(
      false,
    );
  });

  it("writes free-form messages that share little with one another", () => {
    const words = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu));
    for (const domain of corpusDomains) {
      const free = lines({ domain, messages: 600, seed: 23, freeFormShare: 0.3, variations: noVariation })
        .filter((line) => line.template === undefined)
        .slice(0, 120)
        .map((line) => words(line.line.message.text));
      let sum = 0;
      let pairs = 0;
      for (const [index, a] of free.entries()) {
        for (const b of free.slice(index + 1)) {
          const shared = [...a].filter((word) => b.has(word)).length;
          const jaccard = shared / (a.size + b.size - shared);
          if (!(jaccard < 0.7)) expect(jaccard).toBeLessThan(0.7);
          sum += jaccard;
          pairs++;
        }
      }
      expect(sum / pairs).toBeLessThan(0.3);
    }
  });

  it("refuses options it cannot honour, naming the option and what to give", () => {
    expect(() => generateCorpus({ domain: "marketplace" as never, messages: 1 })).toThrow(
      /domain "marketplace".*car-repair/,
    );
    expect(() => generateCorpus({ domain: "travel", messages: -1 })).toThrow(
      /messages must be a whole number/,
    );
    expect(() => generateCorpus({ domain: "travel", messages: 1.5 })).toThrow(/messages/);
    expect(() => generateCorpus({ domain: "travel", messages: 1, freeFormShare: 2 })).toThrow(
      /freeFormShare .* between 0 and 1/,
    );
    expect(() => generateCorpus({ domain: "travel", messages: 1, newRecipientShare: Number.NaN })).toThrow(
      /newRecipientShare/,
    );
    expect(() =>
      generateCorpus({ domain: "travel", messages: 1, variations: { tpyos: true } as never }),
    ).toThrow(/"tpyos" is no variation kind/);
    expect(() => generateCorpus({ domain: "travel", messages: 1, variations: { typos: 3 } })).toThrow(
      /variations.typos/,
    );
    expect(() => generateCorpus({ domain: "travel", messages: 1, seed: 1.5 })).toThrow(
      /seed must be a whole number/,
    );
    expect(() => generateCorpus({ domain: "travel", messages: 1, languages: ["fr"] as never })).toThrow(
      /languages are "en" and "de", not "fr"/,
    );
    expect(() => generateCorpus({ domain: "travel", messages: 1, languages: [] })).toThrow(/languages/);
    const german = lines({ domain: "insurance", messages: 100, languages: ["de"] });
    expect(german.every((line) => line.language === "de")).toBe(true);
  });

  it("writes a corpus to files for a benchmark: the same lines, their truth and the templates", async () => {
    const folder = await mkdtemp(join(tmpdir(), "corpus-"));
    try {
      const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
      const script = fileURLToPath(new URL("../fixtures/corpora/write-corpus.ts", import.meta.url));
      const argv = [
        "--domain",
        "travel",
        "--style",
        "mail",
        "--messages",
        "60",
        "--seed",
        "4",
        "--languages",
        "en,de",
      ];
      await promisify(execFile)(process.execPath, ["--import", tsx, script, ...argv, "--out", folder]);
      const expected = lines({
        domain: "travel",
        style: "mail",
        messages: 60,
        seed: 4,
        languages: ["en", "de"],
      });
      const history = (await readFile(join(folder, "history.jsonl"), "utf8")).trimEnd().split("\n");
      expect(history).toEqual(expected.map((line) => JSON.stringify(line.line)));
      const truth = (await readFile(join(folder, "truth.jsonl"), "utf8"))
        .trimEnd()
        .split("\n")
        .map((text) => JSON.parse(text));
      expect(truth.map((each) => each.group)).toEqual(expected.map(trueGroup));
      expect(new Set(truth.filter((each) => each.template === null).map((each) => each.group)).size).toBe(
        expected.filter((line) => line.template === undefined).length,
      );
      const templates = JSON.parse(await readFile(join(folder, "templates.json"), "utf8"));
      expect(templates.map((template: { id: string }) => template.id)).toContain("flight_schedule_change_de");
      await expect(
        promisify(execFile)(process.execPath, [
          "--import",
          tsx,
          script,
          "--domain",
          "marketplace",
          "--out",
          folder,
        ]),
      ).rejects.toThrow(/--domain is one of car-repair/);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
