/**
 * The relay under load: autocannon on loopback for about five seconds against `POST /v1/proposals`,
 * each request a different ticket with its own task token, on SQLite with synchronous=FULL. Afterwards
 * every proposal the relay acknowledged (a 200) must be a decision in the audit log.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { createOutbox, memoryTransport } from "formletter";
import { createRelay } from "formletter/relay";
import { sqliteStore } from "formletter/sqlite";
import { catalog, ticket } from "./fixtures.js";
import { figure, report } from "./measure.js";

const seconds = 5;
const connections = 64;
// More tickets than the relay can take in the time, so no ticket is proposed twice.
const tickets = 60_000;

// Hands each request the next ticket's token and body, and notes the ticket on the connection.
const setupRequestModule = `
const planned = JSON.parse(require("node:fs").readFileSync(require("node:path").join(__dirname, "requests.json"), "utf8"));
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

process.stdout.write(
  "\nrelay — POST /v1/proposals over HTTP, JWT verified, SQLite (WAL, synchronous=FULL)\n",
);
const directory = mkdtempSync(join(tmpdir(), "formletter-bench-relay-"));
const file = join(directory, "relay.db");
try {
  const prepared = Array.from({ length: tickets }, (_, n) => ticket(n));
  const records = new Map(prepared.map((t) => [t.ticketId, t.records]));
  const store = sqliteStore(file);
  const transport = memoryTransport();
  const outbox = createOutbox({
    catalog,
    load: (id) => records.get(id),
    store,
    transports: { email: transport },
  });
  const relay = createRelay({
    outbox,
    secret: "bench-secret-of-at-least-thirty-two-bytes",
  });
  const { url } = await relay.listen({ port: 0 });
  const requests = await Promise.all(
    prepared.map(async (t) => ({
      ticketId: t.ticketId,
      headers: {
        authorization: `Bearer ${await relay.mintTaskToken({ ticketId: t.ticketId, runId: `run-${t.ticketId}`, ttl: 600 })}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ output: t.output, tags: { category: "tracking" } }),
    })),
  );

  // The load runs in a worker thread: on two cores the relay keeps one, as it would with the agent in
  // another process. A worker takes its request hooks as module files, written here beside the data.
  writeFileSync(join(directory, "requests.json"), JSON.stringify(requests));
  writeFileSync(join(directory, "setup-request.cjs"), setupRequestModule);
  writeFileSync(join(directory, "on-response.cjs"), onResponseModule);
  const result = await autocannon({
    url: `${url}/v1/proposals`,
    method: "POST",
    connections,
    duration: seconds,
    workers: 1,
    requests: [
      {
        setupRequest: join(directory, "setup-request.cjs"),
        onResponse: join(directory, "on-response.cjs"),
      },
    ],
  });
  await relay.close();
  await outbox.close();

  // Read back from the file, as another process would: acknowledged means durable.
  const reopened = sqliteStore(file);
  const decided = new Set<string>();
  for await (const event of reopened.queryAudit({ type: "decision" })) {
    if (event.outcome === "send" && event.ticketId !== undefined) decided.add(event.ticketId);
  }
  await reopened.close();
  const acknowledged = new Set(
    existsSync(join(directory, "acknowledged.log"))
      ? readFileSync(join(directory, "acknowledged.log"), "utf8").split("\n").filter(Boolean)
      : [],
  );
  // Every 200 autocannon counted must have been noted, or the check below would pass on too few.
  if (acknowledged.size !== result["2xx"])
    throw new Error(`bench/relay: ${result["2xx"]} answers of 200, but ${acknowledged.size} tickets noted`);
  const missing = [...acknowledged].filter((ticketId) => !decided.has(ticketId));
  const failures = result.errors + result.timeouts + result.non2xx;

  report(
    `${connections} connections, ${seconds} s`,
    `${figure(result.requests.average)} requests/s · p50 ${result.latency.p50} ms · p99 ${result.latency.p99} ms`,
  );
  report(
    "acknowledged / in the audit log / errors",
    `${figure(acknowledged.size)} / ${figure(acknowledged.size - missing.length)} / ${failures}`,
  );
  report("delivered by the transport", figure(transport.sent.length));
  const met =
    result.requests.average >= 3_000 && result.latency.p99 <= 50 && failures === 0 && missing.length === 0;
  report("goal ≥ 3,000 requests/s, p99 ≤ 50 ms, 0 errors, none lost", met ? "met" : "NOT met");
  if (missing.length > 0)
    throw new Error(`bench/relay: ${missing.length} acknowledged proposals are not in the audit log`);
} finally {
  rmSync(directory, { recursive: true, force: true });
}
