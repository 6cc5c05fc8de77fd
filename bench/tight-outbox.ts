/**
 * The durable work of one outbox.handle() on SQLite, written by hand as directly as a careful engineer
 * would: the peer the benchmark measures handle() against. Same file engine (better-sqlite3, WAL,
 * synchronous=NORMAL, busy timeout), same group commit (the calls ready in one turn of the event loop
 * share a transaction), the same fdatasync of the WAL in libuv's thread pool shared by every commit
 * before it, the same checkpoints from a worker thread, the same `decide()` and the same transport.
 *
 * Per call: the decision, the count limits (per ticket, per rolling day, per run) and the outbound row
 * with a unique idempotency key, written `delivering` with the decision's audit row in one transaction
 * and on disk before delivery; then delivery and, in the next group, the row marked delivered with a
 * delivery audit row, handed back at commit (its sync runs on; close() waits for it), as handle() does.
 * Nothing else: no tracing, no load timeout or copy of the records, no retries, spend ceilings, first
 * contact or approvals, and an escalation is one audit row and one queue row.
 */
import { hash } from "node:crypto";
import { type FileHandle, open } from "node:fs/promises";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import Database from "better-sqlite3";
import type { Catalog, Transport } from "formletter";

/** The record schemas any catalog is defined over. */
type CollectionSchemas = Catalog extends Catalog<infer S> ? S : never;

const schema = `
  CREATE TABLE IF NOT EXISTS audit (
    id INTEGER PRIMARY KEY, at INTEGER NOT NULL, type TEXT NOT NULL, ticket_id TEXT NOT NULL,
    run_id TEXT NOT NULL, template TEXT, outcome TEXT NOT NULL, reason TEXT, key TEXT, data TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS outbound (
    id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, ticket_id TEXT NOT NULL, run_id TEXT NOT NULL,
    template TEXT NOT NULL, message TEXT NOT NULL, status TEXT NOT NULL, created_at INTEGER NOT NULL,
    delivered_at INTEGER, receipt_id TEXT, body_sha256 TEXT NOT NULL);
  CREATE INDEX IF NOT EXISTS outbound_ticket ON outbound (template, ticket_id);
  CREATE INDEX IF NOT EXISTS outbound_run ON outbound (run_id);
  CREATE TABLE IF NOT EXISTS send_counts (
    template TEXT NOT NULL, minute INTEGER NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (template, minute)
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS queue (
    id INTEGER PRIMARY KEY, reason TEXT NOT NULL, ticket_id TEXT NOT NULL, audit_id INTEGER NOT NULL,
    draft TEXT);
`;

// A PASSIVE checkpoint from a worker's own connection every so many commits, as the store does, so no
// checkpoint (and its sync of the database file) runs inside a COMMIT on the event loop.
const checkpointWorker = `
const { parentPort, workerData } = require("node:worker_threads");
const db = new (require(workerData.module))(workerData.file, { fileMustExist: true });
db.pragma("synchronous = NORMAL");
parentPort.on("message", (m) => {
  if (m === "close") { db.close(); parentPort.close(); return; }
  db.pragma("wal_checkpoint(PASSIVE)");
  parentPort.postMessage("done");
});
`;
const commitsPerCheckpoint = 64;

export interface TightOutbox {
  handle(input: { ticketId: string; output: unknown; runId: string }): Promise<{
    outcome: "delivered" | "failed" | "duplicate" | "escalated";
  }>;
  close(): Promise<void>;
}

type Job = { work: () => unknown; resolve: (value: unknown) => void; reject: (error: unknown) => void };

export function createTightOutbox<S extends CollectionSchemas>(options: {
  file: string;
  catalog: Catalog<S>;
  load: (ticketId: string) => unknown;
  transport: Transport;
  maxPerRun?: number;
}): TightOutbox {
  const { catalog, load, transport, file } = options;
  const maxPerRun = options.maxPerRun ?? 3;
  const db = new Database(file);
  db.pragma("busy_timeout = 5000");
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("wal_autocheckpoint = 10000");
  db.exec(schema);

  const counts = db.prepare(`SELECT
    (SELECT COUNT(*) FROM outbound WHERE template = ? AND ticket_id = ?) AS ticket,
    (SELECT COALESCE(SUM(n), 0) FROM send_counts WHERE template = ? AND minute > ?) AS day,
    (SELECT COUNT(*) FROM outbound WHERE run_id = ?) AS run,
    (SELECT id FROM outbound WHERE key = ?) AS prior`);
  const count = db.prepare(
    "INSERT INTO send_counts (template, minute, n) VALUES (?, ?, 1) ON CONFLICT DO UPDATE SET n = n + 1",
  );
  const insertOutbound = db.prepare(
    "INSERT INTO outbound (key, ticket_id, run_id, template, message, status, created_at, body_sha256) VALUES (?, ?, ?, ?, ?, 'delivering', ?, ?)",
  );
  const markOutbound = db.prepare(
    "UPDATE outbound SET status = ?, delivered_at = ?, receipt_id = ? WHERE id = ?",
  );
  const insertAudit = db.prepare(
    "INSERT INTO audit (at, type, ticket_id, run_id, template, outcome, reason, key, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const insertQueue = db.prepare(
    "INSERT INTO queue (reason, ticket_id, audit_id, draft) VALUES (?, ?, ?, ?)",
  );
  const begin = db.prepare("BEGIN IMMEDIATE");
  const commit = db.prepare("COMMIT");
  const rollback = db.prepare("ROLLBACK");

  // Group commit: jobs queued in one turn run in one transaction; a failed group runs its jobs one by one.
  let pending: Job[] = [];
  let scheduled = false;
  const runJobs = (jobs: Job[]): unknown[] => {
    begin.run();
    try {
      const results = jobs.map((job) => job.work());
      commit.run();
      checkpointer.committed();
      return results;
    } catch (error) {
      if (db.inTransaction) rollback.run();
      throw error;
    }
  };
  const runGroup = () => {
    scheduled = false;
    const group = pending;
    pending = [];
    let settled: { job: Job; value?: unknown; error?: unknown }[];
    try {
      const results = runJobs(group);
      settled = group.map((job, index) => ({ job, value: results[index] }));
    } catch (error) {
      if (group.length === 1) settled = [{ job: group[0] as Job, error }];
      else
        settled = group.map((job) => {
          try {
            return { job, value: runJobs([job])[0] };
          } catch (error) {
            return { job, error };
          }
        });
    }
    const synced = syncWal();
    for (const { job, value, error } of settled) {
      if (error !== undefined) synced.then(() => job.reject(error), job.reject);
      else job.resolve({ value, synced });
    }
  };
  const inGroup = <T>(work: () => T): Promise<{ value: T; synced: Promise<void> }> =>
    new Promise((resolve, reject) => {
      pending.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!scheduled) {
        scheduled = true;
        setImmediate(runGroup);
      }
    });

  // One fdatasync of the WAL at a time in the thread pool; callers during one wait for the next.
  let wal: Promise<FileHandle> | undefined;
  let running: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  const syncWal = (): Promise<void> => {
    if (running === undefined) {
      wal ??= open(`${file}-wal`, "r");
      running = wal.then((handle) => handle.datasync()).finally(() => (running = undefined));
      return running;
    }
    next ??= running.then(() => {
      next = undefined;
      return syncWal();
    });
    return next;
  };

  const checkpointer = (() => {
    let commits = 0;
    let busy = false;
    let worker: Worker | undefined;
    return {
      committed() {
        if (++commits < commitsPerCheckpoint || busy) return;
        commits = 0;
        busy = true;
        if (worker === undefined) {
          worker = new Worker(checkpointWorker, {
            eval: true,
            workerData: { file, module: createRequire(import.meta.url).resolve("better-sqlite3") },
          });
          worker.unref();
          worker.on("message", () => (busy = false));
        }
        worker.postMessage("checkpoint");
      },
      async close() {
        if (worker === undefined) return;
        const exited = new Promise((resolve) => worker?.once("exit", resolve));
        worker.ref();
        worker.postMessage("close");
        await exited;
      },
    };
  })();

  const audit = (
    at: number,
    type: string,
    ticketId: string,
    runId: string,
    template: string | undefined,
    outcome: string,
    reason: string | undefined,
    key: string | undefined,
    data: unknown,
  ) =>
    insertAudit.run(
      at,
      type,
      ticketId,
      runId,
      template ?? null,
      outcome,
      reason ?? null,
      key ?? null,
      JSON.stringify(data),
    ).lastInsertRowid;
  const escalateRows = (
    at: number,
    ticketId: string,
    runId: string,
    reason: string,
    detail: string,
    template?: string,
    draft?: unknown,
  ) => {
    const auditId = audit(at, "decision", ticketId, runId, template, "escalate", reason, undefined, {
      detail,
    });
    insertQueue.run(reason, ticketId, auditId, draft === undefined ? null : JSON.stringify(draft));
  };

  const marks = new Set<Promise<void>>();
  return {
    async handle({ ticketId, output, runId }) {
      const decision = catalog.decide(output, load(ticketId));
      const at = Date.now();
      const written = await inGroup(() => {
        if (decision.outcome !== "send") {
          escalateRows(
            at,
            ticketId,
            runId,
            decision.reason,
            decision.detail,
            decision.template,
            decision.draft,
          );
          return undefined;
        }
        const { template, message, key, values } = decision;
        const limits = catalog.template(template)?.limits ?? { perTicket: 0, perDay: 0 };
        const minute = Math.floor(at / 60_000);
        const seen = counts.get(template, ticketId, template, minute - 1440, runId, key) as Record<
          string,
          number
        >;
        if (seen.prior !== null) {
          audit(at, "duplicate", ticketId, runId, template, "send", undefined, key, { of: seen.prior });
          return "duplicate" as const;
        }
        const over =
          (seen.ticket ?? 0) >= limits.perTicket ||
          (seen.day ?? 0) >= limits.perDay ||
          (seen.run ?? 0) >= maxPerRun;
        if (over) {
          escalateRows(at, ticketId, runId, "limit_exceeded", "over a limit", template, message);
          return undefined;
        }
        const body = hash("sha256", message.text, "hex");
        const row = insertOutbound.run(key, ticketId, runId, template, JSON.stringify(message), at, body);
        count.run(template, minute);
        audit(at, "decision", ticketId, runId, template, "send", undefined, key, {
          output,
          values,
          bodySha256: body,
        });
        return { id: row.lastInsertRowid, key, message, template };
      });
      await written.synced;
      const row = written.value;
      if (row === undefined) return { outcome: "escalated" };
      if (row === "duplicate") return { outcome: "duplicate" };
      let receipt: { id: string } | undefined;
      try {
        receipt = await transport.deliver(row.message, { key: row.key, attempt: 1 });
      } catch {
        receipt = undefined;
      }
      const done = Date.now();
      const marked = await inGroup(() => {
        const status = receipt === undefined ? "failed" : "delivered";
        markOutbound.run(status, done, receipt?.id ?? null, row.id);
        audit(
          done,
          "delivery",
          ticketId,
          runId,
          row.template,
          receipt === undefined ? "escalate" : "send",
          undefined,
          row.key,
          {},
        );
        if (receipt === undefined)
          escalateRows(
            done,
            ticketId,
            runId,
            "delivery_failed",
            "delivery failed",
            row.template,
            row.message,
          );
      });
      // Handed back at commit; close() waits for the sync.
      const synced = marked.synced.finally(() => marks.delete(synced));
      marks.add(synced);
      return { outcome: receipt === undefined ? "failed" : "delivered" };
    },
    async close() {
      await Promise.all(marks);
      await checkpointer.close();
      db.close();
      await (await wal)?.close();
    },
  };
}
