import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { replayHistory, reportFromAudit } from "../../src/metrics/index.js";
import { cli } from "../cli/run.js";
import { completionCheck, propertyCatalog, propertyTicket, proposal } from "../fixtures/property.js";
import { auditAcrossDeploy, approvalDeployed as redeployed } from "../fixtures/property-deploys.js";

let directory: string;
beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), "formletter-versions-"));
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe("reports by version", () => {
  it("the audit report gives the rate of each catalog version and of each template version", async () => {
    const report = await reportFromAudit(await auditAcrossDeploy());
    expect(report.byCatalogVersion.map((row) => [row.key, row.decided, row.escalated])).toEqual([
      [propertyCatalog.version, 3, 0],
      [redeployed.version, 2, 2],
    ]);
    expect(report.byTemplateVersion.map((row) => row.key)).toEqual([
      `completion_check@${completionCheck.version}`,
      `completion_check@${redeployed.template("completion_check")?.version}`,
    ]);
  });

  it("counts a decision whose recorded version is forged or malformed under (none), without failing", async () => {
    const [event] = await auditAcrossDeploy();
    if (event === undefined) throw new Error("no event");
    const forged = [
      { ...event, data: { ...event.data, catalogVersion: "<img src=x onerror=alert(1)>" } },
      { ...event, data: { ...event.data, catalogVersion: { length: 16 }, templateVersion: 7 } },
      { ...event, data: { ...event.data, catalogVersion: "f".repeat(10_000) } },
    ];
    const report = await reportFromAudit(forged);
    expect(report.byCatalogVersion).toEqual([expect.objectContaining({ key: "(none)", decided: 3 })]);
    expect(report.byTemplateVersion.map((row) => row.key)).toEqual([
      `completion_check@${completionCheck.version}`,
      "completion_check@(none)",
    ]);
  });

  it("a replay groups by the versions of the catalog it replays with, never a version a history line claims", async () => {
    const history = join(directory, "forged.jsonl");
    const line = (id: string, extra: Record<string, unknown>) =>
      JSON.stringify({ ticketId: id, records: propertyTicket(id), output: proposal(id), ...extra });
    writeFileSync(
      history,
      [
        line("T-1", { catalogVersion: "ffffffffffffffff", templateVersion: "0000000000000000" }),
        line("T-2", { catalogVersion: { $ne: null }, templateVersion: ["x"] }),
        line("T-3", { catalogVersion: "\u202e<script>", templateVersion: null }),
      ].join("\n"),
    );
    const report = await replayHistory(propertyCatalog, history);
    expect(report.malformed.count).toBe(0);
    expect(report.byCatalogVersion.map((row) => [row.key, row.decided])).toEqual([
      [propertyCatalog.version, 3],
    ]);
    expect(report.byTemplateVersion.map((row) => row.key)).toEqual([
      `completion_check@${completionCheck.version}`,
    ]);
  });

  it("formletter replay --by version prints the tables by catalog and template version", async () => {
    const history = join(directory, "plain.jsonl");
    writeFileSync(
      history,
      JSON.stringify({ ticketId: "T-1", records: propertyTicket("T-1"), output: proposal("T-1") }),
    );
    const catalogModule = fileURLToPath(new URL("../fixtures/property.ts", import.meta.url));
    const { code, stdout } = await cli([
      "replay",
      catalogModule,
      history,
      "--export",
      "propertyCatalog",
      "--by",
      "version",
    ]);
    expect(code).toBe(0);
    expect(stdout).toContain("by catalog-version");
    expect(stdout).toContain(propertyCatalog.version);
    expect(stdout).toContain(`completion_check@${completionCheck.version}`);
    expect(stdout).not.toContain("by day");
  });
});
