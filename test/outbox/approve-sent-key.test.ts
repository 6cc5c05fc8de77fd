import { hash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Message } from "../../src/index.js";
import type { OutboundRow } from "../../src/store/store.js";
import { message, outboundRow, queueItem } from "../store/conformance.js";
import { auditOf, outboxOver, storeKinds, t0, useStore } from "./harness.js";

const sha = (text: string) => hash("sha256", text, "hex");

describe.each(storeKinds)("approving an item whose key already has a message, on the %s store", (kind) => {
  const ctx = useStore(kind);

  /**
   * A limit_exceeded item holding draft A under key K, and key K already used by a message with body B
   * (the same proposal, decided again later on changed records): reserved, with its outbound row.
   */
  async function keyUsedWithAnotherBody(status: OutboundRow["status"]) {
    const key = "fl_key_used_before";
    const draft: Message = { ...message(1), text: "Draft A: please visit unit 1." };
    const sent: Message = { ...message(1), text: "Body B: please visit unit 1 (moved)." };
    return ctx.store.transaction(async (tx) => {
      const outboundId = await tx.addOutbound(
        outboundRow({
          key,
          message: sent,
          status,
          bodySha256: sha(sent.text),
          ...(status === "delivered" ? { deliveredAt: t0, receiptId: "r-b", attempts: 1 } : {}),
        }),
      );
      await tx.reserve({
        key,
        template: "visit_request",
        ticketId: "T-1",
        runId: "run-2",
        at: t0,
        result: {
          decision: {
            outcome: "send",
            ticketId: "T-1",
            template: "visit_request",
            message: sent,
            values: {},
            choices: {},
            key,
          },
          auditId: "1",
          outboundId,
          queueItemId: undefined,
        },
      });
      const itemId = await tx.addQueueItem(
        queueItem({ reason: "limit_exceeded", template: "visit_request", key, draft, detail: "limit" }),
      );
      return { key, draft, sent, outboundId, itemId };
    });
  }

  it.each(["delivered", "delivering", "pending"] as const)(
    "its message %s: nothing new is sent, the result and the audit name what was sent, not the draft",
    async (status) => {
      const fixture = await keyUsedWithAnotherBody(status);
      const { outbox, transport } = outboxOver(ctx.store);
      const approval = await outbox.queue.approve(fixture.itemId, { by: "ana" });
      expect(approval).toMatchObject({
        approvedNow: true,
        keyUsedBefore: true,
        item: { status: "approved", resolution: "already_sent", outboundId: fixture.outboundId },
        outbound: { id: fixture.outboundId, status, bodySha256: sha(fixture.sent.text) },
      });
      expect(approval.outbound?.message.text).toBe(fixture.sent.text);
      expect(transport.sent).toEqual([]);
      const [event] = await auditOf(outbox, { type: "queue" });
      expect(event?.data).toMatchObject({
        action: "approve",
        outboundId: fixture.outboundId,
        bodySha256: sha(fixture.sent.text),
        sentNow: false,
      });
      expect(JSON.stringify(event?.data)).not.toContain(sha(fixture.draft.text));
      expect(await auditOf(outbox, { type: "delivery" })).toEqual([]);
      // Approving again changes nothing and still says so.
      const again = await outbox.queue.approve(fixture.itemId, { by: "ana" });
      expect(again).toMatchObject({ approvedNow: false, keyUsedBefore: true });
      expect(transport.sent).toEqual([]);
    },
  );

  it("an in-doubt item whose delivery was recorded after all (a late record): approving sends nothing", async () => {
    const sent: Message = { ...message(3), text: "Body C" };
    const { itemId, outboundId } = await ctx.store.transaction(async (tx) => {
      const outboundId = await tx.addOutbound(
        outboundRow({ key: "fl_late", message: sent, status: "delivered", bodySha256: sha(sent.text) }),
      );
      const itemId = await tx.addQueueItem(
        queueItem({
          reason: "delivery_failed",
          template: "visit_request",
          key: "fl_late",
          draft: sent,
          outboundId,
          detail: "delivery in doubt: …",
        }),
      );
      return { itemId, outboundId };
    });
    const { outbox, transport } = outboxOver(ctx.store);
    const approval = await outbox.queue.approve(itemId, { by: "ana" });
    expect(approval).toMatchObject({
      keyUsedBefore: true,
      item: { resolution: "already_sent" },
      outbound: { id: outboundId, status: "delivered" },
    });
    expect(await outbox.flush()).toEqual({ delivered: 0, failed: 0 });
    expect(transport.sent).toEqual([]);
  });

  it("its message failed: the failed message is sent again with its key, and the audit names its body", async () => {
    const fixture = await keyUsedWithAnotherBody("failed");
    const { outbox, transport } = outboxOver(ctx.store);
    const approval = await outbox.queue.approve(fixture.itemId, { by: "ana" });
    expect(approval).toMatchObject({ keyUsedBefore: false, outbound: { status: "delivered" } });
    expect(transport.sent.map((sent) => [sent.key, sent.message.text])).toEqual([
      [fixture.key, fixture.sent.text],
    ]);
    const [event] = await auditOf(outbox, { type: "queue" });
    expect(event?.data).toMatchObject({ bodySha256: sha(fixture.sent.text), sentNow: true });
  });
});
