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
