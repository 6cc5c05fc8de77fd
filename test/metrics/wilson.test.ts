import { describe, expect, it } from "vitest";
import { wilsonInterval, z95 } from "../../src/metrics/index.js";

describe("wilsonInterval", () => {
  // Newcombe RG (1998), "Two-sided confidence intervals for the single proportion: comparison of seven
  // methods", Statistics in Medicine 17:857–872, Table II, method 3 (score interval, no continuity correction).
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])("%i of %i is [%f, %f] (Newcombe 1998)", (successes, trials, low, high) => {
    const interval = wilsonInterval(successes, trials);
    expect(interval.low).toBeCloseTo(low, 4);
    expect(interval.high).toBeCloseTo(high, 4);
  });

  // By hand, with z = 1.959964 (z² = 3.841459), center = (p + z²/2n) / (1 + z²/n),
  // half = z / (1 + z²/n) · √(p(1−p)/n + z²/4n²):
  //  5 of 10:   1 + z²/n = 1.384146; center = 0.692073 / 1.384146 = 0.5;
  //             half = 1.416010 · √(0.025 + 0.009604) = 1.416010 · 0.186022 = 0.263407
  //  0 of 10:   center = 0.192073 / 1.384146 = 0.138766 = half → [0, 0.277533]
  // 10 of 10:   the mirror image of 0 of 10 → [0.722467, 1]
  // 50 of 100:  1 + z²/n = 1.038415; center 0.5; half = 1.887457 · √(0.0025 + 0.0000960) = 0.096168
  it.each([
    [5, 10, 0.236593, 0.763407],
    [0, 10, 0, 0.277533],
    [10, 10, 0.722467, 1],
    [50, 100, 0.403832, 0.596168],
  ])("%i of %i is [%f, %f] (by hand)", (successes, trials, low, high) => {
    const interval = wilsonInterval(successes, trials);
    expect(interval.low).toBeCloseTo(low, 5);
    expect(interval.high).toBeCloseTo(high, 5);
  });

  it("is exactly 0 at no successes and exactly 1 at all, never outside [0, 1]", () => {
    for (let trials = 1; trials <= 60; trials++) {
      expect(wilsonInterval(0, trials).low).toBe(0);
      expect(wilsonInterval(trials, trials).high).toBe(1);
      for (let successes = 0; successes <= trials; successes++) {
        const { low, high } = wilsonInterval(successes, trials);
        expect(low).toBeGreaterThanOrEqual(0);
        expect(high).toBeLessThanOrEqual(1);
        expect(low).toBeLessThanOrEqual(successes / trials);
        expect(high).toBeGreaterThanOrEqual(successes / trials);
        // Symmetric: the interval of the failures is the mirror image.
        const mirror = wilsonInterval(trials - successes, trials);
        expect(low).toBeCloseTo(1 - mirror.high, 12);
      }
    }
  });

  it("knows nothing without trials, and narrows as trials grow", () => {
    expect(wilsonInterval(0, 0)).toEqual({ low: 0, high: 1 });
    const widths = [10, 100, 1_000, 10_000].map((n) => {
      const { low, high } = wilsonInterval(n / 10, n);
      return high - low;
    });
    expect(widths).toEqual([...widths].sort((a, b) => b - a));
  });

  it("takes another z (a 99% interval is wider)", () => {
    const ninetyFive = wilsonInterval(30, 100, z95);
    const ninetyNine = wilsonInterval(30, 100, 2.5758293035489);
    expect(ninetyNine.low).toBeLessThan(ninetyFive.low);
    expect(ninetyNine.high).toBeGreaterThan(ninetyFive.high);
  });

  it.each([
    [-1, 10],
    [11, 10],
    [1.5, 10],
    [1, Number.NaN],
  ])("refuses %f of %f", (successes, trials) => {
    expect(() => wilsonInterval(successes, trials)).toThrow(RangeError);
  });
});
