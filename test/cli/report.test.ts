import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { EscalationReport } from "../../src/metrics/index.js";
import { sqliteStore } from "../../src/store/sqlite/index.js";
import { auditFixture, fillStore } from "../metrics/fixtures.js";
import { cli } from "./run.js";

let directory: string;
let file: string;

beforeEach(async () => {
  directory = mkdtempSync(join(tmpdir(), "formletter-cli-report-"));
  file = join(directory, "outbox.db");
  const store = sqliteStore(file);
  await fillStore(store);
  await store.close();
});

afterEach(() => rmSync(directory, { recursive: true, force: true }));

describe("formletter report", () => {
  it("reports the audit log of a SQLite outbox", async () => {
    const { code, stdout, stderr } = await cli(["report", "--db", file]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toContain(
      "escalation rate 50.0% (95% CI 21.5%–78.5%): 4 of 8 decisions escalated, 4 sent",
    );
    expect(stdout).toContain("human decisions: 0.4–1.6 a day at the observed 2 tickets a day (over 4 days)");
    expect(stdout).toContain("1 duplicate(s) not counted as decisions; 1 failed deliveries counted apart");
    expect(stdout).toMatch(/by day\n.*\n2026-03-02\s+4\s+2\s+2\s+50\.0%/);
    expect(stdout).toContain("approval_required counts");
  });

  it.each([
    [["--since", "2026-03-03", "--until", "2026-03-04"], 2, 1],
    [["--since", "2026-03-03T10:00:00Z"], 3, 1],
    [["--until", "2026-03-03"], 4, 2],
  ])("reads a window: %j", async (window, decided, escalated) => {
    const { code, stdout } = await cli(["report", "--db", file, "--json", ...window]);
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as EscalationReport).overall).toMatchObject({ decided, escalated });
  });

  it("takes --since as a duration back from now", async () => {
    const store = sqliteStore(file);
    const now = Date.now();
    const event = auditFixture[0] as (typeof auditFixture)[number];
    await fillStore(store, [
      { ...event, at: now - 86_400_000 },
      { ...event, at: now - 3_600_000, outcome: "escalate", reason: "content_flagged" },
      { ...event, at: now - 10 * 86_400_000 },
    ]);
    await store.close();
    const week = JSON.parse((await cli(["report", "--db", file, "--since", "7d", "--json"])).stdout);
    expect(week.overall).toMatchObject({ decided: 2, escalated: 1 });
    const hours = JSON.parse((await cli(["report", "--db", file, "--since", "2h", "--json"])).stdout);
    expect(hours.overall).toMatchObject({ decided: 1, escalated: 1 });
  });

  it("prints one grouping with --by and writes HTML with --html", async () => {
    const html = join(directory, "report.html");
    const { code, stdout, stderr } = await cli([
      "report",
      "--db",
      file,
      "--by",
      "tag:category",
      "--html",
      html,
    ]);
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /by tag:category\ntag:category\s+decided\s+sent\s+escalated\s+rate\s+95% CI\ndamage\s+3\s+1\s+2\s+66\.7%.*\ndelay\s+3\s+2\s+1/,
    );
    expect(stdout).not.toContain("by template");
    expect(stderr).toBe(`HTML report written to ${html}\n`);
    expect(readFileSync(html, "utf8")).toContain("audit log of outbox.db");
  });

  it("refuses a database that does not exist instead of creating an empty one, and a bad --since", async () => {
    const missing = join(directory, "typo.db");
    const result = await cli(["report", "--db", missing]);
    expect(result).toMatchObject({ code: 1, stdout: "" });
    expect(result.stderr).toContain(`no outbox database at ${missing}`);
    expect(existsSync(missing)).toBe(false);
    const since = await cli(["report", "--db", file, "--since", "last week"]);
    expect(since.code).toBe(1);
    expect(since.stderr).toBe(
      "formletter: --since: give a duration such as 7d, 24h, 30m, 2w, an ISO date such as 2026-03-01, or epoch milliseconds, within the years 0000 to 9999\n",
    );
  });
});

describe("formletter report --catalog", () => {
  it("shows each template's effect in the table by template and in --json; unknown ids get -", async () => {
    const source = fileURLToPath(new URL("../../src/index.ts", import.meta.url));
    const zod = createRequire(import.meta.url).resolve("zod");
    const catalogFile = join(directory, "catalog.ts");
    writeFileSync(
      catalogFile,
      `import { createCatalog, defineRecords, defineTemplate } from ${JSON.stringify(source)};
import { z } from ${JSON.stringify(zod)};
const records = defineRecords({ orders: z.object({ id: z.string(), number: z.string(), email: z.email() }) });
const { slot } = records;
const template = (id, effect) => defineTemplate(records, {
  id, description: "Tell the customer", audience: "customer", effect,
  ...(effect === "irreversible" ? { approval: "human" } : {}), channel: "email",
  to: slot.ref("orders", { show: "email" }), subject: "Order {{order}}", body: "Order {{order}}.",
  slots: { order: slot.ref("orders", { show: "number" }) }, limits: { perTicket: 1, perDay: 10 },
});
export const catalog = createCatalog(records, [template("a", "reversible"), template("b", "irreversible")]);
`,
    );
    const text = await cli(["report", "--db", file, "--by", "template", "--catalog", catalogFile]);
    expect(text.stderr).toBe("");
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/by template\ntemplate\s+effect\s+decided\s+sent\s+escalated/);
    expect(text.stdout).toMatch(/\na\s+reversible\s+4\s+3\s+1\s/);
    expect(text.stdout).toMatch(/\nb\s+irreversible\s+3\s+1\s+2\s/);
    // A decision without a template has no effect to show.
    expect(text.stdout).toMatch(/\n\S+\s+-\s+1\s+0\s+1\s/);
    const json = JSON.parse((await cli(["report", "--db", file, "--json", "--catalog", catalogFile])).stdout);
    expect(json.templateEffects).toEqual({ a: "reversible", b: "irreversible" });
    // Without --catalog the report is unchanged: no effect column, no field.
    const plain = await cli(["report", "--db", file, "--by", "template"]);
    expect(plain.stdout).toMatch(/by template\ntemplate\s+decided\s+sent/);
    expect(JSON.parse((await cli(["report", "--db", file, "--json"])).stdout)).not.toHaveProperty(
      "templateEffects",
    );
  });
});
