/**
 * Whether the predicted escalation rate can be planned on: a company staffs its human queue from it, so
 * one corpus where it happens to match is not evidence. Over many generated corpora this counts how
 * often the reported 95% interval holds the true share (free-form messages plus messages to recipients no
 * record holds) and how far the prediction strays at worst.
 */
import type { MiningReport } from "formletter/mine";

export interface RateOutcome {
  readonly predicted: number;
  readonly low: number;
  readonly high: number;
  readonly truth: number;
}

/** Goals: the prediction within this many points of the truth… */
export const rateGoalPoints = 2;
/** …and its interval holding the truth on at least this share of corpora. */
export const rateGoalHeld = 0.95;

/**
 * The full catalog's predicted rate beside the truth. A history with no templatable cluster predicts
 * that every message escalates, as the catalog would be empty.
 */
export function rateOutcome(report: MiningReport, escalating: number, messages: number): RateOutcome {
  const full = report.coverage.at(-1);
  return {
    predicted: full?.escalationRate ?? 1,
    low: full?.interval.low ?? 1,
    high: full?.interval.high ?? 1,
    truth: messages === 0 ? 0 : escalating / messages,
  };
}

export const holdsTruth = (outcome: RateOutcome): boolean =>
  outcome.low <= outcome.truth && outcome.truth <= outcome.high;

/** Over several corpora: how many intervals held the truth, and the largest and mean |predicted − true|. */
export function rateCoverage(outcomes: readonly RateOutcome[]): {
  corpora: number;
  held: number;
  worst: number;
  mean: number;
} {
  const differences = outcomes.map((outcome) => Math.abs(outcome.predicted - outcome.truth));
  return {
    corpora: outcomes.length,
    held: outcomes.filter(holdsTruth).length,
    worst: Math.max(0, ...differences),
    mean: differences.reduce((sum, difference) => sum + difference, 0) / Math.max(1, outcomes.length),
  };
}
