import { describe, expect, it } from "vitest";
import { holdsTruth, rateCoverage, rateOutcome } from "../../bench/mining/rate-coverage.js";
import type { MiningReport } from "../../src/mine/index.js";

const reportWith = (coverage: readonly { escalationRate: number; low: number; high: number }[]) =>
  ({
    coverage: coverage.map(({ escalationRate, low, high }, at) => ({
      k: at + 1,
      escalationRate,
      interval: { low, high },
    })),
  }) as unknown as MiningReport;

describe("rateOutcome and rateCoverage", () => {
  it("takes the full catalog's prediction, the last point of the curve", () => {
    const report = reportWith([
      { escalationRate: 0.5, low: 0.45, high: 0.55 },
      { escalationRate: 0.2, low: 0.18, high: 0.22 },
    ]);
    expect(rateOutcome(report, 19, 100)).toEqual({ predicted: 0.2, low: 0.18, high: 0.22, truth: 0.19 });
  });

  it("predicts that everything escalates when no cluster could be a template", () => {
    expect(rateOutcome(reportWith([]), 10, 100)).toMatchObject({ predicted: 1, truth: 0.1 });
  });

  it("counts the intervals that hold the truth, bounds included, and the largest and mean distance", () => {
    const outcomes = [
      { predicted: 0.2, low: 0.18, high: 0.22, truth: 0.22 },
      { predicted: 0.2, low: 0.18, high: 0.22, truth: 0.23 },
      { predicted: 0.3, low: 0.28, high: 0.32, truth: 0.25 },
    ];
    expect(outcomes.map(holdsTruth)).toEqual([true, false, false]);
    const coverage = rateCoverage(outcomes);
    expect(coverage).toMatchObject({ corpora: 3, held: 1 });
    expect(coverage.worst).toBeCloseTo(0.05, 12);
    expect(coverage.mean).toBeCloseTo((0.02 + 0.03 + 0.05) / 3, 12);
  });

  it("gives zeros, not NaN, for no corpora", () => {
    expect(rateCoverage([])).toEqual({ corpora: 0, held: 0, worst: 0, mean: 0 });
  });
});
