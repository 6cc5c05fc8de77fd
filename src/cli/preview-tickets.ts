import { readFileSync } from "node:fs";
import { CliError } from "./output.js";

/** Sample tickets for the preview page: each one's records, and the id it is listed by. */
export interface SampleTickets {
  readonly records: readonly unknown[];
  readonly ids: readonly string[];
  /** Lines of a history file that were not a ticket with records, skipped. */
  readonly skipped: number;
}

/** Most tickets read from a file: a page lists them all, and a reviewer reads a few. */
export const maxSampleTickets = 1000;

/**
 * Reads `--records` (one ticket's records, or an array of them) or `--history` (JSON lines of
 * `{ ticketId, records, … }`, as `formletter replay` reads). Records are not validated here: an invalid
 * ticket is shown on the page as one, by the preview.
 */
export function readSampleTickets(options: { records?: string; history?: string }): SampleTickets {
  if (options.records !== undefined && options.history !== undefined)
    throw new CliError("pass --records or --history, not both");
  if (options.records !== undefined) {
    const parsed = parseJson(readText(options.records), options.records);
    const list = Array.isArray(parsed) ? parsed.slice(0, maxSampleTickets) : [parsed];
    return { records: list, ids: list.map((records, index) => idOf(records, index)), skipped: 0 };
  }
  if (options.history !== undefined) {
    const records: unknown[] = [];
    let skipped = 0;
    for (const line of readText(options.history).split("\n")) {
      if (line.trim() === "" || records.length >= maxSampleTickets) continue;
      let entry: unknown;
      try {
        entry = JSON.parse(line);
      } catch {
        skipped += 1;
        continue;
      }
      const found = ticketOf(entry);
      if (found === undefined) skipped += 1;
      else records.push(found);
    }
    return { records, ids: records.map((ticket, index) => idOf(ticket, index)), skipped };
  }
  return { records: [], ids: [], skipped: 0 };
}

/** A history line's records, with the line's ticket id where the records leave it out. */
function ticketOf(entry: unknown): unknown {
  if (typeof entry !== "object" || entry === null || !Object.hasOwn(entry, "records")) return undefined;
  const { records, ticketId } = entry as { records: unknown; ticketId?: unknown };
  if (typeof records !== "object" || records === null || Array.isArray(records)) return records;
  if (Object.hasOwn(records, "ticketId") || typeof ticketId !== "string") return records;
  return { ticketId, ...records };
}

function idOf(records: unknown, index: number): string {
  const id =
    typeof records === "object" && records !== null && Object.hasOwn(records, "ticketId")
      ? (records as { ticketId: unknown }).ticketId
      : undefined;
  return typeof id === "string" && id.length > 0 ? id.slice(0, 80) : `ticket ${index + 1}`;
}

function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    throw new CliError(`cannot read ${file}`);
  }
}

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new CliError(
      `${file} is not JSON: pass one ticket's records, { "ticketId": …, "<collection>": [ … ] }, or an array of them`,
    );
  }
}
