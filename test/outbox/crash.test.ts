import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOutbox } from "../../src/index.js";
import { sqliteStore } from "../../src/store/sqlite/index.js";
import type { AuditEvent, QueueItem } from "../../src/store/store.js";
import { recoveryTransport } from "../fixtures/crash-work.js";
import { loadTicket, propertyCatalog } from "../fixtures/property.js";
import { completeLines, prepareWorkers, startWorker, waitUntil } from "./processes.js";

/** The outbox's default lease: how long a deliverer holds a message before recovery may take it. */
const leaseMs = 300_000;
const rounds = 3;

interface Ack {
  readonly ticketId: string;
  readonly auditId: string;
  readonly outboundId: string | undefined;
}

function parseAck(line: string): Ack {
  const [word, ticketId, auditId, outboundId] = line.split(" ");
  if (word !== "acked" || ticketId === undefined || auditId === undefined || outboundId === undefined) {
    throw new Error(`not an ack line: ${line}`);
  }
  return { ticketId, auditId, outboundId: outboundId === "-" ? undefined : outboundId };
}

function outboundRows(file: string): { id: string; key: string; status: string }[] {
  const db = new Database(file);
  try {
    return (
      db.prepare("SELECT id, key, status FROM outbound ORDER BY id").all() as {
        id: number;
        key: string;
        status: string;
      }[]
    ).map((row) => ({ ...row, id: String(row.id) }));
  } finally {
    db.close();
  }
}

describe("a process killed with SIGKILL while it handles tickets", () => {
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "formletter-crash-"));
    await prepareWorkers();
  }, 120_000);
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it(`loses nothing it acknowledged, never delivers a key twice, and flush() queues what it left in doubt (${rounds} kills)`, async () => {
    const file = join(dir, "outbox.db");
    const workerFiles: string[] = [];
    const flushFiles: string[] = [];
    const inDoubtAtAKill = new Set<string>();

    for (let round = 0; round < rounds; round++) {
      const ackFile = join(dir, `acks-${round}.log`);
      const deliveryFile = join(dir, `deliveries-${round}.log`);
      const flushFile = join(dir, `flushed-${round}.log`);
      workerFiles.push(deliveryFile);
      flushFiles.push(flushFile);

      // Each round handles its own tickets, on the same file.
      const worker = startWorker("./fixtures/crash-worker.ts", [
        file,
        ackFile,
        deliveryFile,
        String(round * 1_000_000),
      ]);
      await waitUntil(() => completeLines(ackFile).length >= 10, worker, "ten acknowledged handles");
      // Where the kill lands is random; nothing asserted below depends on it.
      await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 250)));
      worker.child.kill("SIGKILL");
      const exit = await worker.exited;
      expect(exit.signal, `the worker ended on its own: ${worker.stderr()}`).toBe("SIGKILL");

      const acks = completeLines(ackFile).map(parseAck);
      const atKill = outboundRows(file);
      const pending = atKill.filter((row) => row.status === "pending").map((row) => row.key);
      const delivering = atKill.filter((row) => row.status === "delivering").map((row) => row.key);
      for (const key of delivering) inDoubtAtAKill.add(key);
      const summary = `round ${round}: ${acks.length} acknowledged, ${atKill.length} messages, ${pending.length} pending and ${delivering.length} delivering at the kill`;

      // A new process: the clock is past every lease the killed one held.
      const store = sqliteStore(file);
      const recovered: string[] = [];
      const outbox = createOutbox({
        catalog: propertyCatalog,
        load: loadTicket,
        store,
        transports: { email: recoveryTransport(recovered, flushFile) },
        clock: () => Date.now() + leaseMs + 60_000,
      });

      // 1. Every handle() that returned is durable: its decision is in the audit log, with its
      //    outbound row (a send) or its queue item (an escalation).
      const audit = new Map<string, AuditEvent>();
      for await (const event of outbox.audit.query()) audit.set(event.id, event);
      for (const ack of acks) {
        expect(
          audit.get(ack.auditId),
          `${summary}: audit event ${ack.auditId} of ${ack.ticketId}`,
        ).toMatchObject({
          ticketId: ack.ticketId,
          type: "decision",
        });
        if (ack.outboundId !== undefined) {
          expect(
            await store.getOutbound(ack.outboundId),
            `${summary}: outbound ${ack.outboundId}`,
          ).toMatchObject({
            ticketId: ack.ticketId,
          });
        } else {
          const items: QueueItem[] = [
            ...(await outbox.queue.list({ ticketId: ack.ticketId, limit: 500 })).items,
          ];
          expect(
            items.some((item) => item.auditId === ack.auditId),
            `${summary}: queue item of ${ack.ticketId}`,
          ).toBe(true);
        }
      }

      // 2. flush() delivers each row no transport was called for, once, and sends nothing that was
      //    being delivered at the kill: each of those is an open in-doubt queue item.
      expect(await outbox.flush(), summary).toEqual({
        delivered: pending.length,
        failed: delivering.length,
      });
      expect([...recovered].sort(), summary).toEqual([...pending].sort());
      expect(await outbox.flush(), `${summary}: a second flush`).toEqual({ delivered: 0, failed: 0 });
      const inDoubt = (await outbox.queue.list({ status: "open", reason: "delivery_failed", limit: 500 }))
        .items;
      expect(inDoubt.map((item) => item.key).sort(), summary).toEqual(
        expect.arrayContaining([...delivering].sort()),
      );
      await outbox.close();

      const after = outboundRows(file);
      expect(
        after.filter((row) => !["delivered", "failed", "in_doubt"].includes(row.status)),
        `${summary}: left pending or delivering after flush`,
      ).toEqual([]);
      for (const row of after)
        if (row.status === "in_doubt") expect(inDoubt.map((item) => item.key)).toContain(row.key);
      expect(after.map((row) => row.key).sort()).toEqual(atKill.map((row) => row.key).sort());
    }

    // 3. Deliveries counted by idempotency key, over every round: at most one each. A row the worker
    //    was delivering at the kill may or may not have reached the transport; the recovering process
    //    cannot tell, so it does not send it again but hands it to a person (above).
    const byWorker = workerFiles.flatMap((path) => completeLines(path));
    const byFlush = flushFiles.flatMap((path) => completeLines(path));
    expect(new Set(byWorker).size, "the worker delivered a key twice").toBe(byWorker.length);
    expect(new Set(byFlush).size, "recovery delivered a key twice").toBe(byFlush.length);
    const counts = new Map<string, number>();
    for (const key of [...byWorker, ...byFlush]) counts.set(key, (counts.get(key) ?? 0) + 1);
    const rows = outboundRows(file);
    const keys = new Set(rows.map((row) => row.key));
    for (const [key, count] of counts) {
      expect(keys.has(key), `delivered ${key}, which has no outbound row`).toBe(true);
      expect(count, `${key} delivered ${count} times`).toBe(1);
    }
    for (const key of byFlush) expect(inDoubtAtAKill.has(key)).toBe(false);
    for (const row of rows) {
      if (row.status === "delivered")
        expect(counts.get(row.key) ?? 0, `${row.key} is recorded delivered`).toBeGreaterThan(0);
    }
    expect(byWorker.length, "the worker delivered nothing before it was killed").toBeGreaterThan(0);
  }, 60_000);
});
