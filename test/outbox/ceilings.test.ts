import { describe, expect, it } from "vitest";
import { type CeilingConfig, createOutbox, memoryTransport } from "../../src/index.js";
import { type RefundFields, refundCatalog, refundProposal, refundTicket } from "../fixtures/refunds.js";
import { manualClock, minuteMs, storeKinds, t0, useStore } from "./harness.js";

const hourMs = 60 * minuteMs;

describe.each(storeKinds)("value ceilings over windows on the %s store", (kind) => {
  const ctx = useStore(kind);

  function setUp(ceilings: Readonly<Record<string, CeilingConfig>>) {
    const catalog = refundCatalog(ceilings);
    const tickets = new Map<string, ReturnType<typeof refundTicket>>();
    const transport = memoryTransport();
    const clock = manualClock(t0);
    const outbox = createOutbox({
      catalog,
      load: (ticketId) => tickets.get(ticketId),
      store: ctx.store,
      transports: { email: transport },
      clock,
    });
    let n = 0;
    const send = (refund: RefundFields, other: RefundFields = { amount: 0 }) => {
      n += 1;
      const ticket = refundTicket(`T-${n}`, refund, other);
      tickets.set(ticket.ticketId, ticket);
      return outbox.handle({
        ticketId: ticket.ticketId,
        output: refundProposal(catalog, ticket),
        runId: `run-${n}`,
      });
    };
    return { outbox, transport, clock, send };
  }

  it("an hour's sum stops at its maximum; a send 60:01 later counts no more, while the day still does", async () => {
    const { send, clock, transport } = setUp({
      refunds: { values: ["refund.amount", "other.amount"], max: { EUR: { hour: 500, day: 800 } } },
    });
    // Sent in the last second of a minute: windows count whole minutes (rounded out), so 60:01 later
    // that minute is out of the hour.
    const sentAt = t0 + 59_000;
    clock.set(sentAt);
    for (const amount of [150, 150, 150])
      expect((await send({ amount })).decision).toMatchObject({ outcome: "send" });
    const over = await send({ amount: "50.01" });
    expect(over.decision).toMatchObject({
      outcome: "escalate",
      reason: "limit_exceeded",
      limit: "ceiling",
      ceiling: "refunds",
      window: "hour",
      currency: "EUR",
      max: 500,
      spent: 450,
      amount: 50.01,
    });
    expect(over.decision).not.toHaveProperty("draft");
    const item = await ctx.store.getQueueItem(over.queueItemId as string);
    expect(item).toMatchObject({ reason: "limit_exceeded", draft: undefined });
    // Exactly to the maximum is allowed; USD is another sum (and not listed: refused).
    expect((await send({ amount: 50 })).decision.outcome).toBe("send");
    expect((await send({ amount: 1, currency: "USD" })).decision).toMatchObject({ currency: "USD", max: 0 });
    // 59:59 after the first sends the hour still holds them.
    clock.set(sentAt + hourMs - 1000);
    expect((await send({ amount: 1 })).decision).toMatchObject({ window: "hour", spent: 500 });
    // 60:01 after them, they are out of the hour, not out of the day.
    clock.set(sentAt + hourMs + 1000);
    expect((await send({ amount: 250 })).decision.outcome).toBe("send");
    expect((await send({ amount: "50.01" })).decision).toMatchObject({ window: "day", max: 800, spent: 750 });
    expect(transport.sent).toHaveLength(5);
    // The audit log keeps the ceiling's typed fields.
    const facts: unknown[] = [];
    for await (const event of ctx.store.queryAudit({ ticketId: "T-4" })) facts.push(event.data.facts);
    expect(facts).toContainEqual(expect.objectContaining({ limit: "ceiling", window: "hour", spent: 450 }));
  });

  it("with over: approval, a draft over the window waits for a person, counts while it waits, and is sent when approved", async () => {
    const { send, outbox, transport } = setUp({
      refunds: { values: ["refund.amount"], max: { EUR: { day: 300 } }, over: "approval" },
    });
    expect((await send({ amount: 200 })).decision.outcome).toBe("send");
    const held = await send({ amount: 150 });
    expect(held.decision).toMatchObject({
      outcome: "escalate",
      reason: "approval_required",
      ceiling: { ceiling: "refunds", window: "day", max: 300, spent: 200, amount: 150 },
    });
    // While it waits, what it would add counts: another EUR 1 goes over too.
    expect((await send({ amount: 1 })).decision).toMatchObject({
      reason: "approval_required",
      ceiling: { spent: 350 },
    });
    const approval = await outbox.queue.approve(held.queueItemId as string, { by: "ana" });
    expect(approval.approvedNow).toBe(true);
    expect(transport.sent.map((sent) => sent.message.to)).toEqual([
      "shop-t-1@example.com",
      "shop-t-2@example.com",
    ]);
    expect(
      await ctx.store.transaction((tx) =>
        tx.sumSpend({ group: "refund_notice.refunds", currency: "EUR", since: t0 - hourMs }),
      ),
    ).toBe(35_100);
  });
});
