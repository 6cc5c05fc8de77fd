import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOutbox } from "../../../src/index.js";
import { type PostgresStore, postgresStore } from "../../../src/store/postgres/index.js";
import type { AuditEvent, QueueItem } from "../../../src/store/store.js";
import { recoveryTransport } from "../../fixtures/crash-work.js";
import {
  accessChoices,
  loadTicket,
  propertyCatalog,
  propertyTicket,
  proposal,
} from "../../fixtures/property.js";
import {
  completeLines,
  prepareWorkers,
  startWorker,
  type Worker,
  waitUntil,
} from "../../outbox/processes.js";
import { message, outboundRow } from "../conformance.js";
import { type Cluster, freshSchema, postgresAvailable, startCluster } from "./cluster.js";

const available = postgresAvailable();

interface HandleResult {
  readonly ticketId: string;
  readonly template: string;
  readonly duplicate: boolean;
  readonly reason: string | undefined;
  readonly auditId: string;
  readonly delivery: string | null;
}

const keyOf = (output: unknown, ticketId: string): string => {
  const decision = propertyCatalog.decide(output, propertyTicket(ticketId));
  if (decision.key === undefined) throw new Error(`fixture: ${ticketId} has no key`);
  return decision.key;
};

async function events(store: PostgresStore): Promise<AuditEvent[]> {
  const out: AuditEvent[] = [];
  for await (const event of store.queryAudit({})) out.push(event);
  return out;
}

describe.skipIf(!available)("several processes on one Postgres database", () => {
  let cluster: Cluster;
  let dir: string;
  beforeAll(async () => {
    [cluster] = await Promise.all([startCluster(), prepareWorkers()]);
    dir = mkdtempSync(join(tmpdir(), "formletter-pg-processes-"));
  }, 120_000);
  afterAll(async () => {
    await cluster?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Starts workers, waits until each wrote "<file>.ready", and lets them go at once. */
  async function startTogether(name: string, starts: { file: string; args: string[]; ready: string }[]) {
    const goFile = join(dir, `${name}-go`);
    const workers = starts.map(({ file, args }) => startWorker(file, [...args, goFile]));
    await waitUntil(
      () => starts.every(({ ready }) => existsSync(`${ready}.ready`)),
      workers,
      "every worker ready",
      30_000,
    );
    writeFileSync(goFile, "");
    return workers;
  }

  async function expectClean(workers: readonly Worker[]) {
    const exits = await Promise.all(workers.map((worker) => worker.exited));
    for (const [i, exit] of exits.entries()) {
      expect(exit, `worker ${i}: ${workers[i]?.stderr()}`).toMatchObject({ code: 0, signal: null });
    }
  }

  it("4 processes handling the same 500 tickets: one delivery per key, perTicket and perDay never exceeded, every handle audited", async () => {
    const tickets = 500;
    const schema = freshSchema("same_tickets");
    const store = postgresStore({ connectionString: cluster.url() }, { schema });
    try {
      await store.ready();
      const files = Array.from({ length: 4 }, (_, w) => ({
        result: join(dir, `same-${w}.jsonl`),
        delivery: join(dir, `same-${w}-deliveries.log`),
      }));
      const workers = await startTogether(
        "same",
        files.map(({ result, delivery }, w) => ({
          file: "../store/postgres/fixtures/handle-worker.ts",
          args: [cluster.url(), schema, String(w), String(tickets), result, delivery],
          ready: result,
        })),
      );
      await expectClean(workers);

      const results = files.map(({ result }) =>
        completeLines(result).map((line) => JSON.parse(line) as HandleResult),
      );
      const deliveries = files.flatMap(({ delivery }) => completeLines(delivery));
      for (const [w, lines] of results.entries()) expect(lines, `worker ${w}`).toHaveLength(tickets * 3);

      // Exactly one delivery per idempotency key.
      expect(new Set(deliveries).size, "a key was delivered twice").toBe(deliveries.length);
      const delivered = new Set(deliveries);
      const access = Object.keys(accessChoices);
      let visits = 0;
      let callouts = 0;
      for (let i = 0; i < tickets; i++) {
        const ticketId = `T-${i}`;
        // completion_check, perTicket 1, one key for every worker: sent once.
        expect(delivered.has(keyOf(proposal(ticketId), ticketId)), `${ticketId} completion_check`).toBe(true);
        // visit_request, perTicket 2, a key per worker: exactly two of the four sent.
        const sentVisits = access.filter((key) =>
          delivered.has(keyOf(proposal(ticketId, "visit_request", { access: key }), ticketId)),
        ).length;
        expect(sentVisits, `${ticketId} visit_request`).toBe(2);
        visits += sentVisits;
        if (delivered.has(keyOf(proposal(ticketId, "emergency_callout"), ticketId))) callouts += 1;
      }
      // emergency_callout, perDay 2 across every ticket and worker.
      expect(callouts, "emergency_callout sends in the day").toBe(2);
      expect(deliveries).toHaveLength(tickets + visits + callouts);

      // What the workers were told agrees: one first send per key, the rest duplicates or limited.
      const all = results.flat();
      const sends = all.filter((result) => !result.duplicate && result.reason === undefined);
      expect(sends).toHaveLength(deliveries.length);
      expect(sends.every((result) => result.delivery === "delivered")).toBe(true);
      for (const result of all) {
        if (result.duplicate || result.reason === undefined) continue;
        expect(result.reason, JSON.stringify(result)).toBe("limit_exceeded");
      }

      // Every handle is in the audit log under its ticket: a decision, or a duplicate of one (a duplicate
      // is answered with the first result, so its auditId is the first decision's).
      const audit = new Map((await events(store)).map((event) => [event.id, event]));
      for (const result of all) {
        const event = audit.get(result.auditId);
        expect(event, `audit event ${result.auditId} of ${result.ticketId}`).toMatchObject({
          ticketId: result.ticketId,
          template: result.template,
          type: "decision",
        });
      }
      const perProposal = new Map<string, number>();
      for (const event of audit.values()) {
        if (event.type !== "decision" && event.type !== "duplicate") continue;
        const proposalOf = `${event.ticketId} ${event.template}`;
        perProposal.set(proposalOf, (perProposal.get(proposalOf) ?? 0) + 1);
      }
      expect(perProposal.size).toBe(tickets * 3);
      expect(
        [...perProposal.values()].every((count) => count === 4),
        "four audit events a proposal",
      ).toBe(true);
      const limited = all.filter((result) => result.reason === "limit_exceeded").length;
      expect((await store.listQueue({ reason: "limit_exceeded", limit: 500 })).items.length).toBeGreaterThan(
        0,
      );
      let queued = 0;
      for (let cursor: string | undefined, first = true; first || cursor !== undefined; first = false) {
        const page = await store.listQueue({
          reason: "limit_exceeded",
          limit: 500,
          ...(cursor ? { cursor } : {}),
        });
        queued += page.items.length;
        cursor = page.nextCursor;
      }
      expect(queued, "one queue item per limit_exceeded").toBe(limited);
    } finally {
      await store.close();
    }
  }, 60_000);

  it("4 processes claiming from one table never claim the same row, and together claim every row", async () => {
    const schema = freshSchema("claims");
    const store = postgresStore({ connectionString: cluster.url() }, { schema });
    try {
      const ids = await store.transaction(async (tx) => {
        const out: string[] = [];
        for (let i = 0; i < 2000; i++) out.push(await tx.addOutbound(outboundRow({ key: `claim-${i}` })));
        return out;
      });
      const outs = Array.from({ length: 4 }, (_, w) => join(dir, `claims-${w}.log`));
      const workers = await startTogether(
        "claims",
        outs.map((out) => ({
          file: "../store/postgres/fixtures/claim-worker.ts",
          args: [cluster.url(), schema, "claim", out],
          ready: out,
        })),
      );
      await expectClean(workers);
      const claimed = outs.map((out) => completeLines(out));
      const all = claimed.flat();
      expect(new Set(all).size, "a row was claimed twice").toBe(all.length);
      expect([...all].sort()).toEqual([...ids].sort());
      expect(
        claimed.filter((lines) => lines.length > 0).length,
        "more than one process claimed",
      ).toBeGreaterThan(1);
    } finally {
      await store.close();
    }
  }, 60_000);

  it("flush() from 4 processes delivers each pending row once", async () => {
    const schema = freshSchema("flushes");
    const store = postgresStore({ connectionString: cluster.url() }, { schema });
    try {
      const keys = Array.from({ length: 1000 }, (_, i) => `fl_pending_${i}`);
      await store.transaction(async (tx) => {
        for (const [i, key] of keys.entries())
          await tx.addOutbound(outboundRow({ key, message: message(i) }));
      });
      const outs = Array.from({ length: 4 }, (_, w) => join(dir, `flush-${w}.log`));
      const workers = await startTogether(
        "flush",
        outs.map((out) => ({
          file: "../store/postgres/fixtures/claim-worker.ts",
          args: [cluster.url(), schema, "flush", out],
          ready: out,
        })),
      );
      await expectClean(workers);
      const delivered = outs.flatMap((out) => completeLines(out));
      expect(new Set(delivered).size, "a row was delivered twice").toBe(delivered.length);
      expect([...delivered].sort()).toEqual([...keys].sort());
      let total = 0;
      for (const out of outs) {
        const result = JSON.parse(readFileSync(`${out}.result`, "utf8")) as {
          delivered: number;
          failed: number;
        };
        expect(result.failed).toBe(0);
        total += result.delivered;
      }
      expect(total).toBe(1000);
      expect(await store.claimDue({ now: Date.now() + 10_000_000, leaseUntil: 0, limit: 10 })).toEqual([]);
    } finally {
      await store.close();
    }
  }, 60_000);

  it("4 workers, a database restart (immediate) and a SIGKILL mid-run: nothing acknowledged is lost, no key delivered twice, what is in doubt is queued", async () => {
    const schema = freshSchema("crash");
    const leaseMs = 300_000;
    const setup = postgresStore({ connectionString: cluster.url() }, { schema });
    await setup.ready();
    await setup.close();
    const stopFile = join(dir, "crash-stop");
    const files = Array.from({ length: 4 }, (_, w) => ({
      ack: join(dir, `crash-${w}-acks.log`),
      delivery: join(dir, `crash-${w}-deliveries.log`),
    }));
    const workers = files.map(({ ack, delivery }, w) =>
      startWorker("../store/postgres/fixtures/crash-worker.ts", [
        cluster.url(),
        schema,
        ack,
        delivery,
        String(w * 1_000_000),
        stopFile,
        // The last two fail their calls while the database is down and retry them themselves.
        ...(w >= 2 ? ["fail-fast"] : []),
      ]),
    );
    const acked = (w: number) =>
      completeLines(files[w]?.ack ?? "").filter((line) => line.startsWith("acked ")).length;
    await waitUntil(
      () => files.every((_, w) => acked(w) >= 20),
      workers,
      "twenty acks from each worker",
      30_000,
    );

    // The database goes down hard (crash recovery on start) while every worker has work in flight.
    const atRestart = files.map((_, w) => acked(w));
    const retries = (w: number) =>
      completeLines(files[w]?.ack ?? "").filter((line) => line.startsWith("retried ")).length;
    const retriedBefore = [retries(2), retries(3)];
    await cluster.stopServer("immediate");
    // Down until each fail-fast worker has had a call fail on it, then started again.
    await waitUntil(
      () => retries(2) > (retriedBefore[0] ?? 0) && retries(3) > (retriedBefore[1] ?? 0),
      workers,
      "a failed call in each fail-fast worker while the database is down",
      30_000,
    );
    await cluster.startServer();
    await waitUntil(
      () => files.every((_, w) => acked(w) >= (atRestart[w] ?? 0) + 20),
      workers,
      "twenty more acks from each worker after the restart",
      30_000,
    );

    // One worker dies mid-handle; the others go on a moment, then stop cleanly.
    await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 100)));
    workers[0]?.child.kill("SIGKILL");
    expect((await workers[0]?.exited)?.signal).toBe("SIGKILL");
    await new Promise((resolve) => setTimeout(resolve, 200));
    writeFileSync(stopFile, "");
    await expectClean(workers.slice(1));

    const store = postgresStore({ connectionString: cluster.url() }, { schema });
    try {
      const admin = await cluster.admin();
      const rows = async () =>
        (await admin.query(`SELECT id::text, key, status FROM ${schema}.outbound ORDER BY id`)).rows as {
          id: string;
          key: string;
          status: string;
        }[];
      const before = await rows();
      const pending = before.filter((row) => row.status === "pending").map((row) => row.key);
      const delivering = before.filter((row) => row.status === "delivering").map((row) => row.key);
      const acks = files.flatMap(({ ack }) =>
        completeLines(ack)
          .filter((line) => line.startsWith("acked "))
          .map((line) => {
            const [, ticketId = "", auditId = "", outboundId = "-"] = line.split(" ");
            return { ticketId, auditId, outboundId: outboundId === "-" ? undefined : outboundId };
          }),
      );
      const retried = files.flatMap(({ ack }) =>
        completeLines(ack).filter((line) => line.startsWith("retried ")),
      );
      // Errors by what they said was written: "<decision> <delivery> <outcome>".
      const errorKinds = new Map<string, number>();
      for (const line of retried) {
        const kind = line.split(" ").slice(2).join(" ");
        errorKinds.set(kind, (errorKinds.get(kind) ?? 0) + 1);
      }
      const summary = `${acks.length} acknowledged, ${retried.length} retried (${[...errorKinds].map(([kind, n]) => `${n}× ${kind}`).join(", ")}), ${before.length} messages, ${pending.length} pending, ${delivering.length} delivering`;

      // 1. Every acknowledged handle() is durable: its audit event, and its outbound row or queue item.
      const audit = new Map((await events(store)).map((event) => [event.id, event]));
      const items: QueueItem[] = [];
      for (let cursor: string | undefined, first = true; first || cursor !== undefined; first = false) {
        const page = await store.listQueue({ limit: 500, ...(cursor ? { cursor } : {}) });
        items.push(...page.items);
        cursor = page.nextCursor;
      }
      const itemAudits = new Set(items.map((item) => item.auditId));
      for (const ack of acks) {
        const event = audit.get(ack.auditId);
        expect(event, `${summary}: audit event ${ack.auditId} of ${ack.ticketId}`).toBeDefined();
        expect(event?.ticketId).toBe(ack.ticketId);
        expect(["decision", "duplicate"]).toContain(event?.type);
        if (ack.outboundId !== undefined) {
          expect(
            await store.getOutbound(ack.outboundId),
            `${summary}: outbound ${ack.outboundId}`,
          ).toMatchObject({
            ticketId: ack.ticketId,
          });
        } else if (event?.type === "decision") {
          expect(itemAudits.has(ack.auditId), `${summary}: queue item of ${ack.ticketId}`).toBe(true);
        }
      }
      // Every error said what was written; none claimed "nothing" for a call that had delivered.
      for (const kind of errorKinds.keys()) {
        expect(
          ["not_written not_attempted not_applicable", "unknown not_attempted not_applicable"].includes(
            kind,
          ) || kind.startsWith("written "),
          `${summary}: error kind ${kind}`,
        ).toBe(true);
      }

      // 2. flush() delivers each row left pending once, sends nothing left delivering, and queues each
      //    of those as in doubt.
      const recovered: string[] = [];
      const outbox = createOutbox({
        catalog: propertyCatalog,
        load: loadTicket,
        store,
        transports: { email: recoveryTransport(recovered) },
        clock: () => Date.now() + leaseMs + 60_000,
      });
      expect(await outbox.flush(), summary).toEqual({ delivered: pending.length, failed: delivering.length });
      expect([...recovered].sort(), summary).toEqual([...pending].sort());
      expect(await outbox.flush(), `${summary}: a second flush`).toEqual({ delivered: 0, failed: 0 });
      const after = await rows();
      await admin.end();
      expect(
        after.filter((row) => !["delivered", "failed", "in_doubt"].includes(row.status)),
        summary,
      ).toEqual([]);
      expect(after.map((row) => row.key)).toEqual(before.map((row) => row.key));
      const openInDoubt = new Set(
        (await outbox.queue.list({ status: "open", reason: "delivery_failed", limit: 500 })).items.map(
          (item) => item.key,
        ),
      );
      for (const row of after)
        if (row.status === "in_doubt") expect(openInDoubt.has(row.key), `${summary}: ${row.key}`).toBe(true);

      // 3. Deliveries by key at the receiver, over every worker and the recovery: at most one each; and
      //    none lost: every key is delivered or, in doubt, in the queue.
      const byWorkers = files.flatMap(({ delivery }) => completeLines(delivery));
      const counts = new Map<string, number>();
      for (const key of [...byWorkers, ...recovered]) counts.set(key, (counts.get(key) ?? 0) + 1);
      const keys = new Set(after.map((row) => row.key));
      for (const [key, count] of counts) {
        expect(keys.has(key), `delivered ${key}, which has no outbound row`).toBe(true);
        expect(count, `${summary}: ${key} delivered ${count} times`).toBe(1);
      }
      for (const row of after) {
        if (row.status === "delivered")
          expect(counts.get(row.key), `${summary}: ${row.key} recorded delivered`).toBe(1);
        else if (row.status !== "in_doubt") expect.fail(`${summary}: ${row.key} is ${row.status}`);
      }
      expect(byWorkers.length, summary).toBeGreaterThan(0);
      expect(
        retried.length,
        `${summary}: the restart failed no call of the fail-fast workers`,
      ).toBeGreaterThan(0);
      process.stdout.write(
        `restart run: ${summary}; ${counts.size} keys delivered, each once; ${after.filter((row) => row.status === "in_doubt").length} in doubt, queued\n`,
      );
      await outbox.close();
    } finally {
      await store.close().catch(() => undefined);
    }
  }, 60_000);
});
