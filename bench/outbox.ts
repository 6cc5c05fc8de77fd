/**
 * The outbox's durable throughput: handle() end to end (load, decide, one transaction, delivery to an
 * in-process transport, marking delivered) on the memory store and on SQLite (its default sync off the
 * event loop, and synchronous=FULL in the loop), with 1 and 64 calls in flight, the stores taking turns.
 * Group commit is what makes 64 in flight fast: one fsync per group.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createOutbox, memoryStore, memoryTransport, type Store } from "formletter";
import { sqliteStore } from "formletter/sqlite";
import { catalog, ticket } from "./fixtures.js";
import { bytesAllocated, bytesWritten, figure, report } from "./measure.js";

interface Run {
  readonly handled: number;
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  /** CPU seconds of the process (every thread) while timed. */
  readonly cpu: number;
  /** Bytes handed to write calls while timed, where /proc/self/io exists. */
  readonly written: number | undefined;
}

// Each run first handles for this long untimed: the store's one-off work (opening the WAL, starting the
// checkpointer's worker) and the code's first calls are not what a long-running process pays a handle.
const warmUpSeconds = 0.2;

async function run(
  store: Store,
  inFlight: number,
  seconds: number,
  measure: (timed: () => Promise<void>) => Promise<void> = (timed) => timed(),
): Promise<Run> {
  const tickets = new Map<string, ReturnType<typeof ticket>>();
  const transport = memoryTransport();
  const outbox = createOutbox({
    catalog,
    load: (id) => tickets.get(id)?.records,
    store,
    transports: { email: transport },
  });
  let latencies: number[] = [];
  let next = 0;
  const worker = (deadline: number) => async () => {
    while (performance.now() < deadline) {
      const t = ticket(next++);
      tickets.set(t.ticketId, t);
      const started = performance.now();
      const result = await outbox.handle({
        ticketId: t.ticketId,
        output: t.output,
        runId: `run-${t.ticketId}`,
      });
      latencies.push(performance.now() - started);
      if (result.delivery?.status !== "delivered")
        throw new Error(`not delivered: ${JSON.stringify(result.decision)}`);
      tickets.delete(t.ticketId);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker(performance.now() + warmUpSeconds * 1000)));
  const warmedUp = latencies.length;
  latencies = [];
  const cpuBefore = process.cpuUsage();
  const writtenBefore = bytesWritten();
  const started = performance.now();
  await measure(async () => {
    await Promise.all(Array.from({ length: inFlight }, worker(started + seconds * 1000)));
  });
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const writtenAfter = bytesWritten();
  await outbox.close();
  if (transport.sent.length !== warmedUp + latencies.length)
    throw new Error("a handled message was not delivered exactly once");
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    handled: latencies.length,
    perSecond: latencies.length / elapsed,
    p50: at(0.5),
    p99: at(0.99),
    cpu: (cpu.user + cpu.system) / 1e6,
    written:
      writtenBefore === undefined || writtenAfter === undefined ? undefined : writtenAfter - writtenBefore,
  };
}

process.stdout.write("\noutbox.handle() — load, decide, commit, deliver, mark delivered\n");
const directory = mkdtempSync(join(tmpdir(), "formletter-bench-"));
try {
  let files = 0;
  const stores = [
    ["memory", () => memoryStore()],
    // The default: synchronous=NORMAL, the WAL synced in the thread pool before each result is handed back.
    ["sqlite, sync off the event loop", () => sqliteStore(join(directory, `outbox-${++files}.db`))],
    [
      "sqlite, synchronous=FULL (in the loop)",
      () => sqliteStore(join(directory, `outbox-${++files}.db`), { commitSync: "in-loop" }),
    ],
  ] as const;
  // The stores take turns, round after round, so a busy spell of the machine falls on each of them.
  const rounds = 3;
  const totals = new Map<
    string,
    { handled: number; seconds: number; cpu: number; written?: number; p50: number[]; p99: number[] }
  >();
  for (const inFlight of [1, 64]) {
    for (let round = 0; round < rounds; round++) {
      for (const [name, makeStore] of stores) {
        const result = await run(makeStore(), inFlight, inFlight === 1 ? 0.7 : 1.5);
        const key = `${name}, ${inFlight} in flight`;
        const total = totals.get(key) ?? { handled: 0, seconds: 0, cpu: 0, p50: [], p99: [] };
        total.handled += result.handled;
        total.seconds += result.handled / result.perSecond;
        total.cpu += result.cpu;
        if (result.written !== undefined) total.written = (total.written ?? 0) + result.written;
        total.p50.push(result.p50);
        total.p99.push(result.p99);
        totals.set(key, total);
      }
    }
  }
  const perSecond = (key: string) => {
    const total = totals.get(key);
    return total === undefined ? 0 : total.handled / total.seconds;
  };
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  for (const [key, total] of totals) {
    report(
      key,
      `${figure(perSecond(key))} handles/s · ${((total.cpu / total.handled) * 1e6).toFixed(0)} µs CPU each · p50 ${median(total.p50).toFixed(2)} ms · p99 ${median(total.p99).toFixed(2)} ms${total.written === undefined ? "" : ` · ${(total.written / total.handled / 1024).toFixed(1)} KB written each`}`,
    );
  }
  const ratio = (name: string) => perSecond(`${name}, 64 in flight`) / perSecond("memory, 64 in flight");
  const offLoop = ratio("sqlite, sync off the event loop");
  report(
    "SQLite/memory at 64 in flight (goal ≥ 0.6)",
    `${offLoop.toFixed(2)} ${offLoop >= 0.6 ? "met" : "NOT met"}`,
  );
  report(
    "  the same with synchronous=FULL in the loop",
    ratio("sqlite, synchronous=FULL (in the loop)").toFixed(2),
  );
  // Memory allocated a handle, in runs of their own (the profiler slows what it samples): a figure that,
  // like the bytes written, holds from one run to the next whatever the machine's speed.
  for (const [name, makeStore] of [
    ["memory", stores[0][1]],
    ["sqlite default", stores[1][1]],
  ] as const) {
    let allocated = 0;
    const result = await run(makeStore(), 64, 1, async (timed) => {
      allocated = await bytesAllocated(timed);
    });
    report(
      `heap allocated, ${name}, 64 in flight`,
      `${(allocated / result.handled / 1024).toFixed(1)} KB a handle`,
    );
  }

  // Limits late in a day of steady sending: the day's count reads the sends of every minute since `since`.
  process.stdout.write("\nlimits after a day of steady sending (a send in each of the last 1,440 minutes)\n");
  const calls = 5_000;
  for (const [name, makeStore] of [
    ["memory", () => memoryStore()],
    ["sqlite", () => sqliteStore(join(directory, `counts-${++files}.db`))],
  ] as const) {
    const store = makeStore();
    const now = Date.now();
    await store.transaction(async (tx) => {
      for (let minute = 0; minute < 1440; minute++) {
        const at = now - minute * 60_000;
        const result = {
          decision: { outcome: "escalate", reason: "no_template", detail: "", ticketId: `T-${minute}` },
          auditId: "1",
          outboundId: undefined,
          queueItemId: undefined,
        } as const;
        await tx.reserve({
          key: `fl_day_${minute}`,
          template: "tracking_request",
          ticketId: `T-${minute}`,
          runId: `run-${minute}`,
          at,
          result: result as never,
        });
      }
    });
    const cpu = await store.transaction(async (tx) => {
      const before = process.cpuUsage();
      for (let call = 0; call < calls; call++) {
        const counts = await tx.countSends({
          template: "tracking_request",
          ticketId: "T-1",
          runId: "run-1",
          since: now - 86_400_000,
        });
        if (counts.day !== 1440) throw new Error(`bench/outbox: a day counted ${counts.day} sends, not 1440`);
      }
      const used = process.cpuUsage(before);
      return (used.user + used.system) / calls;
    });
    await store.close();
    report(`${name}, countSends() a day back`, `${cpu.toFixed(1)} µs CPU a call`);
  }
} finally {
  rmSync(directory, { recursive: true, force: true });
}
