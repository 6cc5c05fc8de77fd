import { tagLimits } from "../core/definition/tags.js";

/**
 * The times a report can place on a day: years 0000 to 9999, whose days are "YYYY-MM-DD". Outside
 * them a Date may not exist at all (past ±8.64e15 ms), and a day key would not be ISO 8601's.
 */
export const timeRange = { min: -62_167_219_200_000, max: 253_402_300_799_999 } as const;

/** True for epoch milliseconds inside {@link timeRange}. */
export function isReportableTime(at: number): boolean {
  return at >= timeRange.min && at <= timeRange.max;
}

/** One ticket of a history file: the records as loaded, what the model answered, tags and time. */
export interface HistoryTicket {
  readonly ticketId: string;
  readonly records: unknown;
  readonly output: unknown;
  readonly tags: Readonly<Record<string, string>> | undefined;
  /** Epoch milliseconds, from `at` (ISO 8601 or epoch milliseconds); undefined without `at`. */
  readonly at: number | undefined;
}

/**
 * Reads one line of a history file (`{ ticketId, records, output, tags?, at? }`). A line that is not
 * one is a `problem`, never an exception: one bad line must not stop a replay of a million. With
 * `needsOutput` false, a line without `output` is a ticket too (its `output` undefined): a tickets file.
 */
export function parseHistoryLine(
  text: string,
  needsOutput = true,
): HistoryTicket | { readonly problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: "not JSON" };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { problem: "not an object" };
  const line = value as Record<string, unknown>;
  if (typeof line.ticketId !== "string" || line.ticketId === "") return { problem: "no ticketId string" };
  if (!Object.hasOwn(line, "records")) return { problem: "no records" };
  if (needsOutput && !Object.hasOwn(line, "output")) return { problem: "no output" };
  let at: number | undefined;
  if (line.at !== undefined && line.at !== null) {
    at =
      typeof line.at === "number" ? line.at : typeof line.at === "string" ? Date.parse(line.at) : Number.NaN;
    if (!Number.isFinite(at)) return { problem: "at is neither an ISO 8601 time nor epoch milliseconds" };
    if (!isReportableTime(at)) return { problem: "at is outside the years 0000 to 9999" };
  }
  return { ticketId: line.ticketId, records: line.records, output: line.output, tags: tagsOf(line.tags), at };
}

/**
 * String tags only, cut to the outbox's limits (`tagLimits`: at most 20, names 40 and values 200), so a
 * hostile file cannot make the group keys large. A plain loop: this runs once per line of a replay.
 */
function tagsOf(value: unknown): Readonly<Record<string, string>> | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  let tags: Record<string, string> | undefined;
  let count = 0;
  for (const name in value) {
    if (!Object.hasOwn(value, name)) continue;
    const tag = (value as Record<string, unknown>)[name];
    if (typeof tag !== "string") continue;
    tags ??= {};
    const key = name.length > tagLimits.nameLength ? name.slice(0, tagLimits.nameLength) : name;
    const cut = tag.length > tagLimits.valueLength ? tag.slice(0, tagLimits.valueLength) : tag;
    // Assigning "__proto__" would set the prototype; defineProperty keeps it a plain key.
    if (key === "__proto__")
      Object.defineProperty(tags, key, { value: cut, enumerable: true, writable: true });
    else tags[key] = cut;
    if (++count === tagLimits.count) break;
  }
  return tags;
}
