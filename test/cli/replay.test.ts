import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EscalationReport } from "../../src/metrics/index.js";
import { catalog, sample } from "../fixtures/capacity-catalog.js";
import { cli } from "./run.js";

const path = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));
const fixtureCatalog = path("../fixtures/capacity-catalog.ts");
const sellerCatalog = path("../../templates/seller.ts");
const tickets = path("../../examples/data/tickets.jsonl");

let directory: string;
let history: string;

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), "formletter-cli-replay-"));
  history = join(directory, "history.jsonl");
  const handles = catalog.handles(sample);
  const line = (ticketId: string, output: unknown, at: string, category: string) =>
    JSON.stringify({ ticketId, records: { ...sample, ticketId }, output, tags: { category }, at });
  const status = (item: string) => ({
    template: "status_update",
    slots: { order: handles.get("orders", "o1"), item: handles.get("items", item), status: "shipped" },
  });
  writeFileSync(
    history,
    [
      line("T-1", status("i1"), "2026-03-02T09:00:00Z", "delay"),
      line("T-2", status("i3"), "2026-03-02T10:00:00Z", "delay"), // i3 is not an item of o1
      "this line is not JSON",
      line("T-3", { escalate: "needs_human" }, "2026-03-03T09:00:00Z", "refund"),
      line("T-4", { template: "note_received", slots: { note: null } }, "2026-03-03T10:00:00Z", "note"),
      '{"ticketId":"T-5","output":{}}',
    ].join("\n"),
  );
  // Loads the catalog module once, so the first test does not pay for compiling it.
  return cli(["check", fixtureCatalog]).then(() => undefined);
}, 30_000);

afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe("formletter replay", () => {
  it("prints the report: rate with interval, projection, tables, the malformed lines by number, the definitions", async () => {
    const { code, stdout, stderr } = await cli(["replay", fixtureCatalog, history]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toContain(
      "escalation rate 50.0% (95% CI 15.0%–85.0%): 2 of 4 decisions escalated, 2 sent",
    );
    expect(stdout).toContain("human decisions: 0.3–1.7 a day at the observed 2 tickets a day (over 2 days)");
    expect(stdout).toMatch(/by reason\nreason\s+count\s+share\s+95% CI\nmodel_escalated\s+1\s+25\.0%/);
    expect(stdout).toMatch(
      /by template\ntemplate\s+effect\s+decided\s+sent\s+escalated\s+rate\s+95% CI\nstatus_update\s+informational\s+2\s+1\s+1\s+50\.0%/,
    );
    expect(stdout).toMatch(/by tag:category\n/);
    expect(stdout).toMatch(/by day\nday\s+decided.*\n2026-03-02\s+2\s+1\s+1/);
    expect(stdout).toContain("malformed lines (2, skipped): line 3: not JSON; line 6: no records");
    expect(stdout).toContain("replay runs decide() only");
  });

  it("prints one JSON document with --json", async () => {
    const { code, stdout } = await cli(["replay", fixtureCatalog, history, "--json"]);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as EscalationReport & { templateEffects: Record<string, string> };
    expect(Object.keys(report)).toEqual([
      "source",
      "definition",
      "overall",
      "byReason",
      "byTemplate",
      "byTag",
      "byDay",
      "byCatalogVersion",
      "byTemplateVersion",
      "period",
      "duplicates",
      "deliveryFailures",
      "firstContact",
      "deliveryOutcomes",
      "malformed",
      "projection",
      "truncated",
      "templateEffects",
    ]);
    expect(report.templateEffects).toEqual({
      status_update: "informational",
      note_received: "informational",
    });
    expect(report.overall).toMatchObject({ key: "all", decided: 4, sent: 2, escalated: 2, rate: 0.5 });
    expect(report.byReason.map((row) => row.reason)).toEqual(["model_escalated", "slot_rejected"]);
    expect(report.byTag.map((tag) => tag.tag)).toEqual(["category"]);
    expect(report.malformed).toEqual({
      count: 2,
      lines: [
        { line: 3, problem: "not JSON" },
        { line: 6, problem: "no records" },
      ],
    });
    expect(report.projection).toMatchObject({ ticketsPerDay: 2, basis: "observed", days: 2 });
  });

  it("shows only the groupings asked for with --by, and projects at --volume", async () => {
    const { stdout } = await cli([
      "replay",
      fixtureCatalog,
      history,
      "--by",
      "reason",
      "--by",
      "tag:category",
      "--volume",
      "300",
    ]);
    expect(stdout).toContain("by reason");
    expect(stdout).toContain("by tag:category");
    expect(stdout).not.toContain("by template");
    expect(stdout).not.toContain("by day");
    expect(stdout).toContain("human decisions: 45–255 a day at 300 tickets a day");
    const wrong = await cli(["replay", fixtureCatalog, history, "--by", "weekday"]);
    expect(wrong).toMatchObject({ code: 1, stdout: "" });
    expect(wrong.stderr).toContain("--by: give template, reason, day, tag or tag:NAME");
    expect(wrong.stderr).not.toContain("weekday");
  });

  it("writes the HTML page with --html and keeps --json output pure", async () => {
    const file = join(directory, "report.html");
    const { code, stdout, stderr } = await cli(["replay", fixtureCatalog, history, "--json", "--html", file]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).overall.decided).toBe(4);
    expect(stderr).toBe(`HTML report written to ${file}\n`);
    const html = readFileSync(file, "utf8");
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<svg id="daily-chart"');
    expect(html).not.toMatch(/<script|https?:\/\//);
  });

  it("draws a progress bar only on a terminal", async () => {
    let drawn = "";
    const terminal = Object.assign(
      new Writable({
        write(chunk, _encoding, done) {
          drawn += String(chunk);
          done();
        },
      }),
      { isTTY: true, columns: 100 },
    );
    const shown = await cli(["replay", fixtureCatalog, history], { progress: terminal });
    expect(shown.code).toBe(0);
    expect(drawn).toContain("replay |");
    expect(drawn).toContain("100%");

    drawn = "";
    const piped = Object.assign(new Writable({ write: (_chunk, _encoding, done) => done() }), {
      isTTY: false,
    });
    const quiet = await cli(["replay", fixtureCatalog, history], { progress: piped });
    expect(quiet.stderr).toBe("");
    expect(drawn).toBe("");
  });

  it("gives the demo's counts on the demo's file with the seller catalog", async () => {
    const { code, stdout } = await cli(["replay", sellerCatalog, tickets, "--json"]);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as EscalationReport;
    // What `npm run demo` prints for the same file: decided 208 · sent 116 · escalated 92.
    expect(report.overall).toMatchObject({ decided: 208, sent: 116, escalated: 92 });
    expect(Object.fromEntries(report.byReason.map((row) => [row.reason, row.count]))).toEqual({
      model_escalated: 26,
      invalid_proposal: 18,
      approval_required: 16,
      content_flagged: 10,
      slot_rejected: 8,
      record_not_found: 5,
      records_invalid: 3,
      unknown_template: 3,
      unparseable_output: 2,
      // A refund over its ceiling's per-message maximum (refund_request: EUR 275).
      limit_exceeded: 1,
    });
    // Every send to a destination not sent to before in the file is a first contact.
    expect(report.firstContact.sends).toBe(116);
    expect(report.firstContact.firstContacts).toBeGreaterThan(0);
    expect(report.firstContact.firstContacts).toBeLessThanOrEqual(116);
  }, 30_000);

  it("exits 1 with one line for a missing history file or catalog module", async () => {
    const missing = await cli(["replay", fixtureCatalog, join(directory, "nope.jsonl")]);
    expect(missing).toMatchObject({ code: 1, stdout: "" });
    expect(missing.stderr).toBe(`formletter: no history file at ${join(directory, "nope.jsonl")}\n`);
    const noCatalog = await cli(["replay", join(directory, "nope.ts"), history]);
    expect(noCatalog.stderr).toBe(`formletter: no catalog module at ${join(directory, "nope.ts")}\n`);
  });
});
