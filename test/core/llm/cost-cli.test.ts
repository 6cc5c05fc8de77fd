import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { instructions } from "../../../examples/agent-kit.js";
import { promptCost } from "../../../src/core/llm/index.js";
import { sellerCatalog } from "../../../templates/seller.js";
import { cli } from "../../cli/run.js";
import { type InstalledCatalogs, installedCatalogs } from "../../fixtures/installed-catalogs.js";
import { sellerTickets } from "./fixtures.js";

// The seller catalog as a team has it, importing the installed package: loading it compiles no source.
let installed: InstalledCatalogs;
let catalogFile: string;
const ticketsFile = "examples/data/tickets.jsonl";
beforeAll(async () => {
  installed = await installedCatalogs(["templates/seller.ts"]);
  catalogFile = installed.at("templates/seller.ts");
}, 120_000);
afterAll(() => installed?.remove());

describe("formletter cost", { timeout: 120_000 }, () => {
  it("prints both cache modes' tokens per ticket and per day, as promptCost computes them", async () => {
    const dir = mkdtempSync(join(tmpdir(), "formletter-cost-"));
    const instructionsFile = join(dir, "instructions.txt");
    writeFileSync(instructionsFile, instructions);
    const { code, stdout, stderr } = await cli([
      "cost",
      catalogFile,
      "--tickets",
      ticketsFile,
      "--provider",
      "anthropic",
      "--instructions",
      instructionsFile,
      "--per-day",
      "2000",
      "--json",
    ]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const { costs } = JSON.parse(stdout) as { costs: { cache: string; median: number; perDay: object }[] };
    expect(costs.map((cost) => cost.cache)).toEqual(["ticket", "prefix"]);
    const records = sellerTickets.map((line) => line.records);
    for (const cost of costs) {
      const expected = promptCost(sellerCatalog, records, {
        provider: "anthropic",
        cache: cost.cache as "ticket" | "prefix",
        instructions,
        ticketsPerDay: 2000,
      });
      expect(cost.median).toBe(expected.median);
      expect(cost.perDay).toEqual(expected.perDay);
    }
  });

  it("prints a table for people, with the shared prefix", async () => {
    const { code, stdout } = await cli(["cost", catalogFile, "--tickets", ticketsFile, "--cache", "prefix"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^prefix +[\d,]+ +[\d,]+ +[\d,]+ \(9\d%\)/m);
    expect(stdout).not.toMatch(/^ticket /m);
  });

  it.each([
    [["--provider", "gemini"], /provider must be one of/],
    [["--cache", "always"], /--cache always: give ticket or prefix/],
    [["--per-day", "-3"], /--per-day -3/],
  ])("refuses %j with one line", async (extra, message) => {
    const { code, stderr } = await cli(["cost", catalogFile, "--tickets", ticketsFile, ...extra]);
    expect(code).toBe(1);
    expect(stderr).toMatch(message);
  });

  it("refuses a tickets file that is not JSON lines, naming the line", async () => {
    const dir = mkdtempSync(join(tmpdir(), "formletter-cost-"));
    const file = join(dir, "bad.jsonl");
    writeFileSync(file, '{"ticketId":"T-1"}\n{oops\n');
    const { code, stderr } = await cli(["cost", catalogFile, "--tickets", file]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/bad\.jsonl:2 is not JSON/);
  });
});
