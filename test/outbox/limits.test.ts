import { describe, expect, it } from "vitest";
import { createOutbox, type HandleResult, memoryStore, memoryTransport } from "../../src/index.js";
import type { AuditEvent } from "../../src/store/store.js";
import { loadTicket, propertyCatalog, propertyTicket, proposal } from "../fixtures/property.js";
import { auditOf, dayMs, minuteMs, outboxOver, rejectionOf, storeKinds, t0, useStore } from "./harness.js";

describe.each(storeKinds)("limits on the %s store", (kind) => {
  const ctx = useStore(kind);

  /** A limit reached: escalated, queued with the would-be message as draft, audited, nothing sent. */
  async function expectLimited(
    result: HandleResult,
    output: unknown,
    ticketId: string,
    detail: RegExp,
    limit: { limit: "ticket" | "day" | "run"; max: number; count: number },
  ): Promise<void> {
    const wouldBe = propertyCatalog.decide(output, propertyTicket(ticketId));
    if (wouldBe.outcome !== "send") throw new Error("fixture: the proposal must send");
    expect(result.decision).toMatchObject({
      outcome: "escalate",
      reason: "limit_exceeded",
      template: wouldBe.template,
      key: wouldBe.key,
      draft: wouldBe.message,
      ...limit,
    });
    if (result.decision.outcome === "escalate") expect(result.decision.detail).toMatch(detail);
    // The audit log keeps which limit, its maximum and its count as fields, not only in the sentence.
    let audited: AuditEvent | undefined;
    for await (const event of ctx.store.queryAudit({ ticketId }))
      if (event.id === result.auditId) audited = event;
    expect(audited?.data.facts).toEqual(limit);
    expect(result.duplicate).toBe(false);
    expect(result.outboundId).toBeUndefined();
    expect(result.delivery).toBeUndefined();
    const item = await ctx.store.getQueueItem(result.queueItemId as string);
    expect(item).toMatchObject({
      status: "open",
      reason: "limit_exceeded",
      ticketId,
      template: wouldBe.template,
      key: wouldBe.key,
      draft: wouldBe.message,
      auditId: result.auditId,
    });
  }

  it("perTicket: a template's sends for one ticket stop at its limit", async () => {
    const { outbox, transport } = outboxOver(ctx.store);
    const outputs = ["concierge", "lockbox", "tenant"].map((access) =>
      proposal("T-1", "visit_request", { access }),
    );
    const results: HandleResult[] = [];
    for (const [i, output] of outputs.entries()) {
      results.push(await outbox.handle({ ticketId: "T-1", output, runId: `run-${i}` }));
    }
    expect(results.slice(0, 2).map((result) => result.delivery?.status)).toEqual(["delivered", "delivered"]);
    await expectLimited(results[2] as HandleResult, outputs[2], "T-1", /per ticket/, {
      limit: "ticket",
      max: 2,
      count: 2,
    });
    expect(transport.sent).toHaveLength(2);
    // Another ticket is not affected.
    const other = await outbox.handle({
      ticketId: "T-2",
      output: proposal("T-2", "visit_request", { access: "tenant" }),
      runId: "run-9",
    });
    expect(other.delivery?.status).toBe("delivered");
    const events = await auditOf(outbox, { type: "decision" });
    expect(events.map((event) => event.reason)).toEqual([undefined, undefined, "limit_exceeded", undefined]);
  });

  it("perDay: a template's sends across tickets stop at its limit for a rolling day, counted in whole minutes", async () => {
    const { outbox, transport, clock } = outboxOver(ctx.store);
    const send = (ticketId: string) =>
      outbox.handle({ ticketId, output: proposal(ticketId, "emergency_callout"), runId: `run-${ticketId}` });
    expect((await send("T-1")).delivery?.status).toBe("delivered");
    clock.set(t0 + 30_000);
    expect((await send("T-2")).delivery?.status).toBe("delivered");
    await expectLimited(await send("T-3"), proposal("T-3", "emergency_callout"), "T-3", /24 hours/, {
      limit: "day",
      max: 2,
      count: 2,
    });

    // Exactly a day later, and later in the last minute of the window, the first sends still count:
    // the window is rounded out to whole minutes, so the limit holds a little longer, never shorter.
    clock.set(t0 + dayMs);
    expect((await send("T-4")).decision).toMatchObject({ reason: "limit_exceeded" });
    clock.set(t0 + dayMs + 59_999);
    expect((await send("T-5")).decision).toMatchObject({ reason: "limit_exceeded" });

    clock.set(t0 + dayMs + minuteMs);
    expect((await send("T-6")).delivery?.status).toBe("delivered");
    expect((await send("T-7")).delivery?.status).toBe("delivered");
    expect((await send("T-8")).decision).toMatchObject({ reason: "limit_exceeded" });
    expect(transport.sent.map((sent) => sent.message.to)).toEqual(
      ["T-1", "T-2", "T-6", "T-7"].map((id) => `works-${id.toLowerCase()}@builders.example`),
    );
  });

  it("maxPerRun (default 3): a run's sends stop at three, across templates and tickets", async () => {
    const { outbox, transport } = outboxOver(ctx.store);
    const results = [
      await outbox.handle({ ticketId: "T-1", output: proposal("T-1"), runId: "run-x" }),
      await outbox.handle({ ticketId: "T-2", output: proposal("T-2", "emergency_callout"), runId: "run-x" }),
      await outbox.handle({
        ticketId: "T-3",
        output: proposal("T-3", "visit_request", { access: "office" }),
        runId: "run-x",
      }),
      await outbox.handle({ ticketId: "T-4", output: proposal("T-4"), runId: "run-x" }),
    ];
    expect(results.slice(0, 3).every((result) => result.delivery?.status === "delivered")).toBe(true);
    await expectLimited(results[3] as HandleResult, proposal("T-4"), "T-4", /run run-x/, {
      limit: "run",
      max: 3,
      count: 3,
    });
    expect(transport.sent).toHaveLength(3);
    const nextRun = await outbox.handle({ ticketId: "T-4", output: proposal("T-4"), runId: "run-y" });
    expect(nextRun.delivery?.status).toBe("delivered");
  });

  it("maxPerRun can be set", async () => {
    const { outbox } = outboxOver(ctx.store, { maxPerRun: 1 });
    await outbox.handle({ ticketId: "T-1", output: proposal("T-1"), runId: "run-x" });
    const second = await outbox.handle({ ticketId: "T-2", output: proposal("T-2"), runId: "run-x" });
    expect(second.decision).toMatchObject({ reason: "limit_exceeded" });
  });

  it("approval drafts count towards the limits", async () => {
    const { outbox } = outboxOver(ctx.store, { maxPerRun: 2 });
    await outbox.handle({ ticketId: "T-1", output: proposal("T-1", "payment_release"), runId: "run-x" });
    await outbox.handle({ ticketId: "T-2", output: proposal("T-2", "payment_release"), runId: "run-x" });
    const third = await outbox.handle({ ticketId: "T-3", output: proposal("T-3"), runId: "run-x" });
    expect(third.decision).toMatchObject({ reason: "limit_exceeded" });
  });

  it("a limit_exceeded item approved by a person sends its draft, once", async () => {
    const { outbox, transport } = outboxOver(ctx.store, { maxPerRun: 1 });
    await outbox.handle({ ticketId: "T-1", output: proposal("T-1"), runId: "run-x" });
    const limited = await outbox.handle({ ticketId: "T-2", output: proposal("T-2"), runId: "run-x" });
    const item = await outbox.queue.get(limited.queueItemId as string);
    const approval = await outbox.queue.approve(limited.queueItemId as string, { by: "ana" });
    expect(approval.approvedNow).toBe(true);
    expect(approval.outbound?.status).toBe("delivered");
    expect(transport.sent).toHaveLength(2);
    expect(transport.sent[1]).toMatchObject({ message: item?.draft, key: item?.key });
    await outbox.queue.approve(limited.queueItemId as string, { by: "ana" });
    // The approved message is now the key's first result: the same proposal again is a duplicate.
    const again = await outbox.handle({ ticketId: "T-2", output: proposal("T-2"), runId: "run-z" });
    expect(again.duplicate).toBe(true);
    expect(transport.sent).toHaveLength(2);
  });

  it("approving a limit_exceeded item whose message was sent since sends nothing more", async () => {
    const { outbox, transport } = outboxOver(ctx.store, { maxPerRun: 1 });
    await outbox.handle({ ticketId: "T-1", output: proposal("T-1"), runId: "run-x" });
    const limited = await outbox.handle({ ticketId: "T-2", output: proposal("T-2"), runId: "run-x" });
    const sent = await outbox.handle({ ticketId: "T-2", output: proposal("T-2"), runId: "run-y" });
    expect(sent.delivery?.status).toBe("delivered");
    const approval = await outbox.queue.approve(limited.queueItemId as string, { by: "ana" });
    expect(approval.item.status).toBe("approved");
    expect(approval.outbound).toMatchObject({ id: sent.outboundId, status: "delivered" });
    expect(transport.sent.filter((entry) => entry.key === sent.decision.key)).toHaveLength(1);
    expect(await outbox.flush()).toEqual({ delivered: 0, failed: 0 });
  });
});

describe("createOutbox options", () => {
  it.each([
    ["maxPerRun 0", { maxPerRun: 0 }],
    ["maxPerRun 1.5", { maxPerRun: 1.5 }],
    ["retry attempts 0", { retry: { attempts: 0 } }],
    ["an unknown mode", { mode: "dry-run" }],
    ["no transport for a channel the catalog uses", { transports: {} }],
    ["no loader", { load: undefined }],
    ["recordRetryMs not below leaseMs", { leaseMs: 1_000, recordRetryMs: 1_000 }],
    ["recordRetryMs below 0", { recordRetryMs: -1 }],
    ["leaseMs 0", { leaseMs: 0 }],
    ["loadTimeoutMs 0", { loadTimeoutMs: 0 }],
    ["loadTimeoutMs too large for a timer", { loadTimeoutMs: 2 ** 31 }],
  ])("refuses %s with outbox_invalid", async (_, options) => {
    const error = await rejectionOf(
      (async () =>
        createOutbox({
          catalog: propertyCatalog,
          load: loadTicket,
          store: memoryStore(),
          transports: { email: memoryTransport() },
          ...(options as object),
        }))(),
    );
    expect(error).toMatchObject({ code: "outbox_invalid" });
  });
});
