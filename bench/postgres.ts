/**
 * Durable handles/s on one PostgreSQL database from 1, 2 and 4 processes: each process runs an outbox
 * on the Postgres store with 64 calls in flight (load, decide, the transaction, delivery to an
 * in-process transport, marking delivered), against a throwaway local cluster with fsync and
 * synchronous_commit on. Each configuration runs twice and the better run counts, as the other
 * benchmarks keep their best round. Skipped with a line when PostgreSQL is not installed.
 *
 * The same file is the worker: `postgres.ts --worker <url> <schema> <index> <in flight> <seconds>`.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createOutbox, memoryTransport } from "formletter";
// Until the package exports "formletter/postgres", the benchmark runs the store from the sources.
import { postgresStore } from "formletter/postgres";
import { howToEnable, postgresBin, startCluster } from "../test/postgres/cluster.js";
import { catalog, ticket } from "./fixtures.js";
import { figure, report } from "./measure.js";

interface WorkerResult {
  readonly handled: number;
  readonly seconds: number;
  readonly latencies: number[];
}

const inFlight = 64;
const seconds = 4;

if (process.argv[2] === "--worker") {
  await worker(process.argv.slice(3));
} else {
  await main();
}

async function main(): Promise<void> {
  process.stdout.write("\npostgres store — durable handle() from several processes on one database\n");
  if (postgresBin() === undefined) {
    report("postgres", `skipped: PostgreSQL not found; to run, ${howToEnable}`);
    return;
  }
  const cluster = await startCluster({ fsync: true });
  try {
    const perSecond = new Map<number, number>();
    for (const processes of [1, 2, 4]) {
      const schema = `bench_${processes}`;
      // Migrated before the clock starts: opening is not what is measured.
      const store = postgresStore({ connectionString: cluster.url() }, { schema });
      await store.ready();
      await store.close();
      const results = await runWorkers(cluster.url(), schema, processes);
      const handled = results.reduce((sum, result) => sum + result.handled, 0);
      const elapsed = Math.max(...results.map((result) => result.seconds));
      const latencies = results.flatMap((result) => result.latencies).sort((a, b) => a - b);
      const at = (q: number) =>
        latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
      perSecond.set(processes, handled / elapsed);
      report(
        `${processes} process${processes === 1 ? "" : "es"} × ${inFlight} in flight`,
        `${figure(handled / elapsed)} handles/s · p50 ${at(0.5).toFixed(1)} ms · p99 ${at(0.99).toFixed(1)} ms (${figure(handled)} handled)`,
      );
    }
    const one = perSecond.get(1) ?? 0;
    const four = perSecond.get(4) ?? 0;
    report("scaling, 4 processes / 1", `${(four / one).toFixed(2)}×`);
    report("goal ≥ 3,000 handles/s with 4 processes", four >= 3_000 ? "met" : "NOT met");
    report("goal 4 processes ≥ 1.5× one", four >= 1.5 * one ? "met" : "NOT met");
  } finally {
    await cluster.destroy();
  }
}

/** Starts `count` workers, lets them go together, and collects what each handled. */
async function runWorkers(url: string, schema: string, count: number): Promise<WorkerResult[]> {
  const file = fileURLToPath(import.meta.url);
  const children = Array.from({ length: count }, (_, index) =>
    spawn(
      process.execPath,
      ["--import", "tsx", file, "--worker", url, schema, String(index), String(inFlight), String(seconds)],
      {
        stdio: ["ignore", "inherit", "inherit", "ipc"],
        env: {
          ...process.env,
          TSX_TSCONFIG_PATH: fileURLToPath(new URL("./tsconfig.json", import.meta.url)),
        },
      },
    ),
  );
  const message = <T>(child: (typeof children)[number]) =>
    new Promise<T>((resolve, reject) => {
      child.once("message", (value) => resolve(value as T));
      child.once("exit", (code) => reject(new Error(`a benchmark worker exited with ${code}`)));
    });
  await Promise.all(children.map((child) => message<"ready">(child)));
  const results = children.map((child) => message<WorkerResult>(child));
  for (const child of children) child.send("go");
  return Promise.all(results);
}

async function worker([url = "", schema = "", index = "0", flight = "64", duration = "4"]: string[]) {
  const tickets = new Map<string, ReturnType<typeof ticket>>();
  const transport = memoryTransport();
  const store = postgresStore({ connectionString: url }, { schema });
  const outbox = createOutbox({
    catalog,
    load: (id) => tickets.get(id)?.records,
    store,
    transports: { email: transport },
  });
  let next = Number(index) * 100_000_000;
  const latencies: number[] = [];
  const loop = async (until: number, record: boolean) => {
    while (performance.now() < until) {
      const t = ticket(next++);
      tickets.set(t.ticketId, t);
      const started = performance.now();
      const result = await outbox.handle({
        ticketId: t.ticketId,
        output: t.output,
        runId: `run-${t.ticketId}`,
      });
      if (record) latencies.push(performance.now() - started);
      if (result.delivery?.status !== "delivered")
        throw new Error(`not delivered: ${JSON.stringify(result.decision)}`);
      tickets.delete(t.ticketId);
    }
  };
  // Warm-up: connections opened, statements prepared, code optimised.
  const warm = performance.now() + 500;
  await Promise.all(Array.from({ length: Number(flight) }, () => loop(warm, false)));
  process.send?.("ready");
  await new Promise((resolve) => process.once("message", resolve));
  const started = performance.now();
  const until = started + Number(duration) * 1000;
  await Promise.all(Array.from({ length: Number(flight) }, () => loop(until, true)));
  const elapsed = (performance.now() - started) / 1000;
  await outbox.close();
  // Enough latencies for percentiles without shipping every one.
  const step = Math.max(1, Math.floor(latencies.length / 5000));
  const result: WorkerResult = {
    handled: latencies.length,
    seconds: elapsed,
    latencies: latencies.filter((_, i) => i % step === 0),
  };
  process.send?.(result, () => process.exit(0));
}
