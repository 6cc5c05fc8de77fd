import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { historyLines } from "../../src/mine/history-lines.js";
import { hostileStrings } from "../../src/testing/index.js";
import { typecheck } from "./mine-typecheck.js";
import { cli } from "./run.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const corpusModule = join(root, "examples/data/history-corpus.ts");
const bundledHistory = join(root, "examples/data/history.jsonl");
// Inside the project (scratch/ is ignored by git), so emitted catalogs resolve "formletter" and zod as
// a team's own files do, through the project's tsconfig.
let directory: string;

let hostile: Awaited<ReturnType<typeof emitHostile>>;

// The hostile history is mined first, so one program type-checks both catalogs the file emits (building
// a program reads the types of the sources, which takes most of a check).
beforeAll(async () => {
  mkdirSync(join(root, "scratch"), { recursive: true });
  directory = mkdtempSync(join(root, "scratch", "mine-cli-"));
  hostile = await emitHostile();
}, 120_000);

/** The type errors of an emitted catalog, from the one program of all of them. */
let typeErrors: string[] | undefined;
function compileErrors(file: string): string[] {
  typeErrors ??= typecheck([join(directory, "templates.ts"), hostile.catalogFile]);
  return typeErrors.filter((error) => error.startsWith(`${file}:`));
}

afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

function write(name: string, text: string): string {
  const file = join(directory, name);
  writeFileSync(file, text);
  return file;
}

/** A records module exporting `records`, defined with the collections given as source. */
function recordsModuleOf(name: string, collections: string): string {
  return write(
    name,
    `import { defineRecords } from "formletter";\nimport { z } from "zod";\nexport const records = defineRecords({\n  ${collections}\n});\n`,
  );
}

/** Every record value of a history file, walked from its lines. */
function recordValues(history: string): string[] {
  const values = new Set<string>();
  const visit = (value: unknown) => {
    if (typeof value === "string") values.add(value);
    else if (typeof value === "number") values.add(String(value));
    else if (typeof value === "object" && value !== null)
      for (const inner of Object.values(value)) visit(inner);
  };
  for (const line of readFileSync(history, "utf8").split("\n")) {
    if (line.trim() !== "") visit((JSON.parse(line) as { records: unknown }).records);
  }
  return [...values];
}

// Values long enough to be masked (the kit looks for values of 3 characters or more) and short
// enough to fit the message text.
const values = hostileStrings.filter((value) => value.trim().length >= 3 && value.length < 1000);
// The same in every message, so its words become template text: nothing in it may break the literal.
const fixed =
  'your parcel ships today </script><script>alert(1)</script> "; process.exit(1); // ` $' +
  "{globalThis} */ {{to}} {{{body}}} {{#x}}hidden{{/x}} \u202Eevil\u2028\u2029 {{person.constructor}} {{ghost.name}} \\u0022";

/** `formletter mine` on a history whose records and texts are hostile strings: what it wrote. */
async function emitHostile() {
  const recordsModule = recordsModuleOf(
    "hostile-records.ts",
    `people: z.object({ id: z.string(), name: z.string(), email: z.email() }),
  orders: z.object({ id: z.string(), number: z.string(), note: z.string() }),`,
  );
  const lines: string[] = [];
  for (let round = 0; round < 2; round++) {
    for (const [n, value] of values.entries()) {
      const other = values[(n + 7) % values.length] as string;
      const email = `p${round}x${n}@mail.example`;
      lines.push(
        JSON.stringify({
          ticketId: `T-${round}-${n}`,
          records: {
            people: [{ id: `p${n}`, name: value, email }],
            orders: [{ id: `o${n}`, number: `${other} ${n}`, note: other }],
          },
          message: {
            to: email,
            text: `Dear ${value}, ${fixed} for order ${other} ${n} Kind regards the team ${values[(n * 3) % values.length]}`,
          },
          at: 1_700_000_000_000 + (round * values.length + n) * 60_000,
        }),
      );
    }
  }
  const history = write("hostile.jsonl", lines.join("\n"));
  const catalogFile = join(directory, "hostile-templates.ts");
  const page = join(directory, "hostile.html");
  const text = await cli([
    "mine",
    "--records",
    recordsModule,
    history,
    "--emit",
    catalogFile,
    "--html",
    page,
  ]);
  const source = existsSync(catalogFile) ? readFileSync(catalogFile, "utf8") : "";
  const html = existsSync(page) ? readFileSync(page, "utf8") : "";
  return { text, source, html, catalogFile };
}

describe("formletter mine on the bundled history", () => {
  let text: Awaited<ReturnType<typeof cli>>;
  let json: Awaited<ReturnType<typeof cli>>;
  let emitted: Awaited<ReturnType<typeof cli>>;
  let html: string;
  let catalogFile: string;

  beforeAll(async () => {
    catalogFile = join(directory, "templates.ts");
    const page = join(directory, "mine.html");
    text = await cli(["mine", "--records", corpusModule, bundledHistory]);
    json = await cli(["mine", "--records", corpusModule, bundledHistory, "--json"]);
    emitted = await cli([
      "mine",
      "--records",
      corpusModule,
      bundledHistory,
      "--emit",
      catalogFile,
      "--html",
      page,
    ]);
    html = readFileSync(page, "utf8");
  }, 120_000);

  it("prints what was read, the new-recipient rate, the coverage curve and the clusters", () => {
    expect(text.code).toBe(0);
    expect(text.stderr).toBe("");
    expect(text.stdout).toContain("messages read: 400 · malformed lines: 0");
    expect(text.stdout).toMatch(/new recipients .*: 16 of 400 = 4\.0% \(95% CI 2\.5%–6\.4%\)/);
    expect(text.stdout).toContain("k  coverage  escalation  95% CI       human decisions a day");
    expect(text.stdout).toMatch(/\n8 +86\.0% +14\.0% +10\.9%–17\.7% +15–26\n/);
    expect(text.stdout).toContain(
      "skeleton: Hello {{seller.shopName}}, could you please share the tracking number for order {{order.number}}?",
    );
    expect(text.stdout).toMatch(/choice candidates: crushed \(\d+\)/);
    expect(text.stdout).toContain("Clusters: 51, of which 8 templatable");
  });

  it("--json prints the report as one JSON document with a stable shape", () => {
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(Object.keys(report).sort()).toEqual(
      [
        "candidates",
        "coverage",
        "emitted",
        "language",
        "locales",
        "malformed",
        "messages",
        "messagesPerDay",
        "newRecipients",
        "problems",
        "profile",
        "recipientSources",
      ].sort(),
    );
    expect(report.messages).toBe(400);
    expect(report.newRecipients).toEqual({ count: 16, rate: 0.04, interval: expect.any(Object) });
    expect(Object.keys(report.coverage[0]).sort()).toEqual(
      ["k", "covered", "coverage", "escalationRate", "interval", "humanPerDay"].sort(),
    );
    expect(Object.keys(report.candidates[0]).sort()).toEqual(
      [
        "id",
        "clusters",
        "size",
        "skeleton",
        "slots",
        "choiceWords",
        "residue",
        "recipientsResolved",
        "recipient",
        "examples",
        "templatable",
        "notTemplatable",
        "identifiersLeftOut",
      ].sort(),
    );
    expect(report.candidates[0].recipient).toEqual({ source: "seller.email", channel: "email" });
    expect(report.emitted).toBeNull();
  });

  it("--json writes null, not nothing, for figures a history without times cannot give", async () => {
    const undated = write(
      "undated.jsonl",
      readFileSync(bundledHistory, "utf8")
        .split("\n")
        .slice(0, 60)
        .map((line) => line.replace(/,"at":"[^"]*"/, ""))
        .join("\n"),
    );
    const { code, stdout } = await cli(["mine", "--records", corpusModule, undated, "--json"]);
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.messagesPerDay).toBeNull();
    for (const point of report.coverage) expect(point.humanPerDay).toBeNull();
  });

  it("--html writes a self-contained page: strict CSP, no script, the curve and the clusters, no record value", () => {
    expect(emitted.code).toBe(0);
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    );
    expect(html).not.toMatch(/<script|javascript:|src=|href=/i);
    expect(html).toContain('<svg id="coverage-chart"');
    expect(html).toContain('id="predicted-rate"');
    expect(html).toContain('id="new-recipients"');
    expect(html).toContain("{{seller.shopName}}");
    // Masked record values: no order number, address, shop or person name of the history is on the page.
    const values = recordValues(bundledHistory).filter(
      (value) => value.length >= 5 && !/^[\d.]+$/.test(value),
    );
    expect(values.length).toBeGreaterThan(100);
    // The page's own time of writing is not a record value, though a record may hold the same day.
    const page = html.replace(/ · generated \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/, "");
    expect(page).not.toBe(html);
    for (const value of values) expect(page, value).not.toContain(value);
  });

  it("--emit writes a catalog that compiles and passes formletter check", async () => {
    expect(emitted.stderr).toContain(`catalog of 8 template(s) written to ${catalogFile}`);
    const source = readFileSync(catalogFile, "utf8");
    expect(source).toContain(
      'import { historyRecords as records } from "../../examples/data/history-corpus.js";',
    );
    expect(source).toContain("export const catalog = createCatalog(records, templates);");
    expect(source).toContain('body: "Hello {{seller.shopName}}, could you please share the tracking number');
    expect(source).toMatch(/slot\.choice\(\{\n\s+"crushed": "crushed",/);
    expect(source).not.toMatch(/TODO|FIXME/);
    expect(compileErrors(catalogFile)).toEqual([]);
    const check = await cli(["check", catalogFile]);
    expect(check.stderr).toBe("");
    expect(check.code).toBe(0);
    expect(check.stdout).toContain("8 template(s)");
    expect(check.stdout).toContain("ok: every template passed the definition checks");
    for (const value of recordValues(bundledHistory).filter((value) => value.length >= 4)) {
      expect(source, value).not.toContain(value);
    }
  }, 120_000);
});

describe("formletter mine on bad input", () => {
  it("counts malformed lines and shows the first with their line numbers, never crashing", async () => {
    const good = readFileSync(bundledHistory, "utf8").split("\n").slice(0, 3);
    const history = write(
      "malformed.jsonl",
      [
        good[0],
        "not json",
        "[1,2]",
        '{"ticketId":"T","records":{},"message":{"to":5,"text":"x"}}',
        "",
        good[1],
        "\u001b[31m{",
        good[2],
      ].join("\n"),
    );
    const { code, stdout, stderr } = await cli(["mine", "--records", corpusModule, history]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toContain("messages read: 3 · malformed lines: 4");
    expect(stdout).toContain(
      "  line 2: not JSON\n  line 3: not an object\n  line 4: message.to is not a string\n  line 7: not JSON",
    );
  });

  it("counts a line that is not UTF-8 or too long as malformed, without holding it", async () => {
    const good = readFileSync(bundledHistory, "utf8").split("\n").slice(0, 2).join("\n");
    const file = join(directory, "bytes.jsonl");
    writeFileSync(
      file,
      Buffer.concat([
        Buffer.from(`${good}\r\n`),
        Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a]),
        Buffer.from(`${"x".repeat(300)}\n{"partial":`),
      ]),
    );
    const read: unknown[] = [];
    for await (const line of historyLines(file, { maxLineBytes: 200 })) read.push(line);
    expect(read.slice(2)).toEqual([
      { problem: "not valid UTF-8" },
      { problem: "longer than 200 bytes" },
      '{"partial":',
    ]);
    const { code, stdout } = await cli(["mine", "--records", corpusModule, file]);
    expect(code).toBe(0);
    expect(stdout).toContain("messages read: 2 · malformed lines: 3");
    expect(stdout).toContain("  line 3: not valid UTF-8\n  line 4: not JSON\n  line 5: not JSON");
  });

  it("draws a progress bar only on a terminal", async () => {
    let drawn = "";
    const sink = (isTTY: boolean) =>
      Object.assign(
        new Writable({
          write(chunk, _encoding, done) {
            drawn += String(chunk);
            done();
          },
        }),
        { isTTY, columns: 100 },
      );
    const shown = await cli(["mine", "--records", corpusModule, bundledHistory, "--json"], {
      progress: sink(true),
    });
    expect(shown.code).toBe(0);
    expect(drawn).toContain("mine |");
    expect(() => JSON.parse(shown.stdout)).not.toThrow();
    drawn = "";
    const quiet = await cli(["mine", "--records", corpusModule, bundledHistory], { progress: sink(false) });
    expect(quiet.stderr).toBe("");
    expect(drawn).toBe("");
  });

  it("takes the records definition from a default export or from the only one exported", async () => {
    const body = `import { defineRecords } from "formletter";
import { z } from "zod";
const people = defineRecords({ people: z.object({ id: z.string(), email: z.email() }) });
`;
    const history = write(
      "people.jsonl",
      JSON.stringify({
        ticketId: "T-1",
        records: { people: [{ id: "p", email: "a@b.example" }] },
        message: { to: "a@b.example", text: "Hello" },
      }),
    );
    for (const [name, exported, shown] of [
      ["default-export.ts", "export default people;", "export default"],
      ["named-export.ts", "export const contacts = people;\nexport const other = 1;", "export contacts"],
    ] as const) {
      const module = write(name, `${body}${exported}\n`);
      const { code, stdout, stderr } = await cli(["mine", "--records", module, history]);
      expect(stderr).toBe("");
      expect(code).toBe(0);
      expect(stdout).toContain(`records from ${name} (${shown})`);
      expect(stdout).toContain("recipients found in: person.email 1");
    }
    const two = write("two-exports.ts", `${body}export const a = people;\nexport const b = people;\n`);
    const { code, stderr } = await cli(["mine", "--records", two, history]);
    expect(code).toBe(1);
    expect(stderr).toBe(
      `formletter: ${two} exports 2 records definitions (a, b); export the one to mine with as default or as "records"\n`,
    );
  });

  it("names what a records module should export when it exports no definition, in one line", async () => {
    const module = write("no-records.ts", "export const answer = 42;\nexport default { collections: {} };\n");
    const { code, stdout, stderr } = await cli(["mine", "--records", module, bundledHistory]);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toBe(
      `formletter: ${module} exports no records definition built with defineRecords; exports: answer, default. Export it as default or as "records"\n`,
    );
  });

  it.each([
    [["mine", "--records", corpusModule, "missing.jsonl"], "formletter: no history file at missing.jsonl\n"],
    [
      ["mine", "--records", "missing-records.ts", "examples/data/history.jsonl"],
      "formletter: no records module at missing-records.ts\n",
    ],
    [
      ["mine", "--records", corpusModule, bundledHistory, "--top", "0"],
      "formletter: --top: give a whole number from 1 to 200\n",
    ],
    [
      ["mine", "--records", corpusModule, bundledHistory, "--time-zone", "Mars/Olympus"],
      "formletter: --time-zone Mars/Olympus: give an IANA zone such as UTC or Europe/Berlin\n",
    ],
    [
      ["mine", "--records", corpusModule, bundledHistory, "--locale", "it,POL-2023-660857"],
      "formletter: --locale POL-2023-660857: not a language tag dates can be written in; give one such as it, pl-PL or pt-BR\n",
    ],
    [
      ["mine", "--records", corpusModule, bundledHistory, "--locale", " , "],
      "formletter: --locale: give one to sixteen language tags, comma-separated, such as it or pl-PL,cs\n",
    ],
  ])("%j is a one-line error", async (argv, message) => {
    const { code, stderr } = await cli(argv);
    expect(code).toBe(1);
    expect(stderr).toBe(message);
  });

  it("--locale adds languages dates are read in, and the report says so", async () => {
    const { code, stdout } = await cli([
      "mine",
      "--records",
      corpusModule,
      bundledHistory,
      "--locale",
      "it, pl-PL",
      "--json",
    ]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).locales).toEqual(["it", "pl-PL"]);
  });

  it("--emit into a folder that does not exist is a one-line error", async () => {
    const { code, stderr } = await cli([
      "mine",
      "--records",
      corpusModule,
      bundledHistory,
      "--emit",
      join(directory, "no", "such", "folder", "t.ts"),
    ]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^formletter: cannot write .*t\.ts: ENOENT[^\n]*\n$/);
  });
});

describe("formletter mine on a hostile history", () => {
  let source: string;
  let text: Awaited<ReturnType<typeof cli>>;
  let html: string;
  let catalogFile: string;

  beforeAll(() => {
    ({ source, text, html, catalogFile } = hostile);
  });

  it("emits a catalog that compiles, passes check and holds no record value", async () => {
    expect(text.stderr).toContain("written to");
    expect(text.code).toBe(0);
    expect(compileErrors(catalogFile)).toEqual([]);
    const check = await cli(["check", catalogFile]);
    expect(check.stderr).toBe("");
    expect(check.code).toBe(0);
    // Outside string literals the file is code the emitter wrote: strip the literals and the comments,
    // and nothing of the history is left to run.
    const code = source
      .replace(/"(?:[^"\\\n]|\\.)*"/g, '""')
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/\/\/[^\n]*/g, "");
    expect(code).not.toMatch(/\b(?:alert|process|globalThis|script|evil)\b/);
    // No string literal holds a quote, brace, angle bracket, backtick or non-ASCII character of the history.
    for (const literal of source.match(/"(?:[^"\\\n]|\\.)*"/g) ?? []) {
      expect(literal).not.toMatch(/[<>`$]|\\"|[^\x20-\x7e]/);
      expect(literal).not.toMatch(/\{\{(?!(?:person|order|choice)[.}])/);
    }
    // The words of the fixed text are template text: a value spelling the same words is not leaking.
    const fixedWords = (fixed.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(" ");
    for (const value of values) {
      const words = value.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
      const distinctive = words.join(" ");
      if (!/[\p{L}\p{N}]{4,}/u.test(distinctive) || fixedWords.includes(distinctive)) continue;
      if (/^(dear|for order|kind regards the team)$/.test(distinctive)) continue;
      expect(source.toLowerCase(), value).not.toContain(value.toLowerCase());
      expect(source.toLowerCase(), value).not.toContain(distinctive);
    }
  }, 120_000);

  it("writes text and HTML with every value escaped", () => {
    expect(text.stdout).not.toMatch(/[\u001b\u202e\u2028\u2029\u0000-\u0008]/);
    expect(html).not.toMatch(/<script|<img|<a /i);
    expect(html).toContain("&lt;/script&gt;");
    expect(html).not.toMatch(/[\u202e\u2028\u2029]/);
  });
});

describe("formletter mine on a history holding identifiers no record holds", () => {
  const raw = [
    "https://track.acme-parcels.example",
    "acme-parcels.example",
    "help@acme-parcels",
    "555 0100 200",
    "ACME7X92KQ4410ZP3T8W",
  ];
  let text: Awaited<ReturnType<typeof cli>>;
  let json: Awaited<ReturnType<typeof cli>>;
  let html: string;
  let source: string;
  let catalogFile: string;

  beforeAll(async () => {
    const recordsModule = recordsModuleOf(
      "identifier-records.ts",
      `sellers: z.object({ id: z.string(), shopName: z.string(), email: z.email() }),
  orders: z.object({ id: z.string(), number: z.string() }),`,
    );
    const lines = Array.from({ length: 40 }, (_, n) =>
      JSON.stringify({
        ticketId: `T-${n}`,
        records: {
          sellers: [{ id: "s", shopName: `Shop ${n}x`, email: `s${n}@mail.example` }],
          orders: [{ id: "o", number: `4471-${1000 + n}` }],
        },
        message: {
          to: `s${n}@mail.example`,
          text:
            `Hello Shop ${n}x, order 4471-${1000 + n} has shipped. Track it at https://track.acme-parcels.example/status, ` +
            "call +1 555 0100 200, write to help@acme-parcels.example and quote ACME7X92KQ4410ZP3T8W.",
        },
      }),
    );
    const history = write("identifiers.jsonl", lines.join("\n"));
    catalogFile = join(directory, "identifier-templates.ts");
    const page = join(directory, "identifiers.html");
    text = await cli(["mine", "--records", recordsModule, history, "--emit", catalogFile, "--html", page]);
    json = await cli(["mine", "--records", recordsModule, history, "--json"]);
    source = readFileSync(catalogFile, "utf8");
    html = readFileSync(page, "utf8");
  }, 120_000);

  it("lists each identifier, defanged, with its cluster, its template and count, in text, JSON and HTML", () => {
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(
      "identifiers seen in history, left out (no record holds them; never template text): in 1 cluster(s)",
    );
    expect(text.stdout).toMatch(/\n#0 · 40 messages · templatable/);
    expect(text.stdout).toContain("  drafted as template: order_has_shipped_track\n");
    for (const line of [
      "URL or host name hxxps[:]//track[.]acme-parcels[.]example/status (40 message(s))",
      "phone or other long number +1 555 0100 200 (40 message(s))",
      "e-mail address help(@)acme-parcels[.]example (40 message(s))",
      "id-shaped token ACME…3T8W (40 message(s))",
    ]) {
      expect(text.stdout).toContain(`  identifier seen in history, left out: ${line}\n`);
      expect(html).toContain(`<li>${line}</li>`);
    }
    const report = JSON.parse(json.stdout);
    expect(report.candidates[0].identifiersLeftOut).toHaveLength(4);
    expect(report.candidates[0].identifiersLeftOut).toContainEqual({
      kind: "email",
      text: "help(@)acme-parcels[.]example",
      count: 40,
    });
    // Never as the history wrote it: not in the report, the page, the JSON or the catalog.
    for (const written of raw.filter((value) => !value.startsWith("555"))) {
      expect(text.stdout).not.toContain(written);
      expect(html).not.toContain(written);
      expect(json.stdout).not.toContain(written);
    }
  });

  it("emits a catalog holding none of them that check passes without a warning", async () => {
    expect(source).toContain(
      'body: "Hello {{seller.shopName}}, order {{order.number}} has shipped. Track it, call, write and quote.",',
    );
    for (const written of [...raw, "acme", "0100"])
      expect(source.toLowerCase()).not.toContain(written.toLowerCase());
    const check = await cli(["check", catalogFile]);
    expect(check.code).toBe(0);
    expect(check.stdout).not.toContain("warning");
  }, 60_000);
});
