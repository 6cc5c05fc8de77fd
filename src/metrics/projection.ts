import { wilsonInterval, z95 } from "./wilson.js";

const dayMs = 86_400_000;

/** Human decisions a day at a ticket volume: the escalation rate and its interval, times the volume. */
export interface Projection {
  /** The ticket volume projected at. */
  readonly ticketsPerDay: number;
  /** "observed": decisions ÷ days observed; "given": passed by the caller (e.g. production volume). */
  readonly basis: "observed" | "given";
  /** Days the observed volume was measured over (calendar days, UTC); absent when the volume was given. */
  readonly days?: number;
  /** The expected number, and the band from the rate's 95% Wilson interval. */
  readonly humanPerDay: { readonly expected: number; readonly low: number; readonly high: number };
}

/**
 * Projects how many tickets a day a person will decide: `ticketsPerDay` × the escalation rate, with the
 * band from its Wilson interval. Only the rate's uncertainty is in the band; the volume is taken as given.
 *
 * @example
 * import { formatBand, projectHumanDecisions } from "formletter/metrics";
 * formatBand(projectHumanDecisions({ escalated: 30, decided: 300 }, 100)); // "7–14 a day"
 */
export function projectHumanDecisions(
  counts: { readonly escalated: number; readonly decided: number },
  ticketsPerDay: number,
  source: { readonly basis: "observed"; readonly days: number } | { readonly basis: "given" } = {
    basis: "given",
  },
): Projection {
  if (!(ticketsPerDay >= 0) || !Number.isFinite(ticketsPerDay)) {
    throw new RangeError("projectHumanDecisions: ticketsPerDay must be a finite number ≥ 0");
  }
  const { low, high } = wilsonInterval(counts.escalated, counts.decided, z95);
  const rate = counts.decided === 0 ? 0 : counts.escalated / counts.decided;
  return {
    ticketsPerDay,
    basis: source.basis,
    ...(source.basis === "observed" ? { days: source.days } : {}),
    humanPerDay: { expected: ticketsPerDay * rate, low: ticketsPerDay * low, high: ticketsPerDay * high },
  };
}

/**
 * Calendar days (UTC) from the day of `first` to the day of `last`, both included: days without a
 * single ticket in between count as days of zero volume, which is what they were.
 */
export function observedDays(first: number, last: number): number {
  return Math.floor(last / dayMs) - Math.floor(first / dayMs) + 1;
}

/**
 * The band as people say it: "8–12 a day". The low end is rounded down and the high end up, so the band
 * never claims more precision than the interval has; under 10 a day, one decimal is kept.
 */
export function formatBand(projection: Projection): string {
  const { low, high } = projection.humanPerDay;
  const small = high < 10;
  const down = (value: number) => (small ? Math.floor(value * 10) / 10 : Math.floor(value));
  const up = (value: number) => (small ? Math.ceil(value * 10) / 10 : Math.ceil(value));
  const show = (value: number) =>
    small ? value.toFixed(1).replace(/\.0$/, "") : Math.round(value).toLocaleString("en-US");
  return `${show(down(low))}–${show(up(high))} a day`;
}
