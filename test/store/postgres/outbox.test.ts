import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type PostgresStore, postgresStore } from "../../../src/store/postgres/index.js";
import { propertyCatalog, propertyTicket, proposal } from "../../fixtures/property.js";
import { auditOf, outboxOver, t0 } from "../../outbox/harness.js";
import { type Cluster, freshSchema, postgresAvailable, startCluster } from "./cluster.js";

const available = postgresAvailable();

describe.skipIf(!available)("the outbox on the postgres store", () => {
  let cluster: Cluster;
  let store: PostgresStore;
  beforeAll(async () => {
    cluster = await startCluster();
  }, 60_000);
  afterAll(async () => {
    await cluster?.destroy();
  });
  beforeEach(() => {
    store = postgresStore({ connectionString: cluster.url() }, { schema: freshSchema("outbox") });
  });
  afterEach(async () => {
    await store.close();
  });

  it("sends once, records the decision and the delivery, and answers a repeat as a duplicate", async () => {
    const { outbox, transport } = outboxOver(store);
    const first = await outbox.handle({ ticketId: "T-1", output: proposal("T-1"), runId: "run-1" });
    const again = await outbox.handle({ ticketId: "T-1", output: proposal("T-1"), runId: "run-2" });
    const expected = propertyCatalog.decide(proposal("T-1"), propertyTicket("T-1"));
    expect(first).toMatchObject({ duplicate: false, delivery: { status: "delivered", attempts: 1 } });
    expect(again).toMatchObject({ duplicate: true, auditId: first.auditId, outboundId: first.outboundId });
    expect(transport.sent.map((sent) => sent.key)).toEqual([expected.key]);
    expect(await store.getOutbound(first.outboundId as string)).toMatchObject({
      status: "delivered",
      deliveredAt: t0,
      message: expected.outcome === "send" ? expected.message : undefined,
    });
    expect((await auditOf(outbox)).map((event) => event.type)).toEqual(["decision", "delivery", "duplicate"]);
  });

  it("twenty identical proposals at once deliver once; the rest are duplicates", async () => {
    const { outbox, transport } = outboxOver(store);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        outbox.handle({ ticketId: "T-7", output: proposal("T-7"), runId: `run-${i}` }),
      ),
    );
    expect(transport.sent).toHaveLength(1);
    expect(results.filter((result) => !result.duplicate)).toHaveLength(1);
  });

  it("applies perTicket and perDay exactly, and queues what goes over", async () => {
    const { outbox, transport } = outboxOver(store);
    // emergency_callout may send 2 a day across tickets.
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        outbox.handle({
          ticketId: `T-${i}`,
          output: proposal(`T-${i}`, "emergency_callout"),
          runId: `run-${i}`,
        }),
      ),
    );
    expect(transport.sent).toHaveLength(2);
    const limited = results.filter(
      (result) => result.decision.outcome === "escalate" && result.decision.reason === "limit_exceeded",
    );
    expect(limited).toHaveLength(4);
    expect((await outbox.queue.list({ reason: "limit_exceeded" })).items).toHaveLength(4);
    // Each item gives its limit's typed fields, read from the event that opened it.
    const item = await outbox.queue.get(limited[0]?.queueItemId as string);
    expect(item?.facts).toMatchObject({ limit: "day", max: 2, count: 2 });
  });

  it("an approval waits in the queue; approving sends exactly the draft, once", async () => {
    const { outbox, transport } = outboxOver(store);
    const result = await outbox.handle({
      ticketId: "T-3",
      output: proposal("T-3", "payment_release"),
      runId: "run-3",
    });
    expect(result.decision).toMatchObject({ outcome: "escalate", reason: "approval_required" });
    const itemId = result.queueItemId as string;
    const [one, two] = await Promise.all([
      outbox.queue.approve(itemId, { by: "ana" }),
      outbox.queue.approve(itemId, { by: "ben" }),
    ]);
    expect([one.approvedNow, two.approvedNow].sort()).toEqual([false, true]);
    expect(transport.sent).toHaveLength(1);
    expect(transport.sent[0]?.message).toEqual(
      result.decision.outcome === "escalate" ? result.decision.draft : undefined,
    );
  });

  it("records hostile output (NUL, lone surrogates, 8 KB) as an escalation, not an error", async () => {
    const { outbox, transport } = outboxOver(store);
    const output = `{"template":"\u0000\ud800","slots":{}}${"\u0000".repeat(9000)}`;
    const result = await outbox.handle({ ticketId: "T-9", output, runId: "run-9" });
    expect(result.decision.outcome).toBe("escalate");
    expect(transport.sent).toEqual([]);
    const [event] = await auditOf(outbox);
    expect(event?.data.output).toContain("\u0000");
  });

  it("two outboxes on one schema: flush() from both delivers each pending row once and queues each row left delivering once, sending none", async () => {
    const { outbox: handler } = outboxOver(store, {
      transport: {
        name: "down",
        deliver: async () => {
          throw new Error("provider down");
        },
      },
      retry: { attempts: 1 },
      leaseMs: 1,
      // A permanent failure would fail the rows; a handler that never settles is a crash.
      mode: "shadow",
    });
    for (let i = 0; i < 40; i++)
      await handler.handle({ ticketId: `T-${i}`, output: proposal(`T-${i}`), runId: `r-${i}` });
    // Shadow rows are never delivered: make half pending (approved, never tried) and half delivering, as
    // a live handler that crashed mid-delivery would have left them.
    const admin = await cluster.admin();
    await admin.query(
      `UPDATE ${store.schema}.outbound SET status = CASE WHEN ticket_id ~ '[02468]$' THEN 'pending' ELSE 'delivering' END, lease_until = 1`,
    );
    await admin.end();
    const second = postgresStore({ connectionString: cluster.url() }, { schema: store.schema });
    try {
      const a = outboxOver(store);
      const b = outboxOver(second);
      const [fromA, fromB] = await Promise.all([a.outbox.flush(), b.outbox.flush()]);
      expect(fromA.delivered + fromB.delivered).toBe(20);
      expect(fromA.failed + fromB.failed).toBe(20);
      const keys = [...a.transport.sent, ...b.transport.sent].map((sent) => sent.key);
      expect(new Set(keys).size).toBe(20);
      expect(keys).toHaveLength(20);
      const inDoubt = (await a.outbox.queue.list({ reason: "delivery_failed", limit: 100 })).items;
      expect(inDoubt).toHaveLength(20);
      expect(inDoubt.filter((item) => keys.includes(item.key as string))).toEqual([]);
      expect(await a.outbox.flush()).toEqual({ delivered: 0, failed: 0 });
    } finally {
      await second.close();
    }
  });
});
