import { describe, expect, it } from "vitest";
import { niceTicks, percentTick } from "../../src/cli/nice-ticks.js";

/** Whether `step` is 1, 2, 2.5 or 5 times a power of ten. */
function isNiceStep(step: number): boolean {
  const power = 10 ** Math.floor(Math.log10(step) + 1e-9);
  const mantissa = Number((step / power).toPrecision(10));
  return [1, 2, 2.5, 5].includes(mantissa);
}

describe("niceTicks", () => {
  // Rates of every size, among them the 0.7 and 0.35 tops that used to give 17.5% and 52.5% ticks.
  const maxima = [1, 0.97, 0.7, 0.624, 0.525, 0.35, 0.175, 0.12, 0.051, 0.03, 0.0049, 0.00013, 3, 47, 1234];

  it.each(maxima)("covers %s from 0 with nice steps, ending on the first tick at or above it", (max) => {
    const { step, top, ticks } = niceTicks(max);
    expect(isNiceStep(step), `step ${step}`).toBe(true);
    expect(ticks[0]).toBe(0);
    expect(ticks.at(-1)).toBe(top);
    expect(top).toBeGreaterThanOrEqual(max);
    expect(top - step).toBeLessThan(max);
    ticks.forEach((tick, index) => {
      expect(tick).toBeCloseTo(index * step, 12);
      // No float noise such as 0.30000000000000004 reaches a label.
      expect(String(tick).length, String(tick)).toBeLessThan(12);
    });
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    expect(ticks.length).toBeLessThanOrEqual(11);
  });

  it("puts rate ticks on round percentages: 0.7 gives 0–80% by 20, not quarters of 70%", () => {
    const axis = niceTicks(0.7);
    expect(axis.ticks.map((tick) => percentTick(tick, axis.step))).toEqual([
      "0%",
      "20%",
      "40%",
      "60%",
      "80%",
    ]);
    const small = niceTicks(0.06);
    expect(small.ticks.map((tick) => percentTick(tick, small.step))).toEqual(["0%", "2%", "4%", "6%"]);
  });

  it("labels a 2.5 step with its one decimal and a whole step with none", () => {
    expect(percentTick(0.075, 0.025)).toBe("7.5%");
    expect(percentTick(0.05, 0.025)).toBe("5.0%");
    expect(percentTick(0.3, 0.1)).toBe("30%");
    expect(percentTick(0.004, 0.002)).toBe("0.4%");
  });

  it("never passes the ceiling of a rate axis, and keeps a near-zero maximum off a flat axis", () => {
    for (const max of [0.95, 1, 1.4, 80]) expect(niceTicks(max, { ceiling: 1 }).top).toBe(1);
    expect(niceTicks(0, { floor: 0.01 }).top).toBe(0.01);
    expect(niceTicks(0.0001, { floor: 0.01 }).ticks.length).toBeGreaterThanOrEqual(3);
  });

  it("gives a readable axis for bad numbers instead of NaN ticks or an endless loop", () => {
    for (const max of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -5, 0]) {
      const axis = niceTicks(max, { target: Number.NaN });
      expect(axis.ticks.every(Number.isFinite), String(max)).toBe(true);
      expect(axis.top).toBeGreaterThan(0);
      expect(axis.ticks.length).toBeLessThanOrEqual(11);
    }
    expect(niceTicks(1, { target: -3 }).ticks).toEqual([0, 1]);
    expect(niceTicks(1, { target: 1e9 }).ticks.length).toBeLessThanOrEqual(51);
  });
});
