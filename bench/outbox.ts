/**
 * The outbox's durable throughput: handle() end to end (load, decide, one transaction, delivery to an
 * in-process transport, marking delivered) on the memory store and on SQLite with synchronous=FULL, with
 * 1 and 64 calls in flight. Group commit is what makes 64 in flight fast: one fsync per group.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createOutbox, memoryStore, memoryTransport, type Store } from "formletter";
import { sqliteStore } from "formletter/sqlite";
import { catalog, ticket } from "./fixtures.js";
import { figure, report } from "./measure.js";

interface Run {
  readonly handled: number;
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
}

async function run(store: Store, inFlight: number, seconds: number): Promise<Run> {
  const tickets = new Map<string, ReturnType<typeof ticket>>();
  const transport = memoryTransport();
  const outbox = createOutbox({
    catalog,
    load: (id) => tickets.get(id)?.records,
    store,
    transports: { email: transport },
  });
  const latencies: number[] = [];
  let next = 0;
  const deadline = performance.now() + seconds * 1000;
  const worker = async () => {
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
  const started = performance.now();
  await Promise.all(Array.from({ length: inFlight }, worker));
  const elapsed = (performance.now() - started) / 1000;
  await outbox.close();
  if (transport.sent.length !== latencies.length)
    throw new Error("a handled message was not delivered exactly once");
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { handled: latencies.length, perSecond: latencies.length / elapsed, p50: at(0.5), p99: at(0.99) };
}

process.stdout.write("\noutbox.handle() — load, decide, commit, deliver, mark delivered\n");
const directory = mkdtempSync(join(tmpdir(), "formletter-bench-"));
try {
  let sqlite64 = 0;
  for (const [name, makeStore] of [
    ["memory", () => memoryStore()],
    ["sqlite (WAL, synchronous=FULL)", () => sqliteStore(join(directory, `outbox-${Date.now()}.db`))],
  ] as const) {
    for (const inFlight of [1, 64]) {
      const result = await run(makeStore(), inFlight, 3);
      if (name.startsWith("sqlite") && inFlight === 64) sqlite64 = result.perSecond;
      report(
        `${name}, ${inFlight} in flight`,
        `${figure(result.perSecond)} handles/s · p50 ${result.p50.toFixed(2)} ms · p99 ${result.p99.toFixed(2)} ms (${figure(result.handled)} handled)`,
      );
    }
  }
  report("goal ≥ 5,000 durable handles/s at 64 in flight", sqlite64 >= 5_000 ? "met" : "NOT met");
} finally {
  rmSync(directory, { recursive: true, force: true });
}
