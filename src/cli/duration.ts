import { reportTime } from "../metrics/report-time.js";
import { CliError } from "./output.js";

/**
 * A point in time from the command line, as the relay's report takes it: "7d", "24h", "30m", "2w" ago,
 * an ISO 8601 date or time ("2026-03-01", "2026-03-01T12:00:00Z"), or epoch milliseconds, within the
 * years 0000 to 9999. A refusal names the option and the forms, never the text given.
 */
export function parseTime(text: string, option: "--since" | "--until", now: number): number {
  const at = reportTime(text, now);
  if (at === undefined) {
    throw new CliError(
      `${option}: give a duration such as 7d, 24h, 30m, 2w, an ISO date such as 2026-03-01, or epoch milliseconds, within the years 0000 to 9999`,
    );
  }
  return at;
}

/** A positive number of tickets a day from `--volume`. */
export function parseVolume(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const volume = Number(text);
  if (!Number.isFinite(volume) || volume < 0) throw new CliError("--volume: give tickets a day, e.g. 250");
  return volume;
}
