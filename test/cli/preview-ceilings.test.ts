import { describe, expect, it } from "vitest";
import { templateReview } from "../../src/cli/preview-template.js";
import { refundTemplate } from "../fixtures/refunds.js";

describe("preview: each template's money bound", () => {
  it("shows every ceiling's values, group, windows and per-currency maxima, and how each amount is read", () => {
    const page = templateReview(
      refundTemplate({
        refunds: {
          values: ["refund.amount", "other.amount"],
          max: { EUR: { message: 200, day: 1000 }, JPY: { hour: 30000 } },
          group: "refunds",
          over: "approval",
        },
      }),
    );
    expect(page).toContain(
      '<dt>ceilings</dt><dd><ul class="ceilings"><li>refunds: refund.amount + other.amount at most EUR 200 a message, 1000 a day; JPY 30000 an hour (group refunds; over it: a person approves)</li></ul></dd>',
    );
    expect(page).toContain("(money in the currency of field &quot;currency&quot;, read in minor units, ≤");
  });

  it("says when a template has none", () => {
    expect(templateReview(refundTemplate(undefined))).toContain(
      "<dt>ceilings</dt><dd>none: bounded in messages, not amounts</dd>",
    );
  });
});
