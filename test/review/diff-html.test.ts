import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { selfContainedPolicy } from "../../src/cli/html-page.js";
import { cli } from "../cli/run.js";
import { ReviewWorkspace, ticketRecords } from "./review-workspace.js";

const space = new ReviewWorkspace();
afterAll(() => space.remove());

describe("formletter diff --html", () => {
  it("writes the review as a self-contained page, record values in it escaped", async () => {
    const base = await space.catalog();
    const head = space.module({
      noteBody: "Order {{order.number}} comes to {{order.total}}, paid {{order.amount}}.",
      refundSpread: `{ effect: "reversible" }`,
    });
    const records = ticketRecords("T-h", `<script>alert(1)</script><img src=x onerror=alert(2)>`);
    const order = base.catalog.handles(records).get("orders", "T-h-b");
    const history = space.lines("history.jsonl", [
      { ticketId: "T-h", records, output: { template: "order_note", slots: { order } } },
    ]);
    const page = join(space.directory, "review.html");
    const run = await cli([
      "diff",
      "--base",
      base.file,
      "--head",
      head,
      "--history",
      history,
      "--html",
      page,
    ]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(`HTML review written to ${page}\n`);
    const html = readFileSync(page, "utf8");
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${selfContainedPolicy}">`);
    expect(html).not.toMatch(/<script|<img/i);
    // decide() neutralised the markup in the value; the page adds none of its own.
    expect(html).toContain("‹script›alert(1)‹/script›");
    expect(html).toContain("<del>totals </del><ins>comes to </ins>");
    expect(html).toMatch(/<li><code>approval-removed<\/code> <strong>refund_order<\/strong>/);
    expect(html).toContain("escalation rate: base 0.0%");
    expect(html).toContain("effect: irreversible → reversible<br>approval: human → (none)");
  });

  it("says which file it cannot write, in one line", async () => {
    const base = space.module();
    const run = await cli([
      "diff",
      "--base",
      base,
      "--head",
      base,
      "--html",
      join(space.directory, "no", "such", "dir.html"),
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^formletter: cannot write .*dir\.html: /);
  });
});
