import { describe, expect, it } from "vitest";
import { renderHtmlReport } from "../../src/cli/html-report.js";
import { formatSummary, reportFromAudit } from "../../src/metrics/index.js";
import type { AuditEvent } from "../../src/store/store.js";

const meta = { title: "report", subtitle: "audit", generatedAt: new Date(Date.UTC(2026, 2, 2)) };
let next = 0;
function event(type: AuditEvent["type"], fields: Partial<AuditEvent> = {}): AuditEvent {
  next += 1;
  return {
    id: String(next),
    at: Date.UTC(2026, 2, 2, 10, next),
    type,
    ticketId: "T-1",
    runId: undefined,
    template: "pickup_ready",
    outcome: undefined,
    reason: undefined,
    key: undefined,
    actor: "outbox",
    data: {},
    ...fields,
  };
}

function status(data: Record<string, unknown>): AuditEvent {
  return event("delivery_status", { actor: "ses", data: { provider: "ses", matched: true, ...data } });
}

const events: AuditEvent[] = [
  event("decision", { outcome: "send" }),
  event("decision", { outcome: "escalate", reason: "record_not_found" }),
  status({ status: "delivered" }),
  status({ status: "delivered" }),
  status({ status: "bounced", bounce: "hard" }),
  status({ status: "bounced", bounce: "soft" }),
  status({ status: "bounced" }),
  status({ status: "complained" }),
  status({ status: "failed" }),
  status({ status: "delivered", matched: false }),
  // Hostile or foreign shapes: an unknown status, a status that is not a string, no data at all.
  status({ status: "opened" }),
  status({ status: ["delivered"] }),
  event("delivery_status", { data: undefined as unknown as AuditEvent["data"] }),
  status({ status: "__proto__" }),
];

describe("delivery outcomes in the report", () => {
  it("counts each provider event by status and bounce type, beside the escalation outcomes", async () => {
    const report = await reportFromAudit(events);
    expect(report.deliveryOutcomes).toEqual({
      delivered: 2,
      bounced: { hard: 1, soft: 1, unclassified: 1 },
      complained: 1,
      failed: 1,
      unmatched: 1,
    });
    // Delivery events are not decisions: the escalation rate is unchanged by them.
    expect(report.overall).toMatchObject({ decided: 2, escalated: 1 });
  });

  it("counts an event not tied to a sent message as unmatched only, whatever its status", async () => {
    const report = await reportFromAudit([
      status({ status: "bounced", bounce: "hard", matched: false }),
      status({ status: "complained", matched: "true" }),
    ]);
    expect(report.deliveryOutcomes).toMatchObject({ complained: 0, bounced: { hard: 0 }, unmatched: 2 });
  });

  it("counts a matched outcome under the catalog version and template@version its event records, and no other", async () => {
    const v1 = { catalogVersion: "0000000000000001", templateVersion: "00000000000000a1" };
    const v2 = { catalogVersion: "0000000000000002", templateVersion: "00000000000000a2" };
    const report = await reportFromAudit([
      event("decision", { outcome: "send", data: v1 }),
      event("decision", { outcome: "escalate", reason: "record_not_found", data: v1 }),
      status({ status: "delivered", ...v1 }),
      status({ status: "bounced", bounce: "hard", ...v1 }),
      // Decided before the period: its version has a row of its own, with no decisions.
      status({ status: "complained", ...v2 }),
      // Not tied to a message, written by an older version, or a forged version: counted overall only.
      status({ status: "delivered", matched: false, ...v1 }),
      status({ status: "delivered" }),
      status({ status: "delivered", catalogVersion: "<b>x</b>", templateVersion: 7 }),
    ]);
    const none = {
      delivered: 0,
      bounced: { hard: 0, soft: 0, unclassified: 0 },
      complained: 0,
      failed: 0,
      unmatched: 0,
    };
    expect(report.byCatalogVersion).toEqual([
      expect.objectContaining({
        key: v1.catalogVersion,
        decided: 2,
        deliveryOutcomes: { ...none, delivered: 1, bounced: { ...none.bounced, hard: 1 } },
      }),
      expect.objectContaining({
        key: v2.catalogVersion,
        decided: 0,
        deliveryOutcomes: { ...none, complained: 1 },
      }),
    ]);
    expect(
      report.byTemplateVersion.map((row) => [row.key, row.decided, row.deliveryOutcomes?.delivered]),
    ).toEqual([
      [`pickup_ready@${v1.templateVersion}`, 2, 1],
      [`pickup_ready@${v2.templateVersion}`, 0, 0],
    ]);
    expect(report.deliveryOutcomes).toMatchObject({ delivered: 3, unmatched: 1, complained: 1 });
    // A version no provider reported on has no outcomes on its row.
    const quiet = await reportFromAudit([event("decision", { outcome: "send", data: v1 })]);
    expect(quiet.byCatalogVersion[0]).not.toHaveProperty("deliveryOutcomes");
  });

  it("shows them in the text, the JSON and the HTML report, and nothing when no provider reported", async () => {
    const report = await reportFromAudit(events);
    const line =
      "delivery outcomes: delivered 2 · bounced 3 (1 hard, 1 soft, 1 unclassified) · complained 1 · failed 1 · unmatched 1";
    expect(formatSummary(report)).toContain(line);
    expect(JSON.parse(JSON.stringify(report)).deliveryOutcomes.bounced).toEqual({
      hard: 1,
      soft: 1,
      unclassified: 1,
    });
    const page = renderHtmlReport(report, meta);
    expect(page).toContain('id="delivery-outcomes"');
    expect(page).toContain("complained 1 · failed 1 · unmatched 1");
    const quiet = await reportFromAudit(events.slice(0, 2));
    expect(formatSummary(quiet)).not.toContain("delivery outcomes");
    expect(renderHtmlReport(quiet, meta)).not.toContain("delivery-outcomes");
  });
});
