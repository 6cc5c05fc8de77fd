import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOutbox, type HandleResult, memoryTransport, type Outbox } from "../../src/index.js";
import { sqliteStore } from "../../src/store/sqlite/index.js";
import { sellerCatalog } from "../../templates/seller.js";
import { auditOf } from "./harness.js";

interface Line {
  readonly ticketId: string;
  readonly records: { readonly ticketId: string } & Record<string, unknown>;
  readonly output: unknown;
  readonly tags: Record<string, string>;
  readonly at: string;
}

const lines: Line[] = readFileSync(new URL("../../examples/data/tickets.jsonl", import.meta.url), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as Line);
const byId = new Map(lines.map((line) => [line.ticketId, line]));

describe("the seller catalog end to end, on a SQLite file", () => {
  let dir: string;
  let outbox: Outbox;
  let now = 0;
  const transport = memoryTransport();
  const results: HandleResult[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "formletter-seller-"));
    outbox = createOutbox({
      catalog: sellerCatalog,
      load: (ticketId) => byId.get(ticketId)?.records,
      store: sqliteStore(join(dir, "outbox.db")),
      transports: { email: transport },
      clock: () => now,
      retry: { attempts: 2, baseDelayMs: 0 },
    });
    for (const line of lines) {
      now = Date.parse(line.at);
      results.push(
        await outbox.handle({
          ticketId: line.ticketId,
          output: line.output,
          runId: `run-${line.ticketId}`,
          tags: line.tags,
        }),
      );
    }
  });
  afterAll(async () => {
    await outbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("decides every ticket: each send delivered once, each escalation queued", async () => {
    expect(results).toHaveLength(lines.length);
    const sends = results.filter((result) => result.decision.outcome === "send" && !result.duplicate);
    expect(sends.length).toBeGreaterThan(0);
    for (const result of sends) expect(result.delivery?.status).toBe("delivered");
    expect(transport.sent).toHaveLength(sends.length);
    expect(new Set(transport.sent.map((sent) => sent.key)).size).toBe(sends.length);
    for (const result of results.filter((r) => r.decision.outcome === "escalate")) {
      const item = await outbox.queue.get(result.queueItemId as string);
      expect(item?.reason).toBe(result.decision.outcome === "escalate" ? result.decision.reason : undefined);
    }
    const decisions = await auditOf(outbox, { type: "decision" });
    expect(decisions).toHaveLength(results.filter((result) => !result.duplicate).length);
  });

  it("sends every message to an address in that ticket's own records", () => {
    for (const [index, sent] of transport.sent.entries()) {
      const result = results.find((r) => r.decision.key === sent.key);
      const records = JSON.stringify(byId.get(result?.decision.ticketId as string)?.records).toLowerCase();
      expect(records, `message ${index} went outside the ticket`).toContain(`"${sent.message.to}"`);
    }
  });

  it("a second pass over the same outputs sends nothing new", async () => {
    const before = transport.sent.length;
    for (const line of lines) {
      now = Date.parse(line.at) + 60_000;
      const again = await outbox.handle({
        ticketId: line.ticketId,
        output: line.output,
        runId: `rerun-${line.ticketId}`,
      });
      if (again.decision.outcome === "send") expect(again.duplicate).toBe(true);
    }
    expect(transport.sent).toHaveLength(before);
  });

  it("approving every waiting approval sends each draft exactly", async () => {
    const before = transport.sent.length;
    const waiting = await outbox.queue.list({ reason: "approval_required", status: "open", limit: 500 });
    expect(waiting.items.length).toBeGreaterThan(0);
    for (const item of waiting.items) {
      const approval = await outbox.queue.approve(item.id, { by: "ops@marketplace.example" });
      expect(approval.outbound?.status).toBe("delivered");
      expect(transport.sent.at(-1)).toMatchObject({ message: item.draft, key: item.key });
    }
    expect(transport.sent).toHaveLength(before + waiting.items.length);
    expect(await outbox.flush()).toEqual({ delivered: 0, failed: 0 });
  });
});
