import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { groupingAccuracy } from "../../bench/mining/grouping-accuracy.js";

/** The definition read literally: a line counts when the lines sharing its predicted label are exactly those sharing its true label. */
function byDefinition(predicted: readonly number[], truth: readonly (number | undefined)[]): number {
  const scored = truth.flatMap((label, line) => (label === undefined ? [] : [line]));
  const same = (labels: readonly (number | undefined)[], line: number) =>
    scored.filter((other) => labels[other] === labels[line]).join(",");
  return scored.filter((line) => same(predicted, line) === same(truth, line)).length / scored.length;
}

describe("groupingAccuracy", () => {
  it.each([
    {
      name: "all correct, under other names",
      predicted: [7, 7, 3, 9],
      truth: ["a", "a", "b", "c"],
      expected: 1,
    },
    // a's 4 lines are split in two: none of them counts; b's 2 lines are found whole.
    {
      name: "a split group",
      predicted: [1, 1, 2, 2, 3, 3],
      truth: ["a", "a", "a", "a", "b", "b"],
      expected: 2 / 6,
    },
    // a and b share a predicted group: none of their 3 lines counts; c's 3 lines do.
    {
      name: "a merged group",
      predicted: [1, 1, 1, 2, 2, 2],
      truth: ["a", "a", "b", "c", "c", "c"],
      expected: 3 / 6,
    },
    // Group 1 is pure but holds only 2 of a's 3 lines: a pure part is not the group.
    { name: "a pure part of a group", predicted: [1, 1, 2, 2], truth: ["a", "a", "a", "b"], expected: 0 },
    { name: "every line alone, one true group", predicted: [1, 2, 3], truth: ["a", "a", "a"], expected: 0 },
    { name: "one line, one group", predicted: [5], truth: ["x"], expected: 1 },
  ])("$name", ({ predicted, truth, expected }) => {
    expect(groupingAccuracy(predicted, truth)).toBeCloseTo(expected, 12);
  });

  it("leaves lines without a true label out of the score and out of their predicted group", () => {
    // Counted, the third line would spoil group 1; it has no true label, so the other two are a's whole group.
    expect(groupingAccuracy([1, 1, 1, 2], ["a", "a", undefined, "b"])).toBe(1);
    expect(groupingAccuracy([1, 1, 2, 2], ["a", undefined, "a", "b"])).toBe(0);
  });

  it("tells a number label from the same digits as a string", () => {
    expect(groupingAccuracy([1, "1"], ["a", "a"])).toBe(0);
  });

  it("refuses lists of different lengths and lists with no true label, saying what to give", () => {
    expect(() => groupingAccuracy([1, 2], ["a"])).toThrow(/2 predicted labels for 1 true labels/);
    expect(() => groupingAccuracy([1], [undefined])).toThrow(/no line has a true label/);
    expect(() => groupingAccuracy([], [])).toThrow(RangeError);
  });

  it("agrees with the definition read literally, on any labels", () => {
    const line = fc.tuple(
      fc.integer({ min: 0, max: 4 }),
      fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }),
    );
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 40 }), (lines) => {
        fc.pre(lines.some(([, truth]) => truth !== undefined));
        const predicted = lines.map(([label]) => label);
        const truth = lines.map(([, label]) => label);
        expect(groupingAccuracy(predicted, truth)).toBeCloseTo(byDefinition(predicted, truth), 12);
      }),
    );
  });
});
