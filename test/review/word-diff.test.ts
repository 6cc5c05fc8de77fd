import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hasChange, wordDiff } from "../../src/review/word-diff.js";

const side = (runs: ReturnType<typeof wordDiff>, drop: "removed" | "added") =>
  runs
    .filter((run) => run.op !== drop)
    .map((run) => run.text)
    .join("");

describe("wordDiff", () => {
  it("gives back both texts from its runs, and no change exactly when they are equal", () => {
    const text = fc.array(fc.constantFrom("a", "b", "order", " ", "\n", "  ", "4471-2290", "é"), {
      maxLength: 30,
    });
    fc.assert(
      fc.property(text, text, (a, b) => {
        const before = a.join("");
        const after = b.join("");
        const runs = wordDiff(before, after);
        expect(side(runs, "added")).toBe(before);
        expect(side(runs, "removed")).toBe(after);
        expect(hasChange(runs)).toBe(before !== after);
        // Runs of one kind are merged: never two neighbours of the same op.
        runs.forEach((run, index) => {
          expect(run.text).not.toBe("");
          if (index > 0) expect(runs[index - 1]?.op).not.toBe(run.op);
        });
      }),
    );
  });

  it("marks only the words that changed", () => {
    expect(wordDiff("refund of order 1 today", "refund of order 2 today")).toEqual([
      { op: "same", text: "refund of order " },
      { op: "removed", text: "1 " },
      { op: "added", text: "2 " },
      { op: "same", text: "today" },
    ]);
  });

  it("does not align a pair too large to align, but still gives back both texts", () => {
    const before = Array.from({ length: 1500 }, (_, index) => `a${index}`).join(" ");
    const after = Array.from({ length: 1500 }, (_, index) => `b${index}`).join(" ");
    const runs = wordDiff(`x ${before} y`, `x ${after} y`);
    expect(runs.map((run) => run.op)).toEqual(["same", "removed", "added", "same"]);
    expect(side(runs, "added")).toBe(`x ${before} y`);
  });
});
