import { describe, expect, it } from "vitest";
import { selfContainedPolicy } from "../../src/cli/html-page.js";
import { renderHtmlReport } from "../../src/cli/html-report.js";
import { reportFromAudit } from "../../src/metrics/index.js";
import type { AuditEvent } from "../../src/store/store.js";
import { completionCheck, propertyCatalog } from "../fixtures/property.js";
import { auditAcrossDeploy, approvalDeployed as redeployed } from "../fixtures/property-deploys.js";

const meta = { title: "Escalation report", subtitle: "audit log", generatedAt: new Date(0) };

/** The rows of the table with this id, each as its cells' text. */
function rows(page: string, id: string): string[][] {
  const table = new RegExp(`<table id="${id}">[\\s\\S]*?<tbody>([\\s\\S]*?)</tbody>`).exec(page)?.[1];
  if (table === undefined) throw new Error(`no table #${id}`);
  return [...table.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...(row[1] ?? "").matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((cell) => cell[1] ?? ""),
  );
}

describe("the HTML report by version", () => {
  it("has a table by catalog version and one by template@version: the rate before and after a deploy", async () => {
    const report = await reportFromAudit(await auditAcrossDeploy());
    const page = renderHtmlReport(report, meta);
    expect(rows(page, "catalog-version-table").map((row) => row.slice(0, 2))).toEqual([
      [propertyCatalog.version, "3"],
      [redeployed.version, "2"],
    ]);
    expect(rows(page, "template-version-table").map((row) => row[0])).toEqual([
      `completion_check@${completionCheck.version}`,
      `completion_check@${redeployed.template("completion_check")?.version}`,
    ]);
    expect(page).toContain(`content="${selfContainedPolicy}"`);
  });

  it("escapes a hostile template id and a forged version, which counts as (none)", async () => {
    const [event] = await auditAcrossDeploy();
    if (event === undefined) throw new Error("no event");
    const hostile = '<script>alert(1)</script>"\u202e';
    const forged: AuditEvent[] = [
      {
        ...event,
        template: hostile,
        data: { ...event.data, catalogVersion: "<img src=x onerror=alert(1)>", templateVersion: "<b>" },
      },
    ];
    const page = renderHtmlReport(await reportFromAudit(forged), meta);
    expect(page).not.toContain("<script>");
    expect(page).not.toContain("<img");
    expect(page).not.toContain("<b>");
    expect(rows(page, "catalog-version-table")[0]?.[0]).toBe("(none)");
    expect(rows(page, "template-version-table")[0]?.[0]).toBe(
      "&lt;script&gt;alert(1)&lt;/script&gt;&quot;\\u202e@(none)",
    );
  });

  it("says so when no decision recorded a version", async () => {
    const report = await reportFromAudit([]);
    const page = renderHtmlReport(report, meta);
    expect(page).toContain('id="version-none"');
    expect(page).not.toContain('id="catalog-version-table"');
  });
});
