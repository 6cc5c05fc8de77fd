import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CatalogCapacity } from "../../src/capacity/index.js";
import { sample } from "../fixtures/capacity-catalog.js";
import { cli } from "./run.js";

const fixtureCatalog = fileURLToPath(new URL("../fixtures/capacity-catalog.ts", import.meta.url));
let directory: string;
let samplePath: string;

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), "formletter-cli-capacity-"));
  samplePath = join(directory, "sample.json");
  writeFileSync(samplePath, JSON.stringify(sample));
  // Loads the catalog module once, so the first test does not pay for compiling the library.
  return cli(["check", fixtureCatalog]).then(() => undefined);
}, 30_000);
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe("formletter capacity", () => {
  it("prints choices per slot, the worst case per template with totals, and the fields shown", async () => {
    const { code, stdout, stderr } = await cli(["capacity", fixtureCatalog, "--records", samplePath]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toContain("template choice: 2 templates = log2(2) = 1.00 bits");
    expect(stdout).toContain(
      "candidates: counted on sample ticket T-1 (orders 2, items 3, customers 1, notes 2)",
    );
    expect(stdout).toMatch(/status_update\s+item\s+ref\s+items\s+3\s+1\.58/);
    expect(stdout).toMatch(/note_received\s+note\s+ref\s+notes \(optional\)\s+3\s+1\.58/);
    // 2 + 2·log2 3 = 5.17 bits; × 2 a ticket = 10.34; × 100 a day = 516.99; 9 of 18 proposals distinct on the sample.
    expect(stdout).toMatch(
      /status_update\s+email\s+5\.17\s+2\s+10\.34\s+100\s+516\.99\s+informational\s+-\s+9 of 18 proposals = 3\.17 bits/,
    );
    expect(stdout).toMatch(/total\s+3\s+12\.92\s+150\s+646\.24/);
    expect(stdout).toMatch(
      /note_received\s+note\s+notes\.body\s+shown\s+UNTRUSTED, written by customer\s+customer/,
    );
    expect(stdout).toMatch(
      /status_update\s+to\s+customers\.email\s+recipient\s+PRIVATE, readable by customer\s+customer/,
    );
    expect(stdout).toContain("records of other tickets reachable: 0");
  });

  it("lists each template's locales and counts the sample's messages per locale", async () => {
    const sellerCatalog = fileURLToPath(new URL("../../templates/seller.ts", import.meta.url));
    const tickets = readFileSync(new URL("../../examples/data/tickets.jsonl", import.meta.url), "utf8")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as { records: { sellers?: { locale?: string }[] } });
    const german = tickets.find((ticket) =>
      ticket.records.sellers?.some((seller) => seller.locale?.startsWith("de")),
    );
    const germanPath = join(directory, "german.json");
    writeFileSync(germanPath, JSON.stringify(german?.records));
    const { code, stdout } = await cli(["capacity", sellerCatalog, "--records", germanPath]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/approval\s+locales\s+sample: distinct messages/);
    expect(stdout).toMatch(
      /tracking_request\s+email\s.*\sen, de, es\s+(\d+) of \d+ proposals = [\d.]+ bits \(de \1\)/,
    );
    expect(stdout).toMatch(/missing_item\s+email\s.*\s-\s+\d+ of \d+ proposals = [\d.]+ bits\n/);
  });

  it("states the assumption without a sample, and takes another with --assume", async () => {
    const assumed = await cli(["capacity", fixtureCatalog]);
    expect(assumed.stdout).toContain(
      "candidates: ASSUMED 8 records per ref slot (records.maxPerCollection, the most one ticket may hold); pass --records SAMPLE.json to count a real ticket",
    );
    // 10 + log2 3 = 11.58 bits a status update.
    expect(assumed.stdout).toMatch(/status_update\s+email\s+11\.58\s+/);
    const one = await cli(["capacity", fixtureCatalog, "--assume", "1"]);
    expect(one.stdout).toContain("candidates: ASSUMED 1 records per ref slot (--assume)");
  });

  it("prints the figures as JSON with --json", async () => {
    const { code, stdout } = await cli(["capacity", fixtureCatalog, "--records", samplePath, "--json"]);
    expect(code).toBe(0);
    const capacity = JSON.parse(stdout) as CatalogCapacity & { catalog: { export: string; version: string } };
    expect(Object.keys(capacity)).toEqual([
      "catalog",
      "templates",
      "templateChoices",
      "basis",
      "totals",
      "otherTicketsReachable",
      "notes",
    ]);
    expect(capacity.catalog.export).toBe("catalog");
    expect(capacity.templates.map((t) => [t.id, t.effect, t.approval ?? null])).toEqual([
      ["status_update", "informational", null],
      ["note_received", "informational", null],
    ]);
    expect(capacity.templates.flatMap((t) => t.fields).some((f) => f.label === "private")).toBe(true);
    expect(capacity.totals.perDay.messages).toBe(150);
    expect(capacity.totals.perDay.bits).toBeCloseTo(250 + 250 * Math.log2(3), 9);
    expect(capacity.templates[0]?.slots[0]).toEqual({
      slot: "order",
      kind: "ref",
      from: "orders",
      optional: false,
      candidates: 2,
      bits: 1,
    });
  });

  it("exits 1 on a sample that is not JSON or not valid records, and on --records with --assume", async () => {
    const notJson = join(directory, "bad.json");
    writeFileSync(notJson, "{");
    expect((await cli(["capacity", fixtureCatalog, "--records", notJson])).stderr).toContain("is not JSON");
    const invalid = join(directory, "invalid.json");
    writeFileSync(invalid, JSON.stringify({ ticketId: "T-1", orders: [{ id: "o1" }] }));
    const result = await cli(["capacity", fixtureCatalog, "--records", invalid]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^formletter: the sample ticket's records are invalid: orders\[0\]\.number/,
    );
    expect((await cli(["capacity", fixtureCatalog, "--records", samplePath, "--assume", "3"])).code).toBe(1);
  });
});
