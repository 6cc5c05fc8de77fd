import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MinuteSeries } from "../../src/store/minute-series.js";

/** What the series must answer: every amount added at a minute from `from` on, summed afresh. */
function recount(entries: readonly (readonly [number, number])[], from: number): number {
  let total = 0;
  for (const [minute, amount] of entries) if (minute >= from) total += amount;
  return total;
}

const day = 1440;
// Midnight UTC of some day, in minutes since the epoch: the windows cross day and hour boundaries.
const base = 29_000_160;

/** One step of a store's life: the clock moves (mostly on, sometimes back or far ahead), then a send or a look. */
const step = fc.record({
  clock: fc.oneof(
    { weight: 8, arbitrary: fc.integer({ min: 0, max: 2 }) },
    { weight: 2, arbitrary: fc.integer({ min: -40, max: -1 }) },
    { weight: 1, arbitrary: fc.integer({ min: -3 * day, max: 3 * day }) },
  ),
  action: fc.oneof(
    // A send (or spend) now, or one taken back (a rolled-back transaction).
    { weight: 4, arbitrary: fc.record({ add: fc.integer({ min: -3, max: 5 }) }) },
    // The windows a store asks for (the last day's, the last hour's), and a short one whose start meets
    // the sends of a moment ago as the clock moves back and forth.
    { weight: 4, arbitrary: fc.record({ window: fc.constantFrom(day, 60, 10) }) },
    // Any start at all, near now or not.
    { weight: 1, arbitrary: fc.record({ from: fc.integer({ min: -4 * day, max: 4 * day }) }) },
  ),
});

describe("MinuteSeries kept as running totals", () => {
  it("answers every sum as a recount of every amount would", () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 400 }), (steps) => {
        const series = new MinuteSeries();
        const entries: [number, number][] = [];
        let now = base;
        for (const { clock, action } of steps) {
          now += clock;
          if ("add" in action) {
            series.add(now, action.add);
            entries.push([now, action.add]);
            continue;
          }
          const from = "window" in action ? now - action.window : base + action.from;
          expect(series.sumFrom(from)).toBe(recount(entries, from));
        }
      }),
      { numRuns: 300 },
    );
  });

  it("lets a send a day old leave the day's total, and takes it back in when the clock is set back", () => {
    const series = new MinuteSeries();
    series.add(base, 2);
    series.add(base + 30, 3);
    series.add(base - 9, 4);
    expect(series.sumFrom(base + 1 - day)).toBe(9);
    // A day and a minute on, the first send has expired from the day; the second has not.
    expect(series.sumFrom(base + 1)).toBe(3);
    expect(series.sumFrom(base + 2)).toBe(3);
    expect(series.sumFrom(base + 31)).toBe(0);
    series.add(base + 31, 1);
    expect(series.sumFrom(base + 31)).toBe(1);
    // The clock set back 40 minutes: the window starts earlier again, and the older sends count, the one
    // at its very first minute too.
    expect(series.sumFrom(base - 9)).toBe(10);
  });

  it("keeps the windows of several ceilings apart, each asked for in turn", () => {
    const series = new MinuteSeries();
    const entries: [number, number][] = [];
    for (let minute = base; minute < base + 3 * day; minute += 7) {
      series.add(minute, (minute % 5) + 1);
      entries.push([minute, (minute % 5) + 1]);
      for (const window of [60, day, 2 * day, 7, 3 * 60, 30])
        expect(series.sumFrom(minute - window)).toBe(recount(entries, minute - window));
    }
  });
});
