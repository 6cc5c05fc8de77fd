import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createCatalog,
  createOutbox,
  defineRecords,
  defineTemplate,
  memoryTransport,
} from "../../src/index.js";
import { sqliteStore } from "../../src/store/sqlite/index.js";
import { catalog as fixture, sample } from "../fixtures/capacity-catalog.js";
import { cli } from "./run.js";

/**
 * What must never reach a terminal raw: C0 controls but newline and tab (ESC among them), DEL, C1
 * (CSI U+009B, OSC U+009D, NEL U+0085), bidi marks, overrides and isolates, zero-width and invisible
 * format characters, line and paragraph separators, the byte order mark, tag characters, lone surrogates.
 */
const raw =
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2028\u2029\u2060-\u2069\uFEFF\u{E0000}-\u{E007F}]|[\uD800-\uDFFF]/u;

// Every kind at once: colour, screen clear, window title (OSC … BEL), 8-bit CSI and OSC hyperlink,
// a bidi override and isolate, carriage return and backspace (overwrite), NUL, invisible characters,
// a line separator, a tag character and a lone surrogate.
const hostile =
  "\u001b[31mRED\u001b[0m \u001b]0;pwned\u0007 \u009b2J \u009d8;;http://evil.example\u009c \u202eevil\u202c \u2066iso\u2069 ok\rX\b \u0000 \u200f\u061c\u200b \u2028 \ufeff \u{E0041} \ud800 \u007f\u0085";
const hostileName = "t\u001b[1m\u202e\u009b"; // a tag name: at most 40 characters
const hostileTicket = "T-\u001b[2J\u202e\u009b1";

let directory: string;
let db: string;
let history: string;
let records: string;
let strangeCatalog: string;
const fixtureCatalog = fileURLToPath(new URL("../fixtures/capacity-catalog.ts", import.meta.url));

// A lettings agency asking a contractor to accept a quote; the model's note and every id are hostile.
const defined = defineRecords({
  jobs: z.object({ id: z.string(), ref: z.string() }),
  contractors: z.object({ id: z.string(), email: z.email() }),
});
const quotes = createCatalog(defined, [
  defineTemplate(defined, {
    id: "accept_quote",
    description: "Accept the quote",
    audience: "contractor",
    effect: "irreversible",
    channel: "email",
    to: defined.slot.ref("contractors", { show: "email" }),
    subject: "Quote for {{job}}",
    body: "We accept your quote for job {{job}}.",
    slots: { job: defined.slot.ref("jobs", { show: "ref" }) },
    limits: { perTicket: 1, perDay: 100 },
    approval: "human",
  }),
]);
const ticket = (ticketId: string) => ({
  ticketId,
  jobs: [{ id: "j1", ref: `R-1 ${hostile}` }],
  contractors: [{ id: "c1", email: "fix@plumbers.example.com" }],
});

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), "formletter-cli-terminal-"));
  db = join(directory, "outbox.db");
  const outbox = createOutbox({
    catalog: quotes,
    load: ticket,
    store: sqliteStore(db),
    transports: { email: memoryTransport() },
  });
  const tags = { [hostileName]: hostile.slice(0, 200), category: hostile.slice(0, 200) };
  await outbox.handle({
    ticketId: hostileTicket,
    // A newline too: a value must not start a line of its own that reads like the tool's.
    runId: `${hostile.slice(0, 100)}\napproved by ana`,
    output: { escalate: "needs_human", note: hostile },
    tags,
  });
  const job = quotes.handles(ticket("T-2")).get("jobs", "j1");
  await outbox.handle({
    ticketId: "T-2",
    runId: "r2",
    output: { template: "accept_quote", slots: { job } },
    tags,
  });
  await outbox.close();

  history = join(directory, "history.jsonl");
  const handles = fixture.handles(sample);
  const line = (ticketId: string, output: unknown) =>
    JSON.stringify({
      ticketId,
      records: { ...sample, ticketId },
      output,
      tags: { [hostileName]: hostile.slice(0, 200) },
      at: "2026-03-02T09:00:00Z",
    });
  writeFileSync(
    history,
    [
      line(hostileTicket, { escalate: "needs_human", note: hostile }),
      line("T-2", { template: hostile, slots: {} }),
      line("T-3", {
        template: "status_update",
        slots: { order: handles.get("orders", "o1"), item: hostile },
      }),
      `{"ticketId":"${hostile.replace(/[\u0000-\u001f"\\]/g, "")}"`,
    ].join("\n"),
  );
  records = join(directory, "sample.json");
  writeFileSync(records, JSON.stringify({ ...sample, ticketId: hostileTicket }));
  strangeCatalog = join(directory, `catalog\u001b[31m\u202e\u009b.ts`);
  // A module that only re-exports the fixture: imports resolve from the fixture's own folder.
  writeFileSync(strangeCatalog, `export { catalog } from ${JSON.stringify(fixtureCatalog)};\n`);
  // Loads a catalog module once, so the first test does not pay for compiling it.
  await cli(["check", fixtureCatalog]);
}, 60_000);

afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** Runs the command and checks that nothing unsafe reached stdout or stderr. */
async function safely(argv: readonly string[]) {
  const result = await cli(argv);
  const written = `${result.stdout}${result.stderr}`;
  const found = raw.exec(written);
  expect(
    found,
    `${argv.slice(0, 2).join(" ")} wrote U+${found?.[0].codePointAt(0)?.toString(16)} raw`,
  ).toBeNull();
  return { ...result, written };
}

const queueItems = async () =>
  JSON.parse((await safely(["queue", "list", "--db", db, "--json", "--status", "all"])).stdout).items as {
    id: string;
    reason: string;
  }[];

describe("no control character reaches the terminal raw", () => {
  it("queue list, as a table and as JSON (which stays valid JSON, with the same values)", async () => {
    const table = await safely(["queue", "list", "--db", db]);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain("\\u001b[2J");
    const json = await safely(["queue", "list", "--db", db, "--json"]);
    const items = JSON.parse(json.stdout).items;
    expect(items.map((item: { ticketId: string }) => item.ticketId)).toContain(hostileTicket);
  });

  it("queue show: ticket, run, note and draft, as text and as JSON", async () => {
    for (const item of await queueItems()) {
      const shown = await safely(["queue", "show", item.id, "--db", db]);
      expect(shown.code).toBe(0);
      const json = await safely(["queue", "show", item.id, "--db", db, "--json"]);
      expect(JSON.parse(json.stdout).id).toBe(item.id);
    }
    const escalated = (await queueItems()).find((item) => item.reason === "model_escalated");
    const shown = await safely(["queue", "show", escalated?.id ?? "", "--db", db]);
    expect(shown.stdout).toContain("(run \\u001b[31mRED\\u001b[0m \\u001b]0;pwned\\u0007 \\u009b2J");
    // One line per field (the escalation's code among them): a newline or separator in a value cannot
    // start a line that looks like ours.
    expect(shown.stdout.split("\n")).toHaveLength(8);
    expect(shown.stdout).toMatch(/^code {7}\w+$/m);
  });

  it("queue claim and resolve echo what the operator typed, and show reads it back", async () => {
    const [item] = await queueItems();
    // Who acts is held to the actor-name rule: control characters in --by are refused, not printed.
    const refused = await safely(["queue", "claim", item?.id ?? "", "--db", db, "--by", hostile]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("--by must name who acts");
    const claimed = await safely(["queue", "claim", item?.id ?? "", "--db", db, "--by", "ana"]);
    expect(claimed.code).toBe(0);
    const resolved = await safely([
      "queue",
      "resolve",
      item?.id ?? "",
      "--db",
      db,
      "--by",
      "ana",
      "--resolution",
      hostile,
      "--note",
      hostile,
    ]);
    expect(resolved.code).toBe(0);
    const shown = await safely(["queue", "show", item?.id ?? "", "--db", db]);
    expect(shown.stdout).toContain("closed by  ana: \\u001b[31mRED");
    const missing = await safely(["queue", "show", hostile, "--db", db]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("does not exist");
  });

  it("report: text, --by tag:NAME, JSON and the HTML page", async () => {
    const text = await safely(["report", "--db", db]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("by tag:t\\u001b[1m\\u202e\\u009b");
    const byTag = await safely(["report", "--db", db, "--by", `tag:${hostileName}`]);
    expect(byTag.stdout).not.toContain("no decision has this tag");
    const json = await safely(["report", "--db", db, "--json"]);
    expect(JSON.parse(json.stdout).byTag.map((tag: { tag: string }) => tag.tag)).toContain(hostileName);
    const html = join(directory, "report.html");
    await safely(["report", "--db", db, "--html", html]);
    expect(raw.exec(readFileSync(html, "utf8"))).toBeNull();
  });

  it("replay: text, JSON and the HTML page, with hostile ids, tags, templates and malformed lines", async () => {
    const text = await safely(["replay", fixtureCatalog, history]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("malformed lines (1, skipped)");
    const json = await safely(["replay", fixtureCatalog, history, "--json"]);
    expect(JSON.parse(json.stdout).overall.decided).toBe(3);
    const html = join(directory, "replay.html");
    await safely(["replay", fixtureCatalog, history, "--html", html]);
    expect(raw.exec(readFileSync(html, "utf8"))).toBeNull();
  });

  it("capacity on a sample ticket whose id is hostile, and check, from a module whose file name is", async () => {
    const capacity = await safely(["capacity", fixtureCatalog, "--records", records]);
    expect(capacity.code).toBe(0);
    expect(capacity.stdout).toContain("sample ticket T-\\u001b[2J");
    await safely(["capacity", fixtureCatalog, "--records", records, "--json"]);
    const check = await safely(["check", strangeCatalog]);
    expect(check.code).toBe(0);
    expect(check.stdout).toContain("catalog\\u001b[31m");
    await safely(["capacity", strangeCatalog]);
    await safely(["check", strangeCatalog, "--json"]);
  });

  it("errors that repeat what was typed: a missing file, an unknown option and command", async () => {
    const missing = await safely(["check", join(directory, `${hostile}.ts`)]);
    expect(missing.code).toBe(1);
    const option = await safely(["report", "--db", db, `--x${hostile}`]);
    expect(option.code).toBe(1);
    expect(option.stderr).toContain("\\u001b");
    const command = await safely([hostile]);
    expect(command.code).toBe(1);
    const history = await safely(["replay", fixtureCatalog, join(directory, `${hostile}.jsonl`)]);
    expect(history.code).toBe(1);
  });
});
