import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCatalog } from "../../src/cli/load-catalog.js";
import { type ReviewCatalogOptions, reviewCatalogModule } from "../fixtures/review-catalogs.js";
import { cli } from "./run.js";

const library = fileURLToPath(new URL("../../src/index.ts", import.meta.url));
const zod = createRequire(import.meta.url).resolve("zod");
let directory: string;
let written = 0;

/** Writes a catalog module varied by `options` to a file of its own (a module is loaded once a process). */
function catalogFile(options: ReviewCatalogOptions = {}): string {
  written += 1;
  const file = join(directory, `catalog-${written}.ts`);
  writeFileSync(file, reviewCatalogModule(library, zod, options));
  return file;
}

let base: string;

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), "formletter-cli-diff-"));
  base = catalogFile();
  return cli(["check", base]).then(() => undefined);
}, 30_000);
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const allKinds = "widened-reading,recipient-change,approval-removed,effect-lowered,limit-raised";

async function diffJson(head: string, from = base) {
  const run = await cli(["diff", "--base", from, "--head", head, "--json"]);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout);
}

describe("formletter diff", () => {
  it("reports nothing for the same catalog on both sides, and passes every --fail-on", async () => {
    const run = await cli(["diff", "--base", base, "--head", base, "--fail-on", allKinds]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("review items: none");
    expect(run.stdout).toContain("templates: 0 added, 0 removed, 0 changed, 2 unchanged");
  });

  it("gives a catalog the same version in another process", async () => {
    const entry = fileURLToPath(new URL("../../src/cli/index.ts", import.meta.url));
    const output = execFileSync(
      process.execPath,
      ["--import", "tsx", entry, "diff", "--base", base, "--head", base, "--json"],
      {
        encoding: "utf8",
      },
    );
    const { catalog } = await loadCatalog(base);
    expect(JSON.parse(output).head.version).toBe(catalog.version);
    expect(catalog.templates.map((template) => template.version)).toEqual([
      expect.stringMatching(/^[0-9a-f]{16}$/),
      expect.stringMatching(/^[0-9a-f]{16}$/),
    ]);
  }, 60_000);

  it("sees no change in a comment or in the order keys were written in", async () => {
    const result = await diffJson(catalogFile({ comment: "reviewed by the payments team", reorder: true }));
    expect(result.changed).toEqual([]);
    expect(result.unchanged).toBe(2);
    expect(result.items).toEqual([]);
  });

  it("flags a field shown to more readers, and fails on widened-reading", async () => {
    const head = catalogFile({ totalReaders: ["seller", "buyer"] });
    const result = await diffJson(head);
    expect(result.changed).toEqual([expect.objectContaining({ id: "order_note", parts: ["slots"] })]);
    expect(result.items).toEqual([
      expect.objectContaining({
        kind: "widened-reading",
        template: "order_note",
        detail: expect.stringContaining("buyer"),
      }),
    ]);
    const run = await cli(["diff", "--base", base, "--head", head, "--fail-on", "widened-reading"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("widened-reading (1)");
    const other = await cli(["diff", "--base", base, "--head", head, "--fail-on", "approval-removed"]);
    expect(other.code).toBe(0);
  });

  it("flags a field a format reads without showing it, once more roles may read it", async () => {
    const result = await diffJson(catalogFile({ currencyReaders: ["seller", "carrier"] }));
    expect(result.items).toEqual([
      expect.objectContaining({
        kind: "widened-reading",
        template: "order_note",
        detail: expect.stringMatching(/^order\.amount reads .*currency, now readable by carrier/),
      }),
    ]);
  });

  it("flags a recipient read from another field", async () => {
    const result = await diffJson(catalogFile({ recipientField: "backupEmail" }));
    expect(result.items.map((item: { kind: string }) => item.kind)).toEqual(["recipient-change"]);
    expect(result.changed[0].parts).toEqual(["recipient"]);
  });

  it("flags an approval removed and an effect lowered by a spread", async () => {
    const head = catalogFile({ refundSpread: `{ effect: "reversible" }` });
    const result = await diffJson(head);
    expect(result.items.map((item: { kind: string }) => item.kind)).toEqual([
      "effect-lowered",
      "approval-removed",
    ]);
    expect(result.changed[0].parts).toEqual(["effect", "approval"]);
    const run = await cli([
      "diff",
      "--base",
      base,
      "--head",
      head,
      "--fail-on",
      "approval-removed,effect-lowered",
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("approval-removed (1), effect-lowered (1)");
  });

  it("flags a raised limit, and not a lowered one", async () => {
    expect((await diffJson(catalogFile({ perDay: 500 }))).items).toEqual([
      expect.objectContaining({ kind: "limit-raised", detail: "perDay raised from 100 to 500" }),
    ]);
    const lowered = await diffJson(catalogFile({ perDay: 50 }));
    expect(lowered.items).toEqual([]);
    expect(lowered.changed[0].parts).toEqual(["limits"]);
  });

  it("shows a renamed template as removed and added, never as changed", async () => {
    const result = await diffJson(catalogFile({ refundId: "refund_full" }));
    expect(result.added).toEqual([expect.objectContaining({ id: "refund_full" })]);
    expect(result.removed).toEqual([expect.objectContaining({ id: "refund_order" })]);
    expect(result.changed).toEqual([]);
  });

  it("writes markdown with the review items first and the templates folded", async () => {
    const run = await cli([
      "diff",
      "--base",
      base,
      "--head",
      catalogFile({ refundSpread: `{ effect: "reversible" }` }),
      "--md",
    ]);
    expect(run.code).toBe(0);
    const items = run.stdout.indexOf("`approval-removed`");
    expect(items).toBeGreaterThan(0);
    expect(items).toBeLessThan(run.stdout.indexOf("<details>"));
    expect(run.stdout).toMatch(/\| changed \| refund\\_order \|/);
  });

  it("refuses a bad --fail-on before loading anything, naming the valid items", async () => {
    const run = await cli([
      "diff",
      "--base",
      "missing.ts",
      "--head",
      base,
      "--fail-on",
      "widened-reading,rate-down",
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('"rate-down" is not a review item');
    expect(run.stderr).toContain(
      "use widened-reading, recipient-change, effect-lowered, approval-removed, limit-raised, rate-up:N",
    );
    expect((await cli(["diff", "--base", base, "--head", base, "--fail-on", ","])).stderr).toContain(
      "needs at least one",
    );
  });

  it("refuses a missing file and a module that holds no catalog, in one line", async () => {
    const missing = await cli(["diff", "--base", join(directory, "nope.ts"), "--head", base]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("no catalog module at");
    const notCatalog = join(directory, "not-a-catalog.ts");
    writeFileSync(notCatalog, "export const catalog = { templates: [] };\nexport default 42;\n");
    const run = await cli(["diff", "--base", base, "--head", notCatalog]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^formletter: .*not-a-catalog\.ts/);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    const both = await cli(["diff", "--base", base, "--head", base, "--md", "--json"]);
    expect(both.code).toBe(1);
  });
});
