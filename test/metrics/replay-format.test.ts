import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { replayHistory } from "../../src/metrics/index.js";
import { cli } from "../cli/run.js";
import { catalog, sample } from "../fixtures/capacity-catalog.js";

const fixtureCatalog = fileURLToPath(new URL("../fixtures/capacity-catalog.ts", import.meta.url));
let directory: string;
let history: string;

// The records as a loader returns them, without the ticket's id: the line's ticketId says whose they are.
const { ticketId: _ticketId, ...records } = sample;
const handles = catalog.handles(sample);
const status = (item: string) => ({
  template: "status_update",
  slots: { order: handles.get("orders", "o1"), item: handles.get("items", item), status: "shipped" },
});

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), "formletter-replay-format-"));
  history = join(directory, "history.jsonl");
  const line = (ticketId: string, lineRecords: unknown, output: unknown) =>
    JSON.stringify({ ticketId, records: lineRecords, output });
  writeFileSync(
    history,
    [
      line("T-1", records, status("i1")), // 1: sent, ticketId only at the top
      line("T-1", sample, status("i1")), // 2: sent, ticketId in both, the same
      line("T-1", { ...sample, ticketId: "T-9" }, status("i1")), // 3: records of another ticket
      line("T-1", records, status("i3")), // 4: i3 is not an item of o1
      line("T-1", records, { escalate: "needs_human" }), // 5
      line("T-1", records, { escalate: "needs_human" }), // 6
      line("T-1", records, { escalate: "needs_human" }), // 7
      line("T-1", records, { escalate: "needs_human" }), // 8
      line("T-1", { ...records, orders: "none" }, status("i1")), // 9: records that fail the schema
    ].join("\n"),
  );
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe("replay: the history format", () => {
  it("takes the ticket's id from the line: records need not repeat it", async () => {
    const report = await replayHistory(catalog, history);
    expect(report.overall).toMatchObject({ decided: 9, sent: 2 });
    expect(report.malformed.count).toBe(0);
  });

  it("escalates records that name another ticket, saying so", async () => {
    const row = (await replayHistory(catalog, history)).byReason.find(
      (reason) => reason.reason === "records_invalid",
    );
    expect(row?.count).toBe(2);
    expect(row?.examples?.[0]).toEqual({
      line: 3,
      detail: "records.ticketId differs from the line's ticketId: records of another ticket",
    });
    expect(row?.examples?.[1]?.line).toBe(9);
    expect(row?.examples?.[1]?.detail).toMatch(/orders/);
  });

  it("keeps the first three escalations of each reason with line and detail, counting all", async () => {
    const report = await replayHistory(catalog, history);
    const byReason = Object.fromEntries(report.byReason.map((row) => [row.reason, row]));
    expect(byReason.model_escalated?.count).toBe(4);
    expect(byReason.model_escalated?.examples?.map((example) => example.line)).toEqual([5, 6, 7]);
    expect(byReason.model_escalated?.examples?.[0]?.detail).toMatch(/needs_human/);
    expect(byReason.slot_rejected?.examples?.map((example) => example.line)).toEqual([4]);
    const fewer = await replayHistory(catalog, history, { maxExamples: 1 });
    expect(fewer.byReason.every((row) => (row.examples?.length ?? 0) <= 1)).toBe(true);
  });

  it("cuts a long detail to one short line", async () => {
    const long = join(directory, "long.jsonl");
    writeFileSync(
      long,
      JSON.stringify({ ticketId: "T-1", records: { ...records, notes: "x".repeat(5000) }, output: {} }),
    );
    const [row] = (await replayHistory(catalog, long)).byReason;
    expect(row?.examples?.[0]?.detail.length).toBeLessThanOrEqual(240);
    expect(row?.examples?.[0]?.detail).not.toMatch(/\n/);
  });
});

describe("formletter replay: where the problems are", () => {
  it("prints the first lines of each reason with their detail, and how many more", async () => {
    const { code, stdout } = await cli(["replay", fixtureCatalog, history]);
    expect(code).toBe(0);
    expect(stdout).toContain("first escalations by reason (line of the history file: detail)\n");
    expect(stdout).toMatch(
      /model_escalated \(4\):\n {2}line 5: .*needs_human.*\n {2}line 6: .*\n {2}line 7: .*\n {2}and 1 more\n/,
    );
    expect(stdout).toContain(
      "records_invalid (2):\n  line 3: records.ticketId differs from the line's ticketId: records of another ticket\n  line 9: ",
    );
  });

  it("puts them in the JSON report next to each reason's count", async () => {
    const { stdout } = await cli(["replay", fixtureCatalog, history, "--json"]);
    const report = JSON.parse(stdout) as { byReason: { reason: string; examples?: { line: number }[] }[] };
    expect(report.byReason.find((row) => row.reason === "slot_rejected")?.examples).toEqual([
      { line: 4, detail: expect.stringContaining("item") },
    ]);
  });
});
