/**
 * The module `formletter serve --catalog` loads: the catalog, and `load(ticketId)`, which reads a
 * ticket's records from your system of record. Here the records are the demo's recorded tickets; in a
 * service, `load` queries your database. The agent never sees this module or anything it returns,
 * except as handles and labels through the relay.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { sellerCatalog } from "../../templates/seller.js";

export const catalog = sellerCatalog;

const history = fileURLToPath(new URL("../data/tickets.jsonl", import.meta.url));
const records = new Map<string, unknown>();
for (const line of readFileSync(history, "utf8").split("\n")) {
  if (line.trim() === "") continue;
  const ticket = JSON.parse(line) as { ticketId: string; records: unknown };
  records.set(ticket.ticketId, ticket.records);
}

/** The ticket's records, or undefined for a ticket the system does not know (the relay escalates it). */
export function load(ticketId: string): unknown {
  return records.get(ticketId);
}
