import { createReadStream, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOutbox, memoryTransport } from "../../src/index.js";
import {
  type EscalationReport,
  parseHistoryLine,
  replayHistory,
  reportFromAudit,
} from "../../src/metrics/index.js";
import { sqliteStore } from "../../src/store/sqlite/index.js";
import { sellerCatalog } from "../../templates/seller.js";
import { catalog, sample } from "../fixtures/capacity-catalog.js";

const tickets = fileURLToPath(new URL("../../examples/data/tickets.jsonl", import.meta.url));
let directory: string;

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), "formletter-replay-"));
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** The demo's path: every ticket of the file through an outbox on SQLite, then the audit log's report. */
async function throughTheOutbox(path: string): Promise<EscalationReport> {
  const current: { records: unknown } = { records: undefined };
  const outbox = createOutbox({
    catalog: sellerCatalog,
    load: () => current.records,
    store: sqliteStore(join(directory, "demo.db")),
    transports: { email: memoryTransport() },
    contactKey: "a contact key of at least thirty-two bytes",
  });
  for await (const text of createInterface({
    input: createReadStream(path, "utf8"),
    crlfDelay: Number.POSITIVE_INFINITY,
  })) {
    if (text.trim() === "") continue;
    const ticket = parseHistoryLine(text);
    if ("problem" in ticket) continue;
    current.records = ticket.records;
    await outbox.handle({
      ticketId: ticket.ticketId,
      output: ticket.output,
      runId: `run-${ticket.ticketId}`,
      tags: ticket.tags ?? {},
    });
  }
  const report = await reportFromAudit(outbox.audit.query());
  await outbox.close();
  return report;
}

const byKey = (rows: readonly { key: string; decided: number; escalated: number }[]) =>
  Object.fromEntries(rows.map((row) => [row.key, [row.decided, row.escalated]]));
const byReason = (report: EscalationReport) =>
  Object.fromEntries(report.byReason.map((row) => [row.reason, row.count]));

describe("replayHistory", () => {
  it("gives the demo's counts on examples/data/tickets.jsonl: sent, escalated by reason, by template and category", async () => {
    const [replayed, live] = await Promise.all([
      replayHistory(sellerCatalog, tickets),
      throughTheOutbox(tickets),
    ]);
    expect(replayed.overall.decided).toBe(208);
    expect(replayed.malformed.count).toBe(0);
    for (const field of ["decided", "sent", "escalated"] as const) {
      expect(replayed.overall[field]).toBe(live.overall[field]);
    }
    expect(byReason(replayed)).toEqual(byReason(live));
    expect(byKey(replayed.byTemplate)).toEqual(byKey(live.byTemplate));
    expect(byKey(replayed.byTag.find((t) => t.tag === "category")?.rows ?? [])).toEqual(
      byKey(live.byTag.find((t) => t.tag === "category")?.rows ?? []),
    );
    // The file's tickets span three weeks of March; the live run decided them all today.
    expect(replayed.period).toMatchObject({ first: "2026-03-02T10:15:00.000Z", days: 22, undated: 0 });
    expect(live.duplicates).toBe(0);
    // First contacts: the replay's (destinations new in the file) are the outbox's (recorded in the store).
    expect(replayed.firstContact).toEqual(live.firstContact);
    expect(live.firstContact).toMatchObject({ sends: 116, firstContacts: 10 });
  }, 30_000);

  it("counts and skips malformed lines with their line numbers, never stopping", async () => {
    const handles = catalog.handles(sample);
    const good = {
      ticketId: "T-1",
      records: sample,
      output: { template: "note_received", slots: { note: handles.get("notes", "n1") } },
      at: "2026-03-02T10:00:00Z",
    };
    const path = join(directory, "mixed.jsonl");
    writeFileSync(
      path,
      [
        JSON.stringify(good),
        "{not json",
        "",
        JSON.stringify({ ...good, ticketId: "T-2" }), // records of T-1 under T-2: records_invalid, as in the outbox
        "[]",
        JSON.stringify({ ...good, at: "someday" }),
        JSON.stringify({ ...good, output: "I will write the note myself" }),
      ].join("\r\n"),
    );
    const report = await replayHistory(catalog, path);
    expect(report.malformed).toEqual({
      count: 3,
      lines: [
        { line: 2, problem: "not JSON" },
        { line: 5, problem: "not an object" },
        { line: 6, problem: "at is neither an ISO 8601 time nor epoch milliseconds" },
      ],
    });
    expect(report.overall).toMatchObject({ decided: 3, sent: 1, escalated: 2 });
    expect(byReason(report)).toEqual({ records_invalid: 1, unparseable_output: 1 });
  });

  it("reports progress up to the whole file, and stops on abort with what it has", async () => {
    const path = join(directory, "many.jsonl");
    const line = JSON.stringify({ ticketId: "T-1", records: sample, output: { escalate: "needs_human" } });
    writeFileSync(path, `${Array.from({ length: 20_000 }, () => line).join("\n")}\n`);
    const seen: number[] = [];
    const full = await replayHistory(catalog, path, {
      onProgress: (progress) => {
        seen.push(progress.lines);
        expect(progress.totalBytes).toBe(20_000 * (line.length + 1));
      },
    });
    expect(full.overall.decided).toBe(20_000);
    expect(seen.at(-1)).toBe(20_000);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));

    const controller = new AbortController();
    const partial = await replayHistory(catalog, path, {
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    expect(partial.overall.decided).toBeGreaterThan(0);
    expect(partial.overall.decided).toBeLessThan(20_000);
  });

  it("rejects, without crashing the process, when a catalog that is not createCatalog's throws", async () => {
    const path = join(directory, "one.jsonl");
    writeFileSync(path, `${JSON.stringify({ ticketId: "T-1", records: { ticketId: "T-1" }, output: {} })}\n`);
    const broken = {
      decide: () => {
        throw new Error("broken catalog");
      },
    };
    await expect(replayHistory(broken, path)).rejects.toThrow("broken catalog");
  });

  it("rejects a missing file", async () => {
    await expect(replayHistory(catalog, join(directory, "nope.jsonl"))).rejects.toThrow(/ENOENT/);
  });
});
