import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Checklist } from "../../src/checklist/index.js";
import { type InstalledCatalogs, installedCatalogs } from "../fixtures/installed-catalogs.js";
import { cli } from "./run.js";

const path = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));
// The catalogs are modules of a team's project, importing the installed package (built from the
// sources): loading one compiles no source.
let installed: InstalledCatalogs;
let sellerModule: string;
const sellerSample = path("../../examples/data/seller-sample-ticket.json");
let directory: string;
let weakModule: string;
let goodModule: string;
let samplePath: string;

const sample = {
  ticketId: "T-1",
  orders: [{ id: "o1", number: "5501", contactId: "c1" }],
  contacts: [{ id: "c1", email: "shop@seller.example" }],
};

/**
 * A catalog module: a notice and a payout. When `weak`, the seller is labelled as writing the order's
 * contact id after the templates were defined, so the seller picks where the notice goes.
 */
const catalogModule = (weak: boolean) => `
import { createCatalog, defineRecords, defineTemplate, untrusted } from "formletter";
import { z } from "zod";
const records = defineRecords({
  orders: z.object({ id: z.string(), number: z.string(), contactId: z.string() }),
  contacts: z.object({ id: z.string(), email: z.email() }),
});
const { slot } = records;
const common = {
  audience: "seller", channel: "email",
  to: slot.ref("contacts", { show: "email", match: { id: "order.contactId" } }),
  slots: { order: slot.ref("orders", { show: "number" }) }, limits: { perTicket: 1, perDay: 100 },
};
const notice = defineTemplate(records, { ...common, id: "order_notice", description: "Tell the seller about an order",
  effect: "informational", subject: "Order {{order}}", body: "About order {{order}}." });
const payout = defineTemplate(records, { ...common, id: "payout", description: "Pay the seller out",
  effect: "irreversible", approval: "human", subject: "Payout {{order}}", body: "We paid out order {{order}}." });
${weak ? 'untrusted("seller", records.collections.orders.shape.contactId);' : ""}
export const catalog = createCatalog(records, [notice, payout]);
`;

beforeAll(async () => {
  installed = await installedCatalogs(["templates/seller.ts"]);
  sellerModule = installed.at("templates/seller.ts");
  directory = installed.directory;
  weakModule = join(directory, "weak.ts");
  goodModule = join(directory, "good.ts");
  samplePath = join(directory, "sample.json");
  writeFileSync(weakModule, catalogModule(true));
  writeFileSync(goodModule, catalogModule(false));
  writeFileSync(samplePath, JSON.stringify(sample));
}, 120_000);
afterAll(() => installed?.remove());

describe("formletter checklist", () => {
  it("the seller catalog with its bundled sample ticket: every item ✓, exit 0", async () => {
    const { code, stdout, stderr } = await cli([
      "checklist",
      "--catalog",
      sellerModule,
      "--records",
      sellerSample,
    ]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^pre-launch checklist of seller\.ts \(export sellerCatalog, version [0-9a-f]{16}\)\n/,
    );
    expect(stdout).toContain("template refund_request: to the seller by email\n");
    expect(stdout).toContain('  ✓ effect: irreversible, approval "human"\n');
    expect(stdout).toContain("  ✓ recipient: from sellers.email (id = order.sellerId)\n");
    expect(stdout).toMatch(
      / {2}✓ hostile outputs: 59 malformed outputs, \d+ decisions: \d+ escalated, none sent or threw\n/,
    );
    expect(stdout).toMatch(/ {2}✓ injection: 48 hostile bodies × \d+ text fields/);
    expect(stdout).toMatch(/ {2}✓ properties: 500 random decisions/);
    expect(stdout).not.toMatch(/^ {2}✗ /m);
    expect(stdout).toMatch(/\nready: no item is ✗ \(\d+ ✓, 0 ✗, 1 !\)\n$/);
    // docs/checklist.md shows this output, trimmed: every line it shows is a line of the real output.
    const page = readFileSync(path("../../docs/checklist.md"), "utf8");
    const start = page.indexOf("$ npx formletter checklist --catalog templates/seller.ts --records");
    expect(start).toBeGreaterThan(-1);
    const shown = page.slice(start, page.indexOf("```", start)).split("\n").slice(1, -1);
    expect(shown.length).toBeGreaterThan(10);
    const lines = new Set(stdout.split("\n"));
    for (const line of shown) if (!line.trim().startsWith("…")) expect(lines).toContain(line);
    // Nothing of the sample's records is echoed: no address, name, title, number or id of it.
    const values = JSON.stringify(JSON.parse(readFileSync(sellerSample, "utf8")))
      .match(/"[^"]{6,}"/g)
      ?.map((quoted) => JSON.parse(quoted) as string)
      .filter((value) => !/^[a-z][a-zA-Z]+$/.test(value));
    expect(values?.length).toBeGreaterThan(20);
    for (const value of values ?? []) expect(stdout).not.toContain(value);
  }, 120_000);

  it("a weak catalog (a recipient chosen through a field the seller writes): ✗ and exit 1", async () => {
    const { code, stdout, stderr } = await cli([
      "checklist",
      "--catalog",
      weakModule,
      "--records",
      samplePath,
      "--runs",
      "50",
    ]);
    expect(code).toBe(1);
    // Both templates send to the contact the order names.
    expect(stderr).toBe("formletter: checklist: 2 items ✗\n");
    expect(stdout).toContain(
      "  ✗ recipient: the recipient is chosen through a field an outsider wrote: contacts.email (id = order.contactId)\n",
    );
    expect(stdout).toMatch(/\nNOT READY: fix every ✗ before launch \(\d+ ✓, 2 ✗, 1 !\)\n$/);
    // The same catalog with its approval: exit 0.
    expect(
      (await cli(["checklist", "--catalog", goodModule, "--records", samplePath, "--runs", "50"])).code,
    ).toBe(0);
  });

  it("without --records: the live checks are ✗ with 'no sample ticket: pass --records', exit 1", async () => {
    const { code, stdout } = await cli(["checklist", "--catalog", goodModule]);
    expect(code).toBe(1);
    expect(stdout).toContain("  ✗ sample: no sample ticket: pass --records\n");
    expect(stdout).toContain("  ✗ injection: not run: no valid sample ticket\n");
  });

  it("--json prints the items and ok; --md prints Markdown; both keep the exit code", async () => {
    const json = await cli([
      "checklist",
      "--catalog",
      weakModule,
      "--records",
      samplePath,
      "--runs",
      "50",
      "--json",
    ]);
    expect(json.code).toBe(1);
    const parsed = JSON.parse(json.stdout) as Checklist & { catalog: { export: string } };
    expect(parsed.ok).toBe(false);
    expect(parsed.catalog.export).toBe("catalog");
    expect(parsed.items.filter((item) => item.status === "fail")).toEqual([
      expect.objectContaining({ section: "template", template: "order_notice", check: "recipient" }),
      expect.objectContaining({ section: "template", template: "payout", check: "recipient" }),
    ]);
    const md = await cli([
      "checklist",
      "--catalog",
      goodModule,
      "--records",
      samplePath,
      "--runs",
      "50",
      "--md",
    ]);
    expect(md.code).toBe(0);
    expect(md.stdout).toMatch(/^# Pre-launch checklist: good\.ts/);
    expect(md.stdout).toContain("## template payout: to the seller by email\n");
    expect(md.stdout).toContain('- ✓ **effect**: irreversible, approval "human"\n');
    expect(md.stdout).toContain("  - to: sends to contacts.email (no label)\n");
    expect(md.stdout).toMatch(/\*\*Ready\*\*: no item is ✗/);
  });

  it("refuses --json with --md and a threshold that is not a number", async () => {
    expect((await cli(["checklist", "--catalog", goodModule, "--json", "--md"])).stderr).toBe(
      "formletter: pass --json or --md, not both\n",
    );
    const bad = await cli(["checklist", "--catalog", goodModule, "--max-per-day", "lots"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe("formletter: --max-per-day lots: give a whole number ≥ 0\n");
  });

  it("writes no terminal escape or bidi control from a hostile sample, and echoes none of its values", async () => {
    const hostile = join(directory, "hostile.json");
    writeFileSync(
      hostile,
      JSON.stringify({
        ticketId: "T-\u001b]52;c;cGF5bG9hZA==\u0007\u202E",
        orders: [{ id: "o1\u001b[2J", number: "\u001b[31mRED\u001b[0m", contactId: "c1" }],
        contacts: [{ id: "c1", email: "shop@seller.example" }],
      }),
    );
    // An invalid sample whose problem names a hostile collection: the problem is shown, cut to printable text.
    const invalid = join(directory, "invalid.json");
    writeFileSync(invalid, JSON.stringify({ ticketId: "T-2", "\u001b[2Jorders\u202E": [] }));
    const refused = await cli(["checklist", "--catalog", goodModule, "--records", invalid]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/ {2}✗ sample: the sample ticket's records are invalid: /);
    expect(`${refused.stdout}${refused.stderr}`).not.toMatch(/[\u001b\u0007\u202E]/);
    for (const format of [[], ["--md"], ["--json"]]) {
      const { stdout, stderr } = await cli([
        "checklist",
        "--catalog",
        goodModule,
        "--records",
        hostile,
        "--runs",
        "50",
        ...format,
      ]);
      expect(`${stdout}${stderr}`).not.toMatch(/[\u001b\u0007\u202E]/);
      expect(stdout).not.toContain("RED");
      expect(stdout).not.toContain("cGF5bG9hZA");
    }
  });
});
