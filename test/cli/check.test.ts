import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli } from "./run.js";

const source = fileURLToPath(new URL("../../src/index.ts", import.meta.url));
// The modules are written outside the project, so they name zod by its resolved path.
const zod = createRequire(import.meta.url).resolve("zod");
const fixtureCatalog = fileURLToPath(new URL("../fixtures/capacity-catalog.ts", import.meta.url));
let directory: string;
let count = 0;

/** Writes a catalog module into the temporary folder (a fresh name each time: modules are cached). */
function module(body: string, extension = "ts"): string {
  const file = join(directory, `catalog-${++count}.${extension}`);
  writeFileSync(
    file,
    `import { createCatalog, defineRecords, defineTemplate } from ${JSON.stringify(source)};
import { z } from ${JSON.stringify(zod)};
const records = defineRecords({
  orders: z.object({ id: z.string(), number: z.string(), email: z.email() }),
});
const { slot } = records;
const template = (id, show = "number") => defineTemplate(records, {
  id, description: "Tell the customer", audience: "customer", effect: "informational", channel: "email",
  to: slot.ref("orders", { show: "email" }), subject: "Order {{order}}", body: "Order {{order}} is on its way.",
  slots: { order: slot.ref("orders", { show }) }, limits: { perTicket: 1, perDay: 10 },
});
${body}
`,
  );
  return file;
}

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), "formletter-cli-check-"));
  // Loads a catalog module once, so the first test does not pay for compiling the library.
  await cli(["check", fixtureCatalog]);
}, 30_000);
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe("formletter check", () => {
  it("prints templates, slots, limits and channels of a good catalog and exits 0", async () => {
    const { code, stdout, stderr } = await cli(["check", fixtureCatalog]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^catalog capacity-catalog\.ts \(export catalog\): 2 template\(s\), version [0-9a-f]{16}\n/,
    );
    expect(stdout).toContain("escalation codes: no_template_fits, needs_human, suspicious_request");
    expect(stdout).toMatch(/status_update\s+email\s+customer\s+2\s+100\s+informational\s+-/);
    expect(stdout).toMatch(/status_update\s+item\s+ref\s+items \(orderId = order\.id\)\s+title \(text\)/);
    expect(stdout).toMatch(/status_update\s+status\s+choice\s+keys: shipped, delayed, lost/);
    expect(stdout).toMatch(
      /status_update\s+to\s+ref\s+customers \(id = order\.customerId\) → recipient\s+email \(email\)/,
    );
    expect(stdout).toMatch(/note_received\s+note\?\s+ref\s+notes/);
    expect(stdout).toContain("ok: every template passed the definition checks");
  });

  it("prints the catalog as JSON with --json", async () => {
    const { stdout } = await cli(["check", fixtureCatalog, "--json"]);
    const described = JSON.parse(stdout);
    expect(described).toMatchObject({ ok: true, export: "catalog" });
    expect(described.templates[0]).toMatchObject({
      id: "status_update",
      channel: "email",
      audience: "customer",
      limits: { perTicket: 2, perDay: 100 },
      effect: "informational",
      approval: null,
    });
    expect(described.templates[0].slots[2]).toEqual({
      name: "status",
      kind: "choice",
      optional: false,
      keys: ["shipped", "delayed", "lost"],
    });
  });

  it("shows each template's effect next to its approval, in text and in --json", async () => {
    const file = module(`const refund = defineTemplate(records, {
  id: "refund_issued", description: "Tell the customer the refund went out", audience: "customer",
  effect: "irreversible", approval: "human", channel: "email", to: slot.ref("orders", { show: "email" }),
  subject: "Refund {{order}}", body: "We refunded order {{order}}.", slots: { order: slot.ref("orders", { show: "number" }) },
  limits: { perTicket: 1, perDay: 10 },
});
const reminder = defineTemplate(records, {
  id: "reply_reminder", description: "Ask the customer to reply", audience: "customer",
  effect: "reversible", channel: "email", to: slot.ref("orders", { show: "email" }),
  subject: "Order {{order}}", body: "Please reply about order {{order}}.", slots: { order: slot.ref("orders", { show: "number" }) },
  limits: { perTicket: 1, perDay: 10 },
});
export const catalog = createCatalog(records, [template("status"), reminder, refund]);`);
    const text = await cli(["check", file]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/template\s+channel\s+audience\s+per ticket\s+per day\s+effect\s+approval\n/);
    expect(text.stdout).toMatch(/status\s+email\s+customer\s+1\s+10\s+informational\s+-\n/);
    expect(text.stdout).toMatch(/reply_reminder\s+email\s+customer\s+1\s+10\s+reversible\s+-\n/);
    expect(text.stdout).toMatch(/refund_issued\s+email\s+customer\s+1\s+10\s+irreversible\s+human\n/);
    const json = JSON.parse((await cli(["check", file, "--json"])).stdout);
    expect(
      json.templates.map((t: { id: string; effect: string; approval: string | null }) => [
        t.id,
        t.effect,
        t.approval,
      ]),
    ).toEqual([
      ["status", "informational", null],
      ["reply_reminder", "reversible", null],
      ["refund_issued", "irreversible", "human"],
    ]);
    // effect sits next to approval in each template's JSON.
    expect(Object.keys(json.templates[0]).slice(4, 6)).toEqual(["effect", "approval"]);
  });

  it("warns on no identifier in the texts of a clean catalog", async () => {
    const text = await cli(["check", fixtureCatalog]);
    expect(text.stdout).not.toContain("warning");
    expect(JSON.parse((await cli(["check", fixtureCatalog, "--json"])).stdout).warnings).toEqual([]);
  });

  it("warns on each identifier written in template text or a choice label, naming template, locale, part and kind", async () => {
    const file = module(`const written = defineTemplate(records, {
  id: "written_contact", description: "Tell the customer", audience: "customer", effect: "informational",
  channel: "email", to: slot.ref("orders", { show: "email" }),
  subject: "Order {{order}}: call +1 555 0100 200",
  body: "Order {{order}} is {{reason}}. Track it at https://track.acme.example/{{order}} or write to help@acme.example.",
  html: '<p>Order {{order}} is on its way. <a href="https://track.acme.example/help">Track it</a></p><!-- desk +1 555 0100 777 -->',
  slots: {
    order: slot.ref("orders", { show: "number" }),
    reason: slot.choice({ late: "late, call +1 555 0100 999", lost: "lost" }),
  },
  limits: { perTicket: 1, perDay: 10 },
  locale: {
    default: "en",
    from: () => "de",
    texts: {
      de: {
        subject: "Bestellung {{order}}",
        body: "Bestellung {{order}} ist {{reason}}, Vorgang 3f2a9c1e-7b4d-4e8a-9f0c-2d6b8e1a4c7f.",
        choices: { reason: { late: "versp\u00e4tet", lost: "verloren" } },
        html: '<p title="www.acme.example">Bestellung {{order}} ist unterwegs.</p>',
      },
    },
  },
});
export const catalog = createCatalog(records, [template("clean"), written]);`);
    const text = await cli(["check", file]);
    expect(text.code).toBe(0);
    expect(text.stderr).toBe("");
    expect(text.stdout).toContain("warning: 8 identifier(s) written in template text");
    expect(text.stdout).toContain(
      "  template written_contact, locale en, subject: phone or other long number +1 555 0100 200\n",
    );
    expect(text.stdout).toContain(
      "  template written_contact, locale de, html: URL or host name www[.]acme[.]example\n",
    );
    expect(text.stdout).toContain(
      "  template written_contact, locale en, choice reason: phone or other long number +1 555 0100 999\n",
    );
    expect(text.stdout).not.toMatch(/template clean,|https:\/\/|help@acme/);
    expect(text.stdout).toContain("ok: every template passed the definition checks");
    const { warnings } = JSON.parse((await cli(["check", file, "--json"])).stdout);
    expect(warnings).toEqual([
      { template: "written_contact", locale: "en", part: "subject", kind: "phone", text: "+1 555 0100 200" },
      {
        template: "written_contact",
        locale: "en",
        part: "text",
        kind: "url",
        text: "hxxps[:]//track[.]acme[.]example/\u2774\u2774order\u2775\u2775",
      },
      {
        template: "written_contact",
        locale: "en",
        part: "text",
        kind: "email",
        text: "help(@)acme[.]example",
      },
      {
        template: "written_contact",
        locale: "en",
        part: "html",
        kind: "url",
        text: "hxxps[:]//track[.]acme[.]example/help",
      },
      { template: "written_contact", locale: "en", part: "html", kind: "phone", text: "+1 555 0100 777" },
      {
        template: "written_contact",
        locale: "en",
        part: "choice",
        slot: "reason",
        kind: "phone",
        text: "+1 555 0100 999",
      },
      { template: "written_contact", locale: "de", part: "text", kind: "id", text: "3f2a\u20264c7f" },
      { template: "written_contact", locale: "de", part: "html", kind: "url", text: "www[.]acme[.]example" },
    ]);
  });

  it("exits 1 with the definition error, which names the template, the slot and the fix", async () => {
    const file = module(
      `export const catalog = createCatalog(records, [template("order_shipped", "nmber")]);`,
    );
    const { code, stdout, stderr } = await cli(["check", file]);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toBe(
      `formletter: ${file}: template "order_shipped", slot "order": shows "nmber", which is not a field of "orders"; fields: id, number, email\n`,
    );
  });

  it("finds the catalog: --export, default export, the only catalog export; and says when it cannot", async () => {
    const two = module(
      `export const first = createCatalog(records, [template("a")]);\nexport const second = createCatalog(records, [template("b")]);`,
    );
    const ambiguous = await cli(["check", two]);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toBe(
      `formletter: ${two} exports 2 catalogs (first, second); pick one with --export NAME\n`,
    );
    expect((await cli(["check", two, "--export", "second"])).stdout).toMatch(/\(export second\): 1 template/);
    const wrong = await cli(["check", two, "--export", "third"]);
    expect(wrong.stderr).toBe(
      `formletter: ${two}: export "third" is missing; catalogs exported: first, second\n`,
    );

    const byDefault = module(`export default createCatalog(records, [template("a")]);\nexport { records };`);
    expect((await cli(["check", byDefault])).stdout).toMatch(/\(export default\)/);
    const only = module(`export const shop = createCatalog(records, [template("a")]);\nexport { records };`);
    expect((await cli(["check", only])).stdout).toMatch(/\(export shop\)/);

    const none = module("export { records };");
    const missing = await cli(["check", none]);
    expect(missing.stderr).toBe(
      `formletter: ${none} exports no catalog built with createCatalog; exports: records. Export it as default or as "catalog"\n`,
    );
  });

  it("exits 1 on a module that does not load, naming the file", async () => {
    const broken = join(directory, "broken.ts");
    writeFileSync(broken, "export const catalog = ;\n");
    const syntax = await cli(["check", broken]);
    expect(syntax.code).toBe(1);
    expect(syntax.stderr).toMatch(
      new RegExp(`^formletter: cannot load ${broken.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}: `),
    );
    expect(syntax.stderr.trim().split("\n")).toHaveLength(1);

    const throwing = module(`throw new Error("no database in CI");`);
    expect((await cli(["check", throwing])).stderr).toBe(
      `formletter: cannot load ${throwing}: no database in CI\n`,
    );
  });
});
