import { describe, expect, it } from "vitest";
import { formatSummary, reportFromAudit, wilsonInterval } from "../../src/metrics/index.js";
import type { AuditEvent } from "../../src/store/store.js";

function event(id: number, fields: Partial<AuditEvent>): AuditEvent {
  return {
    id: String(id),
    at: Date.UTC(2026, 2, 2, 9, 0, id),
    type: "decision",
    ticketId: `T-${id}`,
    runId: "run",
    template: "refund_notice",
    outcome: "send",
    reason: undefined,
    key: `fl_${id}`,
    actor: "outbox",
    data: {},
    ...fields,
  };
}

describe("the first-contact rate in reports", () => {
  it("is first contacts of the outbox's sends over sends, with its 95% Wilson interval; approvals' are not counted", async () => {
    const events = [
      ...[1, 2, 3, 4].map((id) => event(id, {})),
      event(5, { outcome: "escalate", reason: "model_escalated" }),
      ...[1, 2, 3].map((id) => event(10 + id, { type: "first_contact", data: { destination: "abc" } })),
      event(20, { type: "first_contact", actor: "ana", data: { destination: "def" } }),
    ];
    const report = await reportFromAudit(events);
    const { low, high } = wilsonInterval(3, 4);
    expect(report.firstContact).toEqual({ sends: 4, firstContacts: 3, rate: 0.75, low, high });
    expect(formatSummary(report)).toContain("first contacts: 3 of 4 sends (75.0%, 95% ");
  });

  it("is capped at the sends, and zero of none is [0, 1]", async () => {
    const over = [event(1, {}), ...[2, 3, 4].map((id) => event(id, { type: "first_contact" }))];
    expect((await reportFromAudit(over)).firstContact).toMatchObject({ sends: 1, firstContacts: 1, rate: 1 });
    expect((await reportFromAudit([])).firstContact).toEqual({
      sends: 0,
      firstContacts: 0,
      rate: 0,
      low: 0,
      high: 1,
    });
  });
});
