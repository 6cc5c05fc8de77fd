import { describe, expect, it } from "vitest";
import { recoverySummary, templateRecovery } from "../../bench/mining/template-recovery.js";

describe("templateRecovery", () => {
  it("gives each template the recall and precision of the cluster holding most of its lines", () => {
    // a: 3 of its 4 lines in group 1, which also holds one line of b; b's other line is alone in group 3,
    // the purer of b's two equal clusters; the free-form line is in group 4.
    const groups = [1, 1, 1, 2, 1, 3, 4];
    const templates = ["a", "a", "a", "a", "b", "b", undefined];
    expect(templateRecovery(groups, templates)).toEqual([
      { template: "a", lines: 4, recall: 3 / 4, precision: 3 / 4 },
      { template: "b", lines: 2, recall: 1 / 2, precision: 1 },
    ]);
  });

  it("counts free-form lines against the precision of the cluster they fell into", () => {
    const recovery = templateRecovery([1, 1, 1, 1], ["a", "a", "a", undefined]);
    expect(recovery).toEqual([{ template: "a", lines: 3, recall: 1, precision: 3 / 4 }]);
  });

  it("recovers a template only when both its recall and its precision reach 0.95", () => {
    const whole = Array.from({ length: 20 }, () => "a");
    // 19 of 20 lines: recall exactly 0.95, recovered; 18 of 20 is not.
    expect(recoverySummary(templateRecovery([...Array(19).fill(1), 2], whole)).recovered).toBe(1);
    expect(recoverySummary(templateRecovery([...Array(18).fill(1), 2, 2], whole)).recovered).toBe(0);
    // All 20 lines, with 1 line of another template in their cluster: precision 20/21, recovered; with 2, 20/22 is not.
    expect(recoverySummary(templateRecovery(Array(21).fill(1), [...whole, "b"])).recovered).toBe(1);
    const summary = recoverySummary(templateRecovery(Array(22).fill(1), [...whole, "b", "b"]));
    expect(summary).toMatchObject({ recovered: 0, templates: 2, worstRecall: 1 });
    expect(summary.worstPrecision).toBeCloseTo(2 / 22, 12);
  });

  it("refuses groups and templates of different lengths", () => {
    expect(() => templateRecovery([1, 2], ["a"])).toThrow(/2 groups for 1 lines/);
  });
});
