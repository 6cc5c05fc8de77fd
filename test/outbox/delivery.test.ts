import { describe, expect, it } from "vitest";
import { memoryTransport, type Transport } from "../../src/index.js";
import { propertyCatalog, propertyTicket, proposal } from "../fixtures/property.js";
import { message, outboundRow } from "../store/conformance.js";
import { auditOf, outboxOver, storeKinds, t0, useStore } from "./harness.js";

const leaseMs = 300_000;

/** A transport whose deliveries never finish, as if the process stopped while the provider was called. */
function stalledTransport() {
  const keys: string[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const transport: Transport = {
    name: "stalled",
    deliver: (_message, { key }) => {
      keys.push(key);
      for (const waiter of waiters) if (keys.length >= waiter.n) waiter.resolve();
      return new Promise(() => undefined);
    },
  };
  const called = (n: number) =>
    new Promise<void>((resolve) => {
      if (keys.length >= n) resolve();
      else waiters.push({ n, resolve });
    });
  return { transport, keys, called };
}

describe.each(storeKinds)("delivery on the %s store", (kind) => {
  const ctx = useStore(kind);

  it("retries a retryable failure and delivers on the third attempt", async () => {
    const transport = memoryTransport({ failFirst: 2 });
    const { outbox } = outboxOver(ctx.store, { transport, retry: { attempts: 3, baseDelayMs: 0 } });
    const result = await outbox.handle({ ticketId: "T-1", output: proposal("T-1"), runId: "r" });
    expect(result.delivery).toEqual({ status: "delivered", attempts: 3, receiptId: "mem-1" });
    expect(transport.failed.map((failure) => failure.attempt)).toEqual([1, 2]);
    expect(transport.sent.map((sent) => [sent.attempt, sent.key])).toEqual([[3, result.decision.key]]);
    expect(transport.failed.every((failure) => failure.key === result.decision.key)).toBe(true);
    expect(await ctx.store.getOutbound(result.outboundId as string)).toMatchObject({
      status: "delivered",
      attempts: 3,
    });
    const [delivery] = await auditOf(outbox, { type: "delivery" });
    expect(delivery?.data).toMatchObject({ status: "delivered", attempts: 3 });
    expect(delivery?.data.errors).toHaveLength(2);
    expect(result.queueItemId).toBeUndefined();
  });

  it("a pending row on a channel the outbox has no transport for fails to the queue instead of failing flush()", async () => {
    const { outbox, transport } = outboxOver(ctx.store);
    const row = outboundRow({
      key: "fl_sms_row",
      message: { ...message(1), channel: "sms", to: "+4915112345678" },
    });
    const id = await ctx.store.transaction((tx) => tx.addOutbound(row));
    expect(await outbox.flush()).toEqual({ delivered: 0, failed: 1 });
    expect(transport.sent).toHaveLength(0);
    expect(await ctx.store.getOutbound(id)).toMatchObject({ status: "failed", leaseUntil: undefined });
    const [item] = (await ctx.store.listQueue({ reason: "delivery_failed" })).items;
    expect(item).toMatchObject({ outboundId: id, key: "fl_sms_row", draft: row.message });
    expect(item?.detail).toContain('no transport for channel "sms"');
    expect(await outbox.flush()).toEqual({ delivered: 0, failed: 0 });
  });

  it("retries an unknown error a transport throws", async () => {
    let calls = 0;
    const transport: Transport = {
      name: "flaky",
      deliver: async () => {
        calls++;
        if (calls === 1) throw new TypeError("socket hang up");
        return { id: "ok-1" };
      },
    };
    const { outbox } = outboxOver(ctx.store, { transport });
    const result = await outbox.handle({ ticketId: "T-1", output: proposal("T-1"), runId: "r" });
    expect(result.delivery).toEqual({ status: "delivered", attempts: 2, receiptId: "ok-1" });
  });

  it("gives up after `attempts` retryable failures", async () => {
    const transport = memoryTransport({ failFirst: 5 });
    const { outbox } = outboxOver(ctx.store, { transport, retry: { attempts: 3, baseDelayMs: 0 } });
    const result = await outbox.handle({ ticketId: "T-1", output: proposal("T-1"), runId: "r" });
    expect(result.delivery).toEqual({ status: "failed", attempts: 3 });
    expect(transport.failed).toHaveLength(3);
    expect(transport.sent).toEqual([]);
  });

  it("a permanent failure is not retried: the row fails and a delivery_failed item holds the message", async () => {
    const transport = memoryTransport({ failWhen: () => true, retryable: false });
    const { outbox } = outboxOver(ctx.store, { transport });
    const result = await outbox.handle({ ticketId: "T-1", output: proposal("T-1"), runId: "run-1" });
    const decided = propertyCatalog.decide(proposal("T-1"), propertyTicket("T-1"));
    if (decided.outcome !== "send") throw new Error("fixture: the proposal must send");

    // The decision stands (it was a send); the delivery failed.
    expect(result.decision).toEqual(decided);
    expect(result.delivery).toEqual({ status: "failed", attempts: 1 });
    expect(transport.failed).toHaveLength(1);
    expect(await ctx.store.getOutbound(result.outboundId as string)).toMatchObject({
      status: "failed",
      attempts: 1,
      leaseUntil: undefined,
    });
    const item = await outbox.queue.get(result.queueItemId as string);
    expect(item).toMatchObject({
      status: "open",
      reason: "delivery_failed",
      ticketId: "T-1",
      runId: "run-1",
      template: "completion_check",
      key: decided.key,
      draft: decided.message,
      outboundId: result.outboundId,
    });
    expect(item?.detail).toMatch(/failWhen matched/);
    const delivery = (await auditOf(outbox, { type: "delivery" }))[0];
    expect(delivery).toMatchObject({ reason: "delivery_failed", outcome: "escalate", id: item?.auditId });
    // flush() does not retry a message that failed for good.
    expect(await outbox.flush()).toEqual({ delivered: 0, failed: 0 });
  });

  it("approving a delivery_failed item delivers the same message with the same key, once", async () => {
    let down = true;
    const transport = memoryTransport({ failWhen: () => down, retryable: false });
    const { outbox } = outboxOver(ctx.store, { transport });
    const result = await outbox.handle({ ticketId: "T-1", output: proposal("T-1"), runId: "r" });
    expect(result.delivery?.status).toBe("failed");
    down = false;

    const approval = await outbox.queue.approve(result.queueItemId as string, { by: "ana" });
    expect(approval.approvedNow).toBe(true);
    expect(approval.item).toMatchObject({
      status: "approved",
      closedBy: "ana",
      outboundId: result.outboundId,
    });
    expect(approval.outbound).toMatchObject({ id: result.outboundId, status: "delivered", attempts: 2 });
    expect(transport.sent).toHaveLength(1);
    expect(transport.sent[0]?.key).toBe(result.decision.key);
    expect(transport.sent[0]?.message).toEqual(
      result.decision.outcome === "send" ? result.decision.message : null,
    );

    const again = await outbox.queue.approve(result.queueItemId as string, { by: "ben" });
    expect(again.approvedNow).toBe(false);
    expect(await outbox.flush()).toEqual({ delivered: 0, failed: 0 });
    expect(transport.sent).toHaveLength(1);
  });

  it("an approved re-delivery that fails again opens a new delivery_failed item", async () => {
    const transport = memoryTransport({ failWhen: () => true, retryable: false });
    const { outbox } = outboxOver(ctx.store, { transport });
    const result = await outbox.handle({ ticketId: "T-1", output: proposal("T-1"), runId: "r" });
    const approval = await outbox.queue.approve(result.queueItemId as string, { by: "ana" });
    expect(approval.outbound).toMatchObject({ id: result.outboundId, status: "failed", attempts: 2 });
    const open = await outbox.queue.list({ status: "open", reason: "delivery_failed" });
    expect(open.items).toHaveLength(1);
    expect(open.items[0]?.id).not.toBe(result.queueItemId);
    expect(open.items[0]?.outboundId).toBe(result.outboundId);
    expect(transport.sent).toEqual([]);
  });

  describe("flush()", () => {
    /** Five sends whose inline delivery never finished: committed, pending, leased until t0 + lease. */
    async function stalledSends(): Promise<string[]> {
      const stalled = stalledTransport();
      const { outbox } = outboxOver(ctx.store, { transport: stalled.transport, leaseMs });
      for (let i = 1; i <= 5; i++)
        void outbox.handle({ ticketId: `T-${i}`, output: proposal(`T-${i}`), runId: `r${i}` });
      await stalled.called(5);
      return [...stalled.keys];
    }

    it("never sends again what a stopped deliverer was delivering: after its lease each is queued as in doubt, once", async () => {
      const keys = await stalledSends();
      const { outbox, transport, clock } = outboxOver(ctx.store, { leaseMs });
      clock.set(t0 + leaseMs - 1);
      expect(await outbox.flush()).toEqual({ delivered: 0, failed: 0 });
      clock.set(t0 + leaseMs);
      expect(await outbox.flush()).toEqual({ delivered: 0, failed: 5 });
      expect(transport.sent).toEqual([]);
      const items = (await outbox.queue.list({ reason: "delivery_failed" })).items;
      expect(items.map((item) => item.key).sort()).toEqual([...keys].sort());
      for (const item of items) {
        expect(item.detail).toMatch(/^delivery in doubt/);
        expect(await ctx.store.getOutbound(item.outboundId as string)).toMatchObject({
          status: "in_doubt",
          leaseUntil: undefined,
        });
      }
      const deliveries = await auditOf(outbox, { type: "delivery" });
      expect(deliveries.map((event) => event.data.status)).toEqual(Array(5).fill("in_doubt"));
      clock.set(t0 + 3 * leaseMs);
      expect(await outbox.flush()).toEqual({ delivered: 0, failed: 0 });

      // A person who checked decides: approving sends it again, with its key, once.
      const approval = await outbox.queue.approve(items[0]?.id as string, { by: "ana" });
      expect(approval).toMatchObject({ keyUsedBefore: false, outbound: { status: "delivered" } });
      expect(transport.sent.map((sent) => sent.key)).toEqual([items[0]?.key]);
    });

    it("resends an in-doubt row with its key to a transport that deduplicates by key, and says so", async () => {
      const keys = await stalledSends();
      const dedup = memoryTransport();
      const transport: Transport = {
        name: "dedup",
        deduplicatesByKey: true,
        deliver: (message, context) => dedup.deliver(message, context),
      };
      const { outbox, clock } = outboxOver(ctx.store, { leaseMs, transport });
      clock.set(t0 + leaseMs);
      expect(await outbox.flush()).toEqual({ delivered: 5, failed: 0 });
      expect(dedup.sent.map((sent) => sent.key).sort()).toEqual([...keys].sort());
      const deliveries = await auditOf(outbox, { type: "delivery" });
      expect(deliveries).toHaveLength(5);
      for (const event of deliveries) expect(event.data).toMatchObject({ resentInDoubt: true });
      expect(await outbox.flush()).toEqual({ delivered: 0, failed: 0 });
    });

    it("two concurrent flushes take each in-doubt row once", async () => {
      await stalledSends();
      const first = outboxOver(ctx.store, { leaseMs });
      const second = outboxOver(ctx.store, { leaseMs });
      first.clock.set(t0 + leaseMs + 1);
      second.clock.set(t0 + leaseMs + 1);
      const [a, b, c] = await Promise.all([
        first.outbox.flush(),
        second.outbox.flush(),
        first.outbox.flush(),
      ]);
      expect(a.failed + b.failed + c.failed).toBe(5);
      expect([...first.transport.sent, ...second.transport.sent]).toEqual([]);
      expect((await first.outbox.queue.list({ reason: "delivery_failed" })).items).toHaveLength(5);
    });

    it("delivers, once each, pending rows no transport was called for", async () => {
      const ids = await ctx.store.transaction(async (tx) => {
        const out: string[] = [];
        for (let i = 0; i < 5; i++)
          out.push(await tx.addOutbound(outboundRow({ key: `fl_never_tried_${i}`, message: message(i) })));
        return out;
      });
      const { outbox, transport } = outboxOver(ctx.store, { leaseMs });
      expect(await outbox.flush()).toEqual({ delivered: 5, failed: 0 });
      expect(transport.sent.map((sent) => sent.key).sort()).toEqual(
        ids.map((_, i) => `fl_never_tried_${i}`).sort(),
      );
      for (const sent of transport.sent) expect(sent.attempt).toBe(1);
      expect(await outbox.flush()).toEqual({ delivered: 0, failed: 0 });
    });

    it("reports deliveries that fail, and queues them", async () => {
      await ctx.store.transaction(async (tx) => {
        for (let i = 0; i < 5; i++)
          await tx.addOutbound(outboundRow({ key: `fl_failing_${i}`, message: message(i) }));
      });
      const transport = memoryTransport({ failWhen: () => true, retryable: false });
      const { outbox } = outboxOver(ctx.store, { leaseMs, transport });
      expect(await outbox.flush()).toEqual({ delivered: 0, failed: 5 });
      expect((await outbox.queue.list({ reason: "delivery_failed" })).items).toHaveLength(5);
      expect(await outbox.flush()).toEqual({ delivered: 0, failed: 0 });
    });

    it("queues as in doubt an approved draft whose delivery stopped midway, without sending it again", async () => {
      const stalled = stalledTransport();
      const approving = outboxOver(ctx.store, { transport: stalled.transport, leaseMs });
      const result = await approving.outbox.handle({
        ticketId: "T-1",
        output: proposal("T-1", "payment_release"),
        runId: "r",
      });
      expect(stalled.keys).toEqual([]);
      void approving.outbox.queue.approve(result.queueItemId as string, { by: "ana" });
      await stalled.called(1);
      const { outbox, transport, clock } = outboxOver(ctx.store, { leaseMs });
      clock.set(t0 + leaseMs);
      expect(await outbox.flush()).toEqual({ delivered: 0, failed: 1 });
      expect(transport.sent).toEqual([]);
      const [item] = (await outbox.queue.list({ status: "open", reason: "delivery_failed" })).items;
      expect(item).toMatchObject({ key: stalled.keys[0] });
      expect(item?.draft).toEqual(result.decision.outcome === "escalate" ? result.decision.draft : undefined);
      expect(await outbox.flush()).toEqual({ delivered: 0, failed: 0 });
    });
  });
});
