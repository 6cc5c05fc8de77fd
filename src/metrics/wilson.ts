/** A two-sided confidence interval for a proportion, as fractions from 0 to 1. */
export interface Interval {
  readonly low: number;
  readonly high: number;
}

/** The z of a two-sided 95% interval: the 0.975 quantile of the standard normal distribution. */
export const z95 = 1.959963984540054;

/**
 * The Wilson score interval of `successes` out of `trials`. Unlike the textbook `p ± z·√(p(1−p)/n)`, it
 * stays inside [0, 1] and is not zero-width at 0 or n: a catalog that escalated 0 of 20 tickets has an
 * upper bound of 16%, not 0%. With no trials it is [0, 1]: nothing is known yet.
 *
 * @example
 * import { wilsonInterval } from "formletter/metrics";
 * wilsonInterval(81, 263); // { low: 0.2553, high: 0.3662 } (Newcombe 1998)
 */
export function wilsonInterval(successes: number, trials: number, z: number = z95): Interval {
  if (!Number.isInteger(trials) || trials < 0 || !Number.isInteger(successes) || successes < 0) {
    throw new RangeError(`wilsonInterval: successes and trials must be whole numbers ≥ 0`);
  }
  if (successes > trials) {
    throw new RangeError(`wilsonInterval: ${successes} successes out of ${trials} trials`);
  }
  if (!(z > 0)) throw new RangeError("wilsonInterval: z must be positive");
  if (trials === 0) return { low: 0, high: 1 };
  const p = successes / trials;
  const z2 = z * z;
  const denominator = 1 + z2 / trials;
  const center = (p + z2 / (2 * trials)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  // At 0 and n the bound is exactly 0 or 1; rounding would otherwise leave ±1e-17.
  return {
    low: successes === 0 ? 0 : Math.max(0, center - half),
    high: successes === trials ? 1 : Math.min(1, center + half),
  };
}
