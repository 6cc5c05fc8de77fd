import { describe, expect, it } from "vitest";
import { selfContainedPolicy } from "../../src/cli/html-page.js";
import { renderHtmlReport } from "../../src/cli/html-report.js";
import {
  createCatalog,
  createOutbox,
  defineTemplate,
  format,
  memoryStore,
  memoryTransport,
} from "../../src/index.js";
import { reportFromAudit } from "../../src/metrics/index.js";
import type { AuditEvent } from "../../src/store/store.js";
import {
  completionCheck,
  emergencyCallout,
  paymentRelease,
  propertyCatalog,
  propertyRecords,
  propertyTicket,
  proposal,
  visitRequest,
} from "../fixtures/property.js";

const { slot } = propertyRecords;
const order = slot.ref("work_orders", { show: { unit: "unit" }, where: (w) => w.status === "open" });
const contractor = slot.ref("contractors", { show: "name", match: { id: "order.contractorId" } });
const to = slot.ref("contractors", {
  show: "email",
  as: format.email(),
  match: { id: "order.contractorId" },
});

/** The property catalog after a deploy that made `completion_check` wait for a person's approval. */
const redeployed = createCatalog(propertyRecords, [
  visitRequest,
  defineTemplate(propertyRecords, {
    id: "completion_check",
    description: "Ask the contractor whether the work on a unit is finished",
    audience: "contractor",
    effect: "informational",
    channel: "email",
    to,
    subject: "Is unit {{order.unit}} finished?",
    body: "Hello {{contractor}},\n\nis the work at unit {{order.unit}} finished?",
    slots: { order, contractor },
    limits: { perTicket: 1, perDay: 100_000 },
    approval: "human",
  }),
  emergencyCallout,
  paymentRelease,
]);

const meta = { title: "Escalation report", subtitle: "audit log", generatedAt: new Date(0) };

/** The audit log of three tickets decided before the deploy and two after. */
async function auditAcrossDeploy(): Promise<AuditEvent[]> {
  const store = memoryStore();
  const outboxOf = (catalog: typeof propertyCatalog) =>
    createOutbox({ catalog, load: propertyTicket, store, transports: { email: memoryTransport() } });
  const before = outboxOf(propertyCatalog);
  for (const id of ["T-1", "T-2", "T-3"])
    await before.handle({ ticketId: id, output: proposal(id), runId: id });
  const after = outboxOf(redeployed as typeof propertyCatalog);
  for (const id of ["T-4", "T-5"]) await after.handle({ ticketId: id, output: proposal(id), runId: id });
  const events: AuditEvent[] = [];
  for await (const event of store.queryAudit({})) events.push(event);
  return events;
}

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
