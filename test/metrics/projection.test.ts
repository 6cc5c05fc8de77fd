import { describe, expect, it } from "vitest";
import { formatBand, observedDays, projectHumanDecisions, wilsonInterval } from "../../src/metrics/index.js";

describe("projectHumanDecisions", () => {
  it("multiplies the volume by the rate and by each end of its Wilson interval", () => {
    // 30 of 300: [0.070949, 0.139167] (center 0.105058 ± 0.034109), times 100 tickets a day.
    const projection = projectHumanDecisions({ escalated: 30, decided: 300 }, 100);
    expect(projection.basis).toBe("given");
    expect(projection.humanPerDay.expected).toBeCloseTo(10, 10);
    expect(projection.humanPerDay.low).toBeCloseTo(7.0949, 3);
    expect(projection.humanPerDay.high).toBeCloseTo(13.9167, 3);
    expect(formatBand(projection)).toBe("7–14 a day");
  });

  it.each([
    // 1 of 20 at 5 a day: [0.008881, 0.236131] × 5 = [0.044, 1.181]: one decimal under 10, rounded outwards.
    [1, 20, 5, "0–1.2 a day"],
    // 0 of 50 at 40 a day: [0, 0.071348] × 40 = [0, 2.854].
    [0, 50, 40, "0–2.9 a day"],
    // 92 of 208 at 1,200 a day: [0.376465, 0.510243] × 1,200 = [451.8, 612.3].
    [92, 208, 1200, "451–613 a day"],
    // 450 of 1,000 at 10,000 a day: [0.419415, 0.480944] × 10,000.
    [450, 1000, 10_000, "4,194–4,810 a day"],
  ])("%i of %i at %i tickets a day is %s", (escalated, decided, volume, band) => {
    expect(formatBand(projectHumanDecisions({ escalated, decided }, volume))).toBe(band);
  });

  it("records the days an observed volume was measured over", () => {
    const projection = projectHumanDecisions({ escalated: 3, decided: 12 }, 4, {
      basis: "observed",
      days: 3,
    });
    expect(projection).toEqual({
      ticketsPerDay: 4,
      basis: "observed",
      days: 3,
      humanPerDay: { expected: 1, low: 4 * wilsonInterval(3, 12).low, high: 4 * wilsonInterval(3, 12).high },
    });
  });

  it("refuses a volume that is not a number of tickets", () => {
    expect(() => projectHumanDecisions({ escalated: 1, decided: 2 }, -1)).toThrow(RangeError);
    expect(() => projectHumanDecisions({ escalated: 1, decided: 2 }, Number.POSITIVE_INFINITY)).toThrow(
      RangeError,
    );
  });
});

describe("observedDays", () => {
  it.each([
    ["the same moment", "2026-03-02T10:00:00Z", "2026-03-02T10:00:00Z", 1],
    ["one day, morning to night", "2026-03-02T00:00:00Z", "2026-03-02T23:59:59Z", 1],
    ["two minutes over midnight", "2026-03-02T23:59:00Z", "2026-03-03T00:01:00Z", 2],
    ["a month", "2026-03-01T08:00:00Z", "2026-03-31T17:00:00Z", 31],
  ])("%s is %i calendar day(s)", (_, first, last, days) => {
    expect(observedDays(Date.parse(first), Date.parse(last))).toBe(days);
  });
});
