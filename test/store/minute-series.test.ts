import { describe, expect, it } from "vitest";
import { MinuteSeries } from "../../src/store/minute-series.js";

describe("MinuteSeries", () => {
  const bruteForce = (entries: readonly [number, number][], from: number) =>
    entries.reduce((total, [minute, amount]) => (minute >= from ? total + amount : total), 0);

  it("sums from any minute exactly what a walk of every minute would", () => {
    const series = new MinuteSeries();
    const entries: [number, number][] = [];
    // Irregular minutes over three days, some repeated, some taken back (a rolled-back transaction).
    const base = 29_000_000;
    for (let i = 0; i < 900; i++) {
      const minute = base + ((i * 397) % (3 * 1440));
      const amount = i % 9 === 0 ? -1 : (i % 5) + 1;
      series.add(minute, amount);
      entries.push([minute, amount]);
    }
    for (let from = base - 61; from < base + 3 * 1440 + 61; from += 7) {
      expect(series.sumFrom(from)).toBe(bruteForce(entries, from));
    }
  });

  it("stays exact with one minute far ahead of the others (a clock set years on)", () => {
    const series = new MinuteSeries();
    series.add(29_000_000, 3);
    series.add(29_000_061, 4);
    series.add(29_000_000 + 60 * 24 * 365 * 1000, 5);
    expect(series.sumFrom(29_000_001)).toBe(9);
    expect(series.sumFrom(0)).toBe(12);
    expect(series.sumFrom(29_000_000 + 60 * 24 * 365 * 1000 + 1)).toBe(0);
  });

  it("is empty at first", () => {
    expect(new MinuteSeries().sumFrom(0)).toBe(0);
  });
});
