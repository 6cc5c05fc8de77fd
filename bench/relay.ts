/**
 * The relay under load: autocannon on loopback against `POST /v1/proposals`, each request a different
 * ticket with its own task token, on the memory store and on SQLite (durable: every acknowledged proposal
 * on disk before its reply), taking turns in one run. Afterwards every proposal the relay acknowledged (a
 * 200) must be a decision in the audit log, read back from the file for SQLite.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { createOutbox, memoryStore, memoryTransport, type Store } from "formletter";
import { createRelay } from "formletter/relay";
import { sqliteStore } from "formletter/sqlite";
import { catalog, ticket } from "./fixtures.js";
import { figure, report } from "./measure.js";

const seconds = 4;
const rounds = 2;
// Each store first serves an untimed second: code's first calls and the collection of what the set-up
// left in memory fall there, not on whichever store happens to be timed first.
const warmUpSeconds = 1;
const connections = 64;
// More tickets than the relay can take in the time, so no ticket is proposed twice in one run.
const tickets = 60_000;

// Hands each request the next ticket's token and body, and notes the ticket on the connection.
const setupRequestModule = `
const planned = JSON.parse(require("node:fs").readFileSync(require("node:path").join(__dirname, "..", "requests.json"), "utf8"));
let next = 0;
module.exports = (request, context) => {
  const entry = planned[next++];
  if (entry === undefined) throw new Error("bench/relay: ran out of tickets");
  context.ticketId = entry.ticketId;
  return { ...request, headers: entry.headers, body: entry.body };
};
`;

// Appends each acknowledged ticket to a file the bench reads afterwards.
const onResponseModule = `
const fs = require("node:fs");
const fd = fs.openSync(require("node:path").join(__dirname, "acknowledged.log"), "a");
module.exports = (status, _body, context) => {
  if (status === 200 && context.ticketId !== undefined) fs.writeSync(fd, context.ticketId + "\\n");
};
`;

interface Round {
  readonly requestsPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly acknowledged: number;
  readonly missing: number;
  readonly failures: number;
}

process.stdout.write("\nrelay — POST /v1/proposals over HTTP, JWT verified, memory and SQLite in turns\n");
const directory = mkdtempSync(join(tmpdir(), "formletter-bench-relay-"));
try {
  const prepared = Array.from({ length: tickets }, (_, n) => ticket(n));
  const records = new Map(prepared.map((t) => [t.ticketId, t.records]));
  const secret = "bench-secret-of-at-least-thirty-two-bytes";
  // Tokens are minted once, by a relay with the same secret as every relay below.
  const minter = createRelay({
    outbox: createOutbox({ catalog, load: (id) => records.get(id), store: memoryStore(), mode: "shadow" }),
    secret,
  });
  const requests = await Promise.all(
    prepared.map(async (t) => ({
      ticketId: t.ticketId,
      headers: {
        authorization: `Bearer ${await minter.mintTaskToken({ ticketId: t.ticketId, runId: `run-${t.ticketId}`, ttl: 600 })}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ output: t.output, tags: { category: "tracking" } }),
    })),
  );
  writeFileSync(join(directory, "requests.json"), JSON.stringify(requests));

  let runs = 0;
  const round = async (kind: "memory" | "sqlite", duration = seconds): Promise<Round> => {
    // A worker takes its request hooks as module files: written per run, beside the run's own log.
    const runDirectory = join(directory, `run-${++runs}`);
    mkdirSync(runDirectory);
    writeFileSync(join(runDirectory, "setup-request.cjs"), setupRequestModule);
    writeFileSync(join(runDirectory, "on-response.cjs"), onResponseModule);
    const file = join(runDirectory, "relay.db");
    const store: Store = kind === "memory" ? memoryStore() : sqliteStore(file);
    const transport = memoryTransport();
    const outbox = createOutbox({
      catalog,
      load: (id) => records.get(id),
      store,
      transports: { email: transport },
    });
    const relay = createRelay({ outbox, secret });
    const { url } = await relay.listen({ port: 0 });
    // The load runs in a worker thread: on two cores the relay keeps one, as it would with the agent in
    // another process.
    const result = await autocannon({
      url: `${url}/v1/proposals`,
      method: "POST",
      connections,
      duration,
      workers: 1,
      requests: [
        {
          setupRequest: join(runDirectory, "setup-request.cjs"),
          onResponse: join(runDirectory, "on-response.cjs"),
        },
      ],
    });
    await relay.close();
    const decided = new Set<string>();
    const readDecisions = async (from: Store) => {
      for await (const event of from.queryAudit({ type: "decision" })) {
        if (event.outcome === "send" && event.ticketId !== undefined) decided.add(event.ticketId);
      }
    };
    if (kind === "memory") {
      await readDecisions(store);
      await outbox.close();
    } else {
      await outbox.close();
      // Read back from the file, as another process would: acknowledged means durable.
      const reopened = sqliteStore(file);
      await readDecisions(reopened);
      await reopened.close();
    }
    const log = join(runDirectory, "acknowledged.log");
    const acknowledged = new Set(
      existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : [],
    );
    // Every 200 autocannon counted must have been noted, or the check below would pass on too few.
    if (acknowledged.size !== result["2xx"])
      throw new Error(`bench/relay: ${result["2xx"]} answers of 200, but ${acknowledged.size} tickets noted`);
    const missing = [...acknowledged].filter((ticketId) => !decided.has(ticketId)).length;
    if (transport.sent.length < acknowledged.size - missing)
      throw new Error("bench/relay: an acknowledged proposal was not delivered");
    return {
      requestsPerSecond: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      acknowledged: acknowledged.size,
      missing,
      failures: result.errors + result.timeouts + result.non2xx,
    };
  };

  const results: Record<"memory" | "sqlite", Round[]> = { memory: [], sqlite: [] };
  for (const kind of ["memory", "sqlite"] as const) await round(kind, warmUpSeconds);
  // The stores take turns, and the one that goes first alternates: memory, SQLite, SQLite, memory…
  for (let n = 0; n < rounds; n++) {
    const order = n % 2 === 0 ? (["memory", "sqlite"] as const) : (["sqlite", "memory"] as const);
    for (const kind of order) results[kind].push(await round(kind));
  }
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  for (const kind of ["memory", "sqlite"] as const) {
    const runsOf = results[kind];
    report(
      `${kind === "memory" ? "memory" : "SQLite (durable)"}, ${connections} connections, ${rounds} × ${seconds} s`,
      `${figure(mean(runsOf.map((r) => r.requestsPerSecond)))} requests/s · p50 ${Math.max(...runsOf.map((r) => r.p50))} ms · p99 ${Math.max(...runsOf.map((r) => r.p99))} ms`,
    );
    report(
      "  acknowledged / in the audit log / errors",
      `${figure(mean(runsOf.map((r) => r.acknowledged)) * rounds)} / ${figure(
        runsOf.reduce((sum, r) => sum + r.acknowledged - r.missing, 0),
      )} / ${runsOf.reduce((sum, r) => sum + r.failures, 0)}`,
    );
  }
  const ratio =
    mean(results.sqlite.map((r) => r.requestsPerSecond)) /
    mean(results.memory.map((r) => r.requestsPerSecond));
  const p99 = Math.max(...results.sqlite.map((r) => r.p99));
  const lost = [...results.memory, ...results.sqlite].reduce((sum, r) => sum + r.missing, 0);
  const failures = [...results.memory, ...results.sqlite].reduce((sum, r) => sum + r.failures, 0);
  report("SQLite/memory requests/s (goal ≥ 0.8)", `${ratio.toFixed(2)} ${ratio >= 0.8 ? "met" : "NOT met"}`);
  report("SQLite p99 (goal ≤ 40 ms)", `${p99} ms ${p99 <= 40 ? "met" : "NOT met"}`);
  report(
    "lost or unaudited proposals, errors (goal 0)",
    `${lost}, ${failures} ${lost + failures === 0 ? "met" : "NOT met"}`,
  );
  if (lost > 0) throw new Error(`bench/relay: ${lost} acknowledged proposals are not in the audit log`);
} finally {
  rmSync(directory, { recursive: true, force: true });
}
