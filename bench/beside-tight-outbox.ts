/**
 * What handle() costs beyond the durable work it must do: handle() on SQLite beside the hand-written
 * outbox of bench/tight-outbox.ts on the same file engine, and handle() on the memory store beside
 * decide() alone on the same tickets. All at 64 calls in flight, the contenders taking turns round after
 * round in one process, so a busy spell of the machine falls on each, and each taking each place in the
 * order once: whoever runs first after a memory store has closed would otherwise pay for its collection.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { createOutbox, memoryStore, memoryTransport, type Store } from "formletter";
import { sqliteStore } from "formletter/sqlite";
import { catalog, ticket } from "./fixtures.js";
import { bytesWritten, figure, report } from "./measure.js";
import { createTightOutbox } from "./tight-outbox.js";

type Ticket = ReturnType<typeof ticket>;
/** One contender: handles a ticket, true once its message is delivered; `close` checks what was sent. */
type Contender = {
  readonly handle: (t: Ticket) => Promise<boolean>;
  readonly close: () => Promise<number>;
};

const inFlight = 64;
const seconds = 1.5;
// The warm-up is a count, not a time: each contender's one-time starts (a store's checkpoint worker
// starts after so many pages of WAL) fall before the clock however busy the machine is.
const warmUpHandles = 4_000;
const rounds = 3;
// A run that empties the pool ends early, and is timed as it ran. Its 30,000 new handles stay within the
// catalog's handle cache (50,000), so decide() inside handle() finds them as decide() alone does below.
const poolSize = 15_000;
let next = 0;
// Each timed run starts on a collected heap: a contender's retained state (the memory store keeps every
// row) becomes garbage when it closes, and would otherwise be collected inside the next one's timing.
setFlagsFromString("--expose-gc");
const collect = runInNewContext("gc") as () => void;
const made = (count: number) => Array.from({ length: count }, () => ticket(next++));

/** Handles tickets with `inFlight` callers for `seconds` after a warm-up: calls and CPU seconds timed. */
async function drive(
  make: (tickets: Map<string, Ticket["records"]>) => Contender,
): Promise<{ handled: number; seconds: number; cpu: number; written: number }> {
  const tickets = new Map<string, Ticket["records"]>();
  const contender = make(tickets);
  let handled = 0;
  // Tickets are made before the clock starts (making one computes its handles, as a model's tools
  // would): what is timed is the handling alone.
  let pool: Ticket[] = [];
  const worker = (deadline: number) => async () => {
    while (performance.now() < deadline) {
      const t = pool.pop();
      if (t === undefined) break;
      tickets.set(t.ticketId, t.records);
      if (!(await contender.handle(t))) throw new Error(`bench: ${t.ticketId} was not delivered`);
      tickets.delete(t.ticketId);
      handled++;
    }
  };
  pool = made(warmUpHandles);
  await Promise.all(Array.from({ length: inFlight }, worker(Number.POSITIVE_INFINITY)));
  const warm = handled;
  pool = made(poolSize);
  collect();
  const cpuBefore = process.cpuUsage();
  const writtenBefore = bytesWritten() ?? 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: inFlight }, worker(started + seconds * 1000)));
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const written = (bytesWritten() ?? 0) - writtenBefore;
  if ((await contender.close()) !== handled) throw new Error("bench: a message was not sent exactly once");
  return { handled: handled - warm, seconds: elapsed, cpu: (cpu.user + cpu.system) / 1e6, written };
}

const viaHandle =
  (store: () => Store) =>
  (tickets: Map<string, Ticket["records"]>): Contender => {
    const transport = memoryTransport();
    const outbox = createOutbox({
      catalog,
      load: (id) => tickets.get(id),
      store: store(),
      transports: { email: transport },
    });
    return {
      handle: async (t) =>
        (await outbox.handle({ ticketId: t.ticketId, output: t.output, runId: `run-${t.ticketId}` })).delivery
          ?.status === "delivered",
      close: async () => {
        await outbox.close();
        return transport.sent.length;
      },
    };
  };

const directory = mkdtempSync(join(tmpdir(), "formletter-bench-tight-"));
let files = 0;
const contenders = [
  ["handle(), sqlite", viaHandle(() => sqliteStore(join(directory, `handle-${++files}.db`)))],
  [
    "tight outbox, sqlite",
    (tickets: Map<string, Ticket["records"]>): Contender => {
      const transport = memoryTransport();
      const outbox = createTightOutbox({
        file: join(directory, `tight-${++files}.db`),
        catalog,
        load: (id) => tickets.get(id),
        transport,
      });
      return {
        handle: async (t) =>
          (await outbox.handle({ ticketId: t.ticketId, output: t.output, runId: `run-${t.ticketId}` }))
            .outcome === "delivered",
        close: async () => {
          await outbox.close();
          return transport.sent.length;
        },
      };
    },
  ],
  ["handle(), memory", viaHandle(() => memoryStore())],
] as const;

/** decide() alone, CPU seconds a call, on tickets made as the contenders' are (best of 5 rounds). */
function decideCpu(prepared: boolean): number {
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 5; round++) {
    const tickets = made(4_000);
    const inputs = tickets.map((t) => {
      if (!prepared) return t.records;
      const ready = catalog.prepare(t.records);
      if (!ready.ok) throw new Error(`bench: ${ready.problem}`);
      return ready.ticket;
    });
    const before = process.cpuUsage();
    for (const [index, t] of tickets.entries()) {
      if (catalog.decide(t.output, inputs[index]).outcome !== "send") throw new Error("bench: not sent");
    }
    const used = process.cpuUsage(before);
    best = Math.min(best, (used.user + used.system) / 1e6 / tickets.length);
  }
  return best;
}

process.stdout.write(
  `\nhandle() beside a hand-written outbox — ${inFlight} in flight, ${rounds} rounds, each contender once in each place of the order\n`,
);
try {
  const totals = new Map<string, { handled: number; seconds: number; cpu: number; written: number }>();
  let decideRaw = Number.POSITIVE_INFINITY;
  let decidePrepared = Number.POSITIVE_INFINITY;
  for (let round = 0; round < rounds; round++) {
    // Each contender takes each place in the order once over the rounds.
    for (const [name, make] of contenders.map(
      (_, index) => contenders[(index + round) % contenders.length] as (typeof contenders)[number],
    )) {
      const result = await drive(make);
      const total = totals.get(name) ?? { handled: 0, seconds: 0, cpu: 0, written: 0 };
      totals.set(name, {
        handled: total.handled + result.handled,
        seconds: total.seconds + result.seconds,
        cpu: total.cpu + result.cpu,
        written: total.written + result.written,
      });
    }
    decideRaw = Math.min(decideRaw, decideCpu(false));
    decidePrepared = Math.min(decidePrepared, decideCpu(true));
  }
  const perSecond = (name: string) => {
    const total = totals.get(name);
    return total === undefined ? 0 : total.handled / total.seconds;
  };
  const cpuEach = (name: string) => {
    const total = totals.get(name);
    return total === undefined ? 0 : (total.cpu / total.handled) * 1e6;
  };
  // Bytes handed to write calls (the WAL, checkpoints): unlike a time, steady however busy the machine.
  const writtenEach = (name: string) => {
    const total = totals.get(name);
    // The memory store writes nothing of its own.
    return total === undefined || total.written / total.handled < 100
      ? ""
      : ` · ${(total.written / total.handled / 1024).toFixed(1)} KB written each`;
  };
  for (const [name] of contenders)
    report(
      name,
      `${figure(perSecond(name))} handles/s · ${cpuEach(name).toFixed(1)} µs CPU each${writtenEach(name)}`,
    );
  report("decide() alone, records as loaded", `${(decideRaw * 1e6).toFixed(1)} µs CPU each`);
  report("decide() alone, prepared ticket", `${(decidePrepared * 1e6).toFixed(1)} µs CPU each`);
  const verdict = (met: boolean) => (met ? "met" : "NOT met");
  const speed = perSecond("handle(), sqlite") / perSecond("tight outbox, sqlite");
  report("handle()/tight handles/s (goal ≥ 0.67)", `${speed.toFixed(2)} ${verdict(speed >= 0.67)}`);
  const cpu = cpuEach("handle(), sqlite") / cpuEach("tight outbox, sqlite");
  report("handle()/tight CPU a handle (goal ≤ 1.5)", `${cpu.toFixed(2)} ${verdict(cpu <= 1.5)}`);
  const overDecide = cpuEach("handle(), memory") / (decideRaw * 1e6);
  report(
    "handle(), memory / decide() CPU (goal ≤ 4)",
    `${overDecide.toFixed(2)} ${verdict(overDecide <= 4)}`,
  );
  report(
    "  the same against decide() on a prepared ticket",
    (cpuEach("handle(), memory") / (decidePrepared * 1e6)).toFixed(2),
  );
} finally {
  rmSync(directory, { recursive: true, force: true });
}
