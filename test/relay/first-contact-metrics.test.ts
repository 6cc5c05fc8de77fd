import { describe, expect, it } from "vitest";
import { escalate, type SendDecision } from "../../src/index.js";
import { createRelayMetrics } from "../../src/relay/relay-metrics.js";

const send: SendDecision = {
  outcome: "send",
  ticketId: "T-1",
  template: "refund_notice",
  message: { template: "refund_notice", channel: "email", to: "a@shop.example", text: "x" },
  values: {},
  choices: {},
  key: "fl_1",
};

describe("relay metrics for ceilings and first contact", () => {
  it('counts first contacts by template, and ceiling trips as limit="ceiling"', async () => {
    const metrics = createRelayMetrics();
    metrics.decision({ ...send, firstContact: { destination: "0123456789ab" } }, false, "delivered");
    metrics.decision(send, false, "delivered");
    metrics.decision({ ...send, firstContact: { destination: "0123456789ab" } }, true, undefined);
    const trip = {
      limit: "ceiling",
      ceiling: "refunds",
      group: "g",
      window: "day",
      max: 1,
      spent: 1,
      amount: 1,
    } as const;
    metrics.decision(
      escalate({ reason: "limit_exceeded", detail: "over", template: "refund_notice", ...trip }),
      false,
      undefined,
    );
    metrics.decision(
      escalate({ reason: "limit_exceeded", detail: "over", limit: "day", max: 1, count: 1 }),
      false,
      undefined,
    );
    const text = await metrics.render();
    expect(text).toContain('formletter_relay_first_contacts_total{template="refund_notice"} 1\n');
    expect(text).toContain('formletter_relay_limit_events_total{limit="ceiling"} 1\n');
    expect(text).toContain('formletter_relay_limit_events_total{limit="template"} 1\n');
  });
});
