import { describe, expect, it } from "vitest";
import { parseFailOn } from "../../src/review/fail-on.js";

describe("parseFailOn", () => {
  it("reads review items and rate-up with its points, the lowest points when named twice", () => {
    expect(parseFailOn("approval-removed, rate-up:2.5 ,rate-up:1")).toEqual({
      ok: true,
      kinds: ["approval-removed"],
      rateUp: 1,
    });
    expect(parseFailOn("widened-reading")).toEqual({
      ok: true,
      kinds: ["widened-reading"],
      rateUp: undefined,
    });
  });

  it.each([
    "rate-up",
    "rate-up:",
    "rate-up:-1",
    "rate-up:101",
    "rate-up:1e3",
    "rate-up:NaN",
    "rate-up:2,x",
    "rate-ups:2",
  ])("refuses %s, never turning the gate off", (text) => {
    const result = parseFailOn(text);
    expect(result.ok).toBe(false);
  });
});
