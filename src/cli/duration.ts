import { timeAgo } from "../core/message/time-ago.js";
import { CliError } from "./output.js";

/**
 * A point in time from the command line: "7d", "24h", "30m", "2w" ago, or an ISO 8601 date or time
 * ("2026-03-01", "2026-03-01T12:00:00Z"). Epoch milliseconds.
 */
export function parseTime(text: string, option: string, now: number): number {
  const relative = timeAgo(text, now);
  if (relative !== undefined) return relative;
  const at = /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : Number.NaN;
  if (!Number.isFinite(at)) {
    throw new CliError(
      `${option} ${text}: give a duration such as 7d, 24h, 30m, 2w, or an ISO date such as 2026-03-01`,
    );
  }
  return at;
}

/** A positive number of tickets a day from `--volume`. */
export function parseVolume(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const volume = Number(text);
  if (!Number.isFinite(volume) || volume < 0)
    throw new CliError(`--volume ${text}: give tickets a day, e.g. 250`);
  return volume;
}
