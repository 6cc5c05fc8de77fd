import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { WarmUpLines } from "../../src/mine/warm-up-lines.js";

describe("WarmUpLines", () => {
  it("keeps lines in order up to its bound, skipping line problems and lines over a tenth of it", () => {
    const kept = new WarmUpLines(100);
    kept.keep(["a".repeat(10), { problem: "not UTF-8" }, "b".repeat(11), "c".repeat(10)]);
    kept.keep(["d".repeat(10)]);
    expect(kept.take()).toEqual(["a".repeat(10), "c".repeat(10), "d".repeat(10)]);
  });

  it("never holds more characters than its bound, whatever the lines", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 500 }),
        fc.array(fc.array(fc.oneof(fc.string({ maxLength: 80 }), fc.constant({ problem: "too long" })))),
        (bound, batches) => {
          const kept = new WarmUpLines(bound);
          for (const batch of batches) kept.keep(batch);
          const lines = kept.take();
          const chars = lines.reduce((sum, line) => sum + line.length, 0);
          expect(chars).toBeLessThanOrEqual(bound);
          for (const line of lines) expect(line.length).toBeLessThanOrEqual(bound / 10);
        },
      ),
    );
  });

  it("gives its lines up once, and keeps nothing after", () => {
    const kept = new WarmUpLines(100);
    kept.keep(["first"]);
    expect(kept.take()).toEqual(["first"]);
    kept.keep(["later"]);
    expect(kept.take()).toEqual([]);
  });
});
