import { describe, expect, it } from "vitest";
import type { AuditEvent } from "../../src/store/store.js";
import { proposal } from "../fixtures/property.js";
import { auditOf, outboxOver, storeKinds, t0, useStore } from "./harness.js";

describe.each(storeKinds)("outbox.audit on the %s store", (kind) => {
  const ctx = useStore(kind);

  /** Three tickets a second apart: a send (decision + delivery), an escalation, a send. */
  async function history() {
    const { outbox, clock } = outboxOver(ctx.store);
    await outbox.handle({ ticketId: "T-1", output: proposal("T-1"), runId: "r1" });
    clock.set(t0 + 1_000);
    await outbox.handle({ ticketId: "T-2", output: { escalate: "no_template_fits" }, runId: "r2" });
    clock.set(t0 + 2_000);
    await outbox.handle({ ticketId: "T-3", output: proposal("T-3"), runId: "r3" });
    return outbox;
  }

  const summary = (events: AuditEvent[]) =>
    events.map((event) => [event.at - t0, event.type, event.ticketId]);

  it("streams every event in time order", async () => {
    const outbox = await history();
    expect(summary(await auditOf(outbox))).toEqual([
      [0, "decision", "T-1"],
      [0, "delivery", "T-1"],
      [1_000, "decision", "T-2"],
      [2_000, "decision", "T-3"],
      [2_000, "delivery", "T-3"],
    ]);
  });

  it.each([
    ["Date", (ms: number) => new Date(ms)],
    ["number", (ms: number) => ms],
  ])("takes since (inclusive) and until (exclusive) as a %s", async (_, time) => {
    const outbox = await history();
    expect(summary(await auditOf(outbox, { since: time(t0 + 1_000) }))).toEqual([
      [1_000, "decision", "T-2"],
      [2_000, "decision", "T-3"],
      [2_000, "delivery", "T-3"],
    ]);
    expect(summary(await auditOf(outbox, { until: time(t0 + 1_000) }))).toEqual([
      [0, "decision", "T-1"],
      [0, "delivery", "T-1"],
    ]);
    expect(summary(await auditOf(outbox, { since: time(t0 + 1), until: time(t0 + 2_000) }))).toEqual([
      [1_000, "decision", "T-2"],
    ]);
  });

  it("filters by ticket and type", async () => {
    const outbox = await history();
    expect(summary(await auditOf(outbox, { ticketId: "T-3" }))).toEqual([
      [2_000, "decision", "T-3"],
      [2_000, "delivery", "T-3"],
    ]);
    expect(summary(await auditOf(outbox, { type: "delivery", since: new Date(t0 + 1) }))).toEqual([
      [2_000, "delivery", "T-3"],
    ]);
  });

  it("records an escalation with the model's code and note, for humans", async () => {
    const { outbox } = outboxOver(ctx.store);
    await outbox.handle({
      ticketId: "T-1",
      output: { escalate: "needs_human", note: "The tenant says the boiler\u202E leaks" },
      runId: "r",
      tags: { trade: "heating" },
    });
    const [event] = await auditOf(outbox);
    expect(event).toMatchObject({
      type: "decision",
      outcome: "escalate",
      reason: "model_escalated",
      data: {
        facts: { code: "needs_human" },
        tags: { trade: "heating" },
        proposal: { escalate: "needs_human" },
      },
    });
    const facts = event?.data.facts as { note?: string };
    expect(facts.note).toEqual(expect.stringContaining("boiler"));
    expect(facts.note).not.toContain("\u202E");
  });
});
