import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOutbox, memoryTransport } from "../../src/index.js";
import { createMetricsAccumulator, type EscalationReport } from "../../src/metrics/index.js";
import { sqliteStore } from "../../src/store/sqlite/index.js";
import { catalog, sample } from "../fixtures/capacity-catalog.js";
import { cli } from "./run.js";

const fixtureCatalog = fileURLToPath(new URL("../fixtures/capacity-catalog.ts", import.meta.url));
// Names every plain object already answers to: each must be an ordinary tag name.
const names = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"] as const;

let directory: string;
let history: string;

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), "formletter-cli-names-"));
  history = join(directory, "history.jsonl");
  // Written by hand: JSON.stringify of an object literal would drop a "__proto__" key.
  const line = (ticketId: string, tag: string, value: string) =>
    `{"ticketId":"${ticketId}","records":${JSON.stringify({ ...sample, ticketId })},"output":{"escalate":"needs_human"},"tags":{"${tag}":"${value}","category":"x"},"at":"2026-03-02T09:00:00Z"}`;
  writeFileSync(history, names.map((name, index) => line(`T-${index}`, name, `${name}-value`)).join("\n"));
  // Loads the catalog module once, so the first test does not pay for compiling it.
  return cli(["check", fixtureCatalog]).then(() => undefined);
}, 30_000);
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe("tag names that plain objects answer to are ordinary names", () => {
  it("the report lists each as a tag with its rows", () => {
    const metrics = createMetricsAccumulator();
    for (const name of names) {
      const tags = JSON.parse(`{"${name}":"${name}-value"}`) as Record<string, string>;
      metrics.add({ outcome: "escalate", reason: "model_escalated", template: name, tags });
    }
    const report = metrics.report();
    expect(report.byTag.map((tag) => tag.tag)).toEqual([...names]);
    for (const { tag, rows } of report.byTag) {
      expect(rows.map((row) => [row.key, row.decided])).toEqual([
        [`${tag}-value`, 1],
        ["(none)", 4],
      ]);
    }
    expect(report.byTemplate.map((row) => row.key).sort()).toEqual([...names].sort());
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each(names)("replay --by tag:%s shows that tag's table", async (name) => {
    const { code, stdout, stderr } = await cli(["replay", fixtureCatalog, history, "--by", `tag:${name}`]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toContain(`by tag:${name}\n`);
    expect(stdout).toMatch(new RegExp(`\\n${name.replace(/[$]/g, "\\$&")}-value\\s+1\\s+0\\s+1\\s+100\\.0%`));
    expect(stdout).not.toContain("no decision has this tag");
  });

  it("--by tag:NAME for a name no decision has says so, also for names of Object.prototype", async () => {
    const other = join(directory, "plain.jsonl");
    writeFileSync(other, readFileSync(history, "utf8").split("\n")[1] ?? "");
    for (const name of ["__proto__", "toString", "isPrototypeOf"]) {
      const { code, stdout } = await cli(["replay", fixtureCatalog, other, "--by", `tag:${name}`]);
      expect(code).toBe(0);
      expect(stdout).toContain(`by tag:${name}: no decision has this tag`);
    }
  });

  it("--json and --html carry every tag", async () => {
    const html = join(directory, "report.html");
    const { code, stdout } = await cli(["replay", fixtureCatalog, history, "--json", "--html", html]);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as EscalationReport;
    expect(report.byTag.map((tag) => tag.tag).sort()).toEqual([...names, "category"].sort());
    const page = readFileSync(html, "utf8");
    for (const name of names) expect(page).toContain(`<h2>By tag: ${name}</h2>`);
  });

  it("report --by tag:NAME on an outbox's audit log, for each such name", async () => {
    const db = join(directory, "outbox.db");
    const outbox = createOutbox({
      catalog,
      load: (ticketId: string) => ({ ...sample, ticketId }),
      store: sqliteStore(db),
      transports: { email: memoryTransport() },
    });
    for (const [index, name] of names.entries()) {
      const tags = JSON.parse(`{"${name}":"${name}-value"}`) as Record<string, string>;
      await outbox.handle({ ticketId: `T-${index}`, runId: "r", output: { escalate: "needs_human" }, tags });
    }
    await outbox.close();
    for (const name of names) {
      const { code, stdout } = await cli(["report", "--db", db, "--by", `tag:${name}`]);
      expect(code).toBe(0);
      expect(stdout).toMatch(new RegExp(`\\n${name}-value\\s+1\\s+0\\s+1\\s+100\\.0%`));
    }
  });
});
