/**
 * catalog.preview() on the seller catalog: the largest bundled ticket (every combination decided), and a
 * generated ticket with 200 records in every collection (counted, then bounded by `limit`). Time per
 * preview, combinations decided per second, and memory: the peak resident size of the process and the
 * heap the result holds.
 */
import { readFileSync } from "node:fs";
import { sellerCatalog } from "../templates/seller.js";
import { figure, report } from "./measure.js";

type Ticket = Record<string, unknown> & { ticketId: string };

const tickets: Ticket[] = readFileSync(new URL("../examples/data/tickets.jsonl", import.meta.url), "utf8")
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line).records as Ticket);
const largest = tickets.reduce((a, b) => (JSON.stringify(b).length > JSON.stringify(a).length ? b : a));

/** 200 records a collection, cloned from the largest ticket's; ids and the *Id joins get the same suffix. */
function generated(size: number): Ticket {
  const ticket: Ticket = { ticketId: "T-GENERATED" };
  for (const [name, value] of Object.entries(largest)) {
    if (name === "ticketId" || !Array.isArray(value)) continue;
    const pool =
      value.length > 0
        ? value
        : ((tickets.find((t) => Array.isArray(t[name]) && (t[name] as unknown[]).length > 0)?.[name] as
            | unknown[]
            | undefined) ?? []);
    ticket[name] = Array.from({ length: pool.length === 0 ? 0 : size }, (_, index) => {
      const record = { ...(pool[index % pool.length] as Record<string, unknown>) };
      for (const [field, fieldValue] of Object.entries(record))
        if ((field === "id" || field.endsWith("Id")) && typeof fieldValue === "string")
          record[field] = `${fieldValue}-${index}`;
      return record;
    });
  }
  return ticket;
}

function measure(label: string, ticket: Ticket, limit: number, rounds: number): void {
  // Warmed up first, so the heap figure is the result's, not the first call's caches and compiled code.
  sellerCatalog.preview(ticket, { limit });
  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  let result = sellerCatalog.preview(ticket, { limit });
  globalThis.gc?.();
  const heapHeld = process.memoryUsage().heapUsed - heapBefore;
  const start = performance.now();
  for (let round = 0; round < rounds; round++) result = sellerCatalog.preview(ticket, { limit });
  const ms = (performance.now() - start) / rounds;
  if (!result.ok) throw new Error(result.problem);
  report(
    `${label}: combinations`,
    `${figure(result.combinations)} (${figure(result.decided)} decided, ${figure(result.more)} more)`,
  );
  report(`${label}: distinct messages, bits`, `${figure(result.messages)}, ${result.bits.toFixed(2)}`);
  report(
    `${label}: time per preview`,
    `${ms.toFixed(1)} ms (${figure((result.decided / ms) * 1000)} decisions/s)`,
  );
  report(
    `${label}: heap held by the result`,
    globalThis.gc ? `${(heapHeld / 1e6).toFixed(2)} MB` : "run node with --expose-gc to measure",
  );
}

process.stdout.write("preview (seller catalog)\n");
const big = generated(200);
measure("largest bundled ticket", largest, 1_000_000, 5);
measure("200 records a collection, limit 1000", big, 1000, 3);
measure("200 records a collection, limit 10000", big, 10_000, 1);
report("peak resident size of the process", `${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
process.stdout.write("\n");
