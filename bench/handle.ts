/**
 * outbox.handle() in CPU time: load (from memory), decide, one transaction on the memory store and
 * delivery to an in-process transport, one call at a time. CPU time, not wall time, so the figure
 * holds on a busy machine; the best of several rounds.
 */
import { createOutbox, memoryStore, memoryTransport } from "formletter";
import { catalog, ticket } from "./fixtures.js";
import { report } from "./measure.js";

const perRound = 4_000;
const rounds = 9;

async function round(start: number): Promise<number> {
  const tickets = Array.from({ length: perRound }, (_, i) => ticket(start + i));
  const byId = new Map(tickets.map((t) => [t.ticketId, t.records]));
  const outbox = createOutbox({
    catalog,
    load: (id) => byId.get(id),
    store: memoryStore(),
    transports: { email: memoryTransport() },
  });
  const before = process.cpuUsage();
  for (const t of tickets) {
    const result = await outbox.handle({
      ticketId: t.ticketId,
      output: t.output,
      runId: `run-${t.ticketId}`,
    });
    if (result.delivery?.status !== "delivered")
      throw new Error(`not delivered: ${JSON.stringify(result.decision)}`);
  }
  const used = process.cpuUsage(before);
  await outbox.close();
  return (used.user + used.system) / perRound;
}

process.stdout.write("\noutbox.handle() — memory store, in-process transport, one call at a time\n");
let best = Number.POSITIVE_INFINITY;
for (let r = 0; r < rounds; r++) best = Math.min(best, await round(r * perRound));
report(`CPU µs a handle(), best of ${rounds} rounds`, best.toFixed(2));
