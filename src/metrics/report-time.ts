import { timeAgo } from "../core/message/time-ago.js";
import { isReportableTime } from "./history.js";

// "2026-03-01", "2026-03-01T12:00", "2026-03-01T12:00:00", "2026-03-01T12:00:00.250", each with an
// optional "Z" or "+02:00" offset (none means UTC). Each field is checked against the calendar below,
// not left to Date.parse, which turns 2026-02-30 into 2 March and reads a time without an offset as
// the server's local time.
const isoForm =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|[+-]\d{2}:\d{2})?)?$/i;

function daysIn(year: number, month: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month, 0);
  return date.getUTCDate();
}

function isoInstant(text: string): number | undefined {
  const match = isoForm.exec(text);
  if (match === null) return undefined;
  const [year, month, day, hour = 0, minute = 0, second = 0] = match
    .slice(1, 7)
    .map((part) => Number(part ?? 0));
  const millisecond = Number((match[7] ?? "").padEnd(3, "0"));
  if (
    year === undefined ||
    month === undefined ||
    day === undefined ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > daysIn(year, month) ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  )
    return undefined;
  let offset = 0;
  const zone = match[8];
  if (zone !== undefined && zone.toUpperCase() !== "Z") {
    const hours = Number(zone.slice(1, 3));
    const minutes = Number(zone.slice(4, 6));
    if (hours > 23 || minutes > 59) return undefined;
    offset = (zone.startsWith("-") ? -1 : 1) * (hours * 60 + minutes) * 60_000;
  }
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millisecond);
  return date.getTime() - offset;
}

/**
 * A point in time for a report's window (`formletter report --since/--until`, the relay's `since` and
 * `until`): a time ago ("30m", "24h", "7d", "2w") before `now`, an ISO 8601 date or time (a date alone
 * is midnight UTC; a time without an offset is UTC), or epoch milliseconds. Undefined for anything else,
 * and for an instant outside the years 0000 to 9999 that a report can place on a day.
 */
export function reportTime(text: string, now: number): number | undefined {
  const at = timeAgo(text, now) ?? (/^\d{1,16}$/.test(text) ? Number(text) : isoInstant(text));
  return at !== undefined && isReportableTime(at) ? at : undefined;
}
