import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { memoryStore, type Store } from "../../src/index.js";
import type { DeliveryEvent } from "../../src/providers/events/delivery-event.js";
import { postgresStore } from "../../src/store/postgres/index.js";
import { sqliteStore } from "../../src/store/sqlite/index.js";
import type { AuditEvent } from "../../src/store/store.js";
import { type Cluster, freshSchema, postgresAvailable, startCluster } from "../store/postgres/cluster.js";
import { hashOf, refundOutbox } from "./refund-outbox.js";

type Kind = "memory" | "sqlite" | "postgres";
const kinds: Kind[] = postgresAvailable() ? ["memory", "sqlite", "postgres"] : ["memory", "sqlite"];

let cluster: Cluster | undefined;
beforeAll(async () => {
  if (kinds.includes("postgres")) cluster = await startCluster();
}, 60_000);
afterAll(async () => {
  await cluster?.destroy();
});

describe.each(kinds)("delivery status and suppression on the %s store", (kind) => {
  let store: Store;
  let dir: string | undefined;
  beforeEach(async () => {
    if (kind === "sqlite") {
      dir = mkdtempSync(join(tmpdir(), "formletter-suppression-"));
      store = sqliteStore(join(dir, "outbox.db"));
    } else if (kind === "postgres") {
      store = postgresStore(
        { connectionString: (cluster as Cluster).url() },
        { schema: freshSchema("supp") },
      );
    } else {
      store = memoryStore();
    }
  });
  afterEach(async () => {
    await store.close().catch(() => undefined);
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  const setUp = (options: { key?: string | undefined } = {}) => refundOutbox(store, options);

  const event = (
    fields: Partial<DeliveryEvent> & Pick<DeliveryEvent, "messageId" | "status">,
  ): DeliveryEvent => ({
    provider: "ses",
    eventId: `e-${Math.random().toString(36).slice(2)}`,
    ...fields,
  });

  async function audit(type: AuditEvent["type"]): Promise<AuditEvent[]> {
    const events: AuditEvent[] = [];
    for await (const one of store.queryAudit({ type })) events.push(one);
    return events;
  }

  it("ties an event to the outbound row whose receipt is its message id, and a hard bounce suppresses the destination by its keyed hash", async () => {
    const { outbox, send, transport } = setUp();
    const sent = await send("ana@shop.example");
    await send("ben@shop.example");
    const receipt = sent.delivery?.receiptId as string;
    expect(receipt).toBe("mem-1");
    const [outcome] = await outbox.recordDeliveryEvents([
      event({ messageId: receipt, status: "bounced", bounce: "hard", code: "5.1.1" }),
    ]);
    expect(outcome).toMatchObject({ outcome: "recorded", outboundId: sent.outboundId, suppressed: true });
    const [status] = await audit("delivery_status");
    expect(status).toMatchObject({
      ticketId: "T-1",
      key: sent.decision.key,
      actor: "ses",
      data: { status: "bounced", bounce: "hard", matched: true, outboundId: sent.outboundId, code: "5.1.1" },
    });
    expect(await store.getSuppression(hashOf("ana@shop.example"))).toMatchObject({
      cause: "hard_bounce",
      provider: "ses",
      auditId: status?.id,
    });
    expect(await store.getSuppression(hashOf("ben@shop.example"))).toBeUndefined();
    const [suppressed] = await audit("suppression");
    expect(suppressed?.data).toMatchObject({
      action: "suppressed",
      destination: hashOf("ana@shop.example").slice(0, 12),
    });

    const again = await send("Ana@Shop.example");
    expect(again.decision).toMatchObject({
      outcome: "escalate",
      reason: "destination_suppressed",
      cause: "hard_bounce",
      destination: hashOf("ana@shop.example").slice(0, 12),
    });
    expect(again.queueItemId).toBeDefined();
    const other = await send("ben@shop.example");
    expect(other.decision.outcome).toBe("send");
    expect(transport.sent.map((one) => one.message.to)).toEqual([
      "ana@shop.example",
      "ben@shop.example",
      "ben@shop.example",
    ]);
    const everything = JSON.stringify([
      ...(await audit("delivery_status")),
      ...(await audit("suppression")),
      ...(await store.listSuppressions({})).items,
    ]);
    expect(everything).not.toMatch(/shop\.example/i);
  });

  it("a complaint suppresses; a soft bounce, a delivery or a failure does not", async () => {
    const { outbox, send } = setUp();
    const soft = await send("soft@shop.example");
    const delivered = await send("ok@shop.example");
    const failed = await send("failed@shop.example");
    const complained = await send("angry@shop.example");
    const outcomes = await outbox.recordDeliveryEvents([
      event({ messageId: soft.delivery?.receiptId as string, status: "bounced", bounce: "soft" }),
      event({ messageId: delivered.delivery?.receiptId as string, status: "delivered" }),
      event({ messageId: failed.delivery?.receiptId as string, status: "failed" }),
      event({
        messageId: complained.delivery?.receiptId as string,
        status: "complained",
        provider: "postmark",
      }),
    ]);
    expect(outcomes.map((one) => [one.outcome, one.suppressed])).toEqual([
      ["recorded", false],
      ["recorded", false],
      ["recorded", false],
      ["recorded", true],
    ]);
    expect((await send("soft@shop.example")).decision.outcome).toBe("send");
    expect((await send("ok@shop.example")).decision.outcome).toBe("send");
    expect((await send("failed@shop.example")).decision.outcome).toBe("send");
    expect((await send("angry@shop.example")).decision).toMatchObject({
      reason: "destination_suppressed",
      cause: "complaint",
    });
  });

  it("an event for an unknown message id is recorded unmatched and suppresses nothing; a replayed event id is counted once", async () => {
    const { outbox, send } = setUp();
    const sent = await send("ana@shop.example");
    const unknown = event({ messageId: "never-sent", status: "bounced", bounce: "hard" });
    const hard = event({ messageId: sent.delivery?.receiptId as string, status: "bounced", bounce: "hard" });
    const outcomes = await outbox.recordDeliveryEvents([unknown, hard, hard, unknown]);
    expect(outcomes.map((one) => one.outcome)).toEqual(["unmatched", "recorded", "replayed", "replayed"]);
    const statuses = await audit("delivery_status");
    expect(statuses.map((one) => one.data.matched)).toEqual([false, true]);
    expect(statuses[0]).toMatchObject({ ticketId: undefined, key: undefined });
    expect((await store.listSuppressions({})).items).toHaveLength(1);
    expect(await audit("suppression")).toHaveLength(1);
    // The same event id from another provider is another event.
    const [other] = await outbox.recordDeliveryEvents([{ ...hard, provider: "resend" }]);
    expect(other?.outcome).toBe("recorded");
  });

  it("an event from a provider that does not carry the message's channel is unmatched: naming an e-mail's receipt from Twilio suppresses nothing", async () => {
    const { outbox, send } = setUp();
    const sent = await send("ana@shop.example");
    const receipt = sent.delivery?.receiptId as string;
    const [outcome] = await outbox.recordDeliveryEvents([
      event({ provider: "twilio", messageId: receipt, status: "complained" }),
    ]);
    expect(outcome).toMatchObject({ outcome: "unmatched", suppressed: false });
    expect((await send("ana@shop.example")).decision.outcome).toBe("send");
  });

  it("lifting a suppression is audited with the operator, and the next decision to the destination sends again", async () => {
    const { outbox, send, transport } = setUp();
    const sent = await send("ana@shop.example");
    await outbox.recordDeliveryEvents([
      event({ messageId: sent.delivery?.receiptId as string, status: "bounced", bounce: "hard" }),
    ]);
    expect((await send("ana@shop.example")).decision.outcome).toBe("escalate");
    const [listed] = (await outbox.suppressions.list()).items;
    expect(listed?.destination).toBe(hashOf("ana@shop.example"));
    const lifted = await outbox.suppressions.lift(listed?.destination as string, {
      by: "ops-maria",
      note: "new mailbox",
    });
    expect(lifted).toMatchObject({ lifted: true, suppression: { cause: "hard_bounce" } });
    const events = await audit("suppression");
    expect(events.at(-1)).toMatchObject({
      id: lifted.auditId,
      actor: "ops-maria",
      data: {
        action: "lifted",
        cause: "hard_bounce",
        note: "new mailbox",
        destination: listed?.destination.slice(0, 12),
      },
    });
    expect(await outbox.suppressions.lift(listed?.destination as string, { by: "ops-maria" })).toMatchObject({
      lifted: false,
    });
    const after = await send("ana@shop.example");
    expect(after.decision.outcome).toBe("send");
    expect(transport.sent).toHaveLength(2);
  });

  it("a retried handle() of a message sent before the suppression stays a duplicate, and sends nothing", async () => {
    const { outbox, send, transport } = setUp();
    const sent = await send("ana@shop.example", "T-same");
    await outbox.recordDeliveryEvents([
      event({ messageId: sent.delivery?.receiptId as string, status: "complained" }),
    ]);
    const retried = await send("ana@shop.example", "T-same");
    expect(retried).toMatchObject({ duplicate: true, decision: { outcome: "send" } });
    expect(transport.sent).toHaveLength(1);
  });

  it("refuses a lift without a readable operator or a full destination hash, writing nothing", async () => {
    const { outbox, send } = setUp();
    const sent = await send("ana@shop.example");
    await outbox.recordDeliveryEvents([
      event({ messageId: sent.delivery?.receiptId as string, status: "complained" }),
    ]);
    const destination = hashOf("ana@shop.example");
    await expect(outbox.suppressions.lift(destination, { by: "\u202e" })).rejects.toThrow(/by must be/);
    await expect(outbox.suppressions.lift(destination.slice(0, 12), { by: "ops" })).rejects.toThrow(
      /64 hexadecimal characters/,
    );
    await expect(outbox.suppressions.lift("ana@shop.example", { by: "ops" })).rejects.toThrow(
      /64 hexadecimal/,
    );
    expect(await store.getSuppression(destination)).toBeDefined();
  });

  it("without a contact key, events are recorded and nothing is suppressed", async () => {
    const { outbox, send } = setUp({ key: undefined });
    const sent = await send("ana@shop.example");
    const [outcome] = await outbox.recordDeliveryEvents([
      event({ messageId: sent.delivery?.receiptId as string, status: "bounced", bounce: "hard" }),
    ]);
    expect(outcome).toMatchObject({ outcome: "recorded", suppressed: false });
    expect((await send("ana@shop.example")).decision.outcome).toBe("send");
  });
});
