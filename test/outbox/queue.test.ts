import { describe, expect, it } from "vitest";
import { type Message, type Outbox, openHumanQueue, QueueError } from "../../src/index.js";
import type { QueueItem } from "../../src/store/store.js";
import { propertyCatalog, propertyTicket, proposal } from "../fixtures/property.js";
import { allPages } from "../store/conformance.js";
import { auditOf, outboxOver, rejectionOf, storeKinds, t0, useStore } from "./harness.js";

describe.each(storeKinds)("the human queue on the %s store", (kind) => {
  const ctx = useStore(kind);

  /** A payment release waiting for approval, with the draft decide() rendered for it. */
  async function awaitingApproval(outbox: Outbox, ticketId = "T-1") {
    const output = proposal(ticketId, "payment_release");
    const result = await outbox.handle({ ticketId, output, runId: `run-${ticketId}` });
    const decided = propertyCatalog.decide(proposal(ticketId, "payment_release"), propertyTicket(ticketId));
    if (decided.outcome !== "escalate" || decided.draft === undefined)
      throw new Error("fixture: needs a draft");
    return { result, draft: decided.draft, key: decided.key as string, id: result.queueItemId as string };
  }

  async function escalated(outbox: Outbox, ticketId = "T-1"): Promise<string> {
    const output = { escalate: "needs_human", note: "call me" };
    const result = await outbox.handle({ ticketId, output, runId: `run-${ticketId}` });
    return result.queueItemId as string;
  }

  /** The action must reject with a QueueError of `code` (a synchronous throw counts as a failure too). */
  async function expectQueueError(action: () => Promise<unknown>, code: QueueError["code"]): Promise<void> {
    const error = await rejectionOf((async () => action())());
    expect(error).toBeInstanceOf(QueueError);
    expect(error).toMatchObject({ code });
  }

  it("an approval_required template waits in the queue with its draft, and sends nothing", async () => {
    const { outbox, transport } = outboxOver(ctx.store);
    const { result, draft, key, id } = await awaitingApproval(outbox);
    expect(result.decision).toMatchObject({ outcome: "escalate", reason: "approval_required", draft, key });
    expect(result.outboundId).toBeUndefined();
    expect(await outbox.queue.get(id)).toMatchObject({
      status: "open",
      reason: "approval_required",
      template: "payment_release",
      ticketId: "T-1",
      key,
      draft,
      auditId: result.auditId,
      outboundId: undefined,
    });
    expect(transport.sent).toEqual([]);
    // The same proposal again is a duplicate of the waiting approval, not a second item.
    const again = await outbox.handle({
      ticketId: "T-1",
      output: proposal("T-1", "payment_release"),
      runId: "r2",
    });
    expect(again).toMatchObject({ duplicate: true, queueItemId: id, auditId: result.auditId });
    expect((await outbox.queue.list({ reason: "approval_required" })).items).toHaveLength(1);
  });

  it("get() gives the typed fields of the item's escalation, the same as its audit event keeps", async () => {
    const { outbox } = outboxOver(ctx.store);
    const id = await escalated(outbox);
    const item = await outbox.queue.get(id);
    expect(item?.facts).toEqual({ code: "needs_human", note: "call me" });
    const [event] = await auditOf(outbox, { ticketId: "T-1" });
    expect(event?.data.facts).toEqual(item?.facts);
    // The queue on the store alone reads the same; an approval (its draft is the item's own) has none.
    expect((await openHumanQueue(ctx.store).get(id))?.facts).toEqual(item?.facts);
    const { id: approvalId } = await awaitingApproval(outbox, "T-2");
    expect((await outbox.queue.get(approvalId))?.facts).toBeUndefined();
    expect(await outbox.queue.get("999999")).toBeUndefined();
  });

  it("approve delivers exactly the draft, to the draft's recipient, with the decision's key", async () => {
    const { outbox, transport, clock } = outboxOver(ctx.store);
    const { draft, key, id } = await awaitingApproval(outbox);
    clock.set(t0 + 60_000);
    const approval = await outbox.queue.approve(id, { by: "ana@harbourside.example" });
    expect(transport.sent).toHaveLength(1);
    const sent = transport.sent[0] as { message: Message; key: string };
    expect(sent.message).toEqual(draft);
    expect(sent.message.to).toBe(draft.to);
    expect(sent.message.text).toBe(draft.text);
    expect(sent.message.subject).toBe(draft.subject);
    expect(sent.key).toBe(key);
    expect(approval.approvedNow).toBe(true);
    expect(approval.item).toMatchObject({
      status: "approved",
      closedBy: "ana@harbourside.example",
      closedAt: t0 + 60_000,
      resolution: "approved",
      outboundId: approval.outbound?.id,
    });
    expect(approval.outbound).toMatchObject({
      key,
      status: "delivered",
      message: draft,
      template: "payment_release",
    });
    const [event] = await auditOf(outbox, { type: "queue" });
    expect(event).toMatchObject({
      actor: "ana@harbourside.example",
      at: t0 + 60_000,
      key,
      data: { action: "approve", item: id, from: "open" },
    });
  });

  it("approving twice, or at once from two places, delivers once", async () => {
    const { outbox, transport } = outboxOver(ctx.store);
    const { id } = await awaitingApproval(outbox);
    const approvals = await Promise.all([
      outbox.queue.approve(id, { by: "ana" }),
      outbox.queue.approve(id, { by: "ben" }),
      outbox.queue.approve(id, { by: "ana" }),
    ]);
    expect(approvals.filter((approval) => approval.approvedNow)).toHaveLength(1);
    const later = await outbox.queue.approve(id, { by: "ana" });
    expect(later.approvedNow).toBe(false);
    expect(later.outbound?.status).toBe("delivered");
    expect(transport.sent).toHaveLength(1);
    expect(await outbox.flush()).toEqual({ delivered: 0, failed: 0 });
    expect((await auditOf(outbox, { type: "queue" })).map((event) => event.data.action)).toEqual(["approve"]);
  });

  it("reject closes an item with who and why, audited, and sends nothing", async () => {
    const { outbox, transport, clock } = outboxOver(ctx.store);
    const { id } = await awaitingApproval(outbox);
    clock.set(t0 + 5_000);
    const item = await outbox.queue.reject(id, { by: "ben", note: "the invoice is disputed" });
    expect(item).toMatchObject({
      status: "rejected",
      closedBy: "ben",
      closedAt: t0 + 5_000,
      resolution: "rejected",
      closeNote: "the invoice is disputed",
    });
    await expectQueueError(() => outbox.queue.approve(id, { by: "ana" }), "queue_transition_invalid");
    await expectQueueError(() => outbox.queue.reject(id, { by: "ana" }), "queue_transition_invalid");
    await expectQueueError(() => outbox.queue.claim(id, { by: "ana" }), "queue_transition_invalid");
    expect(transport.sent).toEqual([]);
    const events = await auditOf(outbox, { type: "queue" });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actor: "ben",
      data: { action: "reject", item: id, note: "the invoice is disputed" },
    });
  });

  it("resolve closes an item with how it was handled; a resolution is required", async () => {
    const { outbox } = outboxOver(ctx.store);
    const id = await escalated(outbox);
    await expectQueueError(
      () => outbox.queue.resolve(id, { by: "ana", resolution: "  " }),
      "queue_transition_invalid",
    );
    await expectQueueError(
      () => outbox.queue.resolve(id, { by: "ana" } as unknown as { by: string; resolution: string }),
      "queue_transition_invalid",
    );
    const item = await outbox.queue.resolve(id, {
      by: "ana",
      resolution: "phoned the contractor",
      note: "ok",
    });
    expect(item).toMatchObject({
      status: "resolved",
      closedBy: "ana",
      resolution: "phoned the contractor",
      closeNote: "ok",
    });
    await expectQueueError(
      () => outbox.queue.resolve(id, { by: "ana", resolution: "again" }),
      "queue_transition_invalid",
    );
    const events = await auditOf(outbox, { type: "queue" });
    expect(events.map((event) => [event.actor, event.data.action])).toEqual([["ana", "resolve"]]);
  });

  it("an item without a draft cannot be approved", async () => {
    const { outbox, transport } = outboxOver(ctx.store);
    const id = await escalated(outbox);
    await expectQueueError(() => outbox.queue.approve(id, { by: "ana" }), "queue_transition_invalid");
    expect((await outbox.queue.get(id))?.status).toBe("open");
    expect(transport.sent).toEqual([]);
  });

  it("claim takes an item for one person; another person's claim is refused", async () => {
    const { outbox, clock } = outboxOver(ctx.store);
    const id = await escalated(outbox);
    clock.set(t0 + 1_000);
    const claimed = await outbox.queue.claim(id, { by: "ana" });
    expect(claimed).toMatchObject({ status: "claimed", claimedBy: "ana", claimedAt: t0 + 1_000 });
    expect(await outbox.queue.claim(id, { by: "ana" })).toMatchObject({
      status: "claimed",
      claimedBy: "ana",
    });
    const error = await rejectionOf(outbox.queue.claim(id, { by: "ben" }));
    expect(error).toBeInstanceOf(QueueError);
    // Who holds it is a property; the message is code-written (test/outbox/queue-refusals.test.ts).
    expect(error).toMatchObject({ code: "queue_transition_invalid", status: "claimed", claimedBy: "ana" });
    expect(await outbox.queue.get(id)).toMatchObject({ status: "claimed", claimedBy: "ana" });
    const events = await auditOf(outbox, { type: "queue" });
    expect(events.map((event) => [event.actor, event.data.action, event.data.from])).toEqual([
      ["ana", "claim", "open"],
    ]);
    // A claimed item can still be closed.
    expect(await outbox.queue.resolve(id, { by: "ana", resolution: "done" })).toMatchObject({
      status: "resolved",
    });
  });

  it("concurrent claims by two people: exactly one gets the item", async () => {
    const { outbox } = outboxOver(ctx.store);
    const id = await escalated(outbox);
    const outcomes = await Promise.allSettled([
      outbox.queue.claim(id, { by: "ana" }),
      outbox.queue.claim(id, { by: "ben" }),
    ]);
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    const rejected = outcomes.find((outcome) => outcome.status === "rejected");
    expect(rejected?.reason).toMatchObject({ code: "queue_transition_invalid" });
  });

  it("a queue action that fails does not fail the decisions committed with it", async () => {
    const { outbox, transport } = outboxOver(ctx.store);
    const id = await escalated(outbox);
    // Started in one turn of the event loop, these share a commit group.
    const [sent, claim, missing, other] = await Promise.allSettled([
      outbox.handle({ ticketId: "T-5", output: proposal("T-5"), runId: "run-5" }),
      outbox.queue.claim(id, { by: "ana" }),
      outbox.queue.claim("424242", { by: "ana" }),
      outbox.handle({ ticketId: "T-6", output: proposal("T-6"), runId: "run-6" }),
    ]);
    expect(sent).toMatchObject({ status: "fulfilled", value: { delivery: { status: "delivered" } } });
    expect(other).toMatchObject({ status: "fulfilled", value: { delivery: { status: "delivered" } } });
    expect(claim).toMatchObject({ status: "fulfilled", value: { status: "claimed", claimedBy: "ana" } });
    expect(missing).toMatchObject({ status: "rejected", reason: { code: "queue_item_not_found" } });
    expect(transport.sent).toHaveLength(2);
    const decisions = await auditOf(outbox, { type: "decision" });
    expect(decisions).toHaveLength(3);
  });

  it("an unknown id is queue_item_not_found", async () => {
    const { outbox } = outboxOver(ctx.store);
    await escalated(outbox);
    expect(await outbox.queue.get("424242")).toBeUndefined();
    await expectQueueError(() => outbox.queue.claim("424242", { by: "ana" }), "queue_item_not_found");
    await expectQueueError(() => outbox.queue.approve("424242", { by: "ana" }), "queue_item_not_found");
    await expectQueueError(() => outbox.queue.reject("424242", { by: "ana" }), "queue_item_not_found");
    await expectQueueError(
      () => outbox.queue.resolve("424242", { by: "ana", resolution: "x" }),
      "queue_item_not_found",
    );
  });

  it("list filters by status, reason, template and ticket, and pages without duplicates or gaps", async () => {
    const { outbox } = outboxOver(ctx.store);
    const approvals: string[] = [];
    const escalations: string[] = [];
    for (let i = 0; i < 6; i++) {
      approvals.push((await awaitingApproval(outbox, `T-${i}`)).id);
      escalations.push(await escalated(outbox, `T-${i}`));
    }
    await outbox.queue.claim(escalations[0] as string, { by: "ana" });
    await outbox.queue.resolve(escalations[1] as string, { by: "ana", resolution: "done" });
    await outbox.queue.approve(approvals[2] as string, { by: "ana" });

    const ids = (page: { items: readonly QueueItem[] }) => page.items.map((item) => item.id);
    const all = await outbox.queue.list();
    expect(ids(all)).toEqual(approvals.flatMap((id, i) => [id, escalations[i]]));
    expect(ids(await outbox.queue.list({ reason: "approval_required" }))).toEqual(approvals);
    expect(ids(await outbox.queue.list({ template: "payment_release" }))).toEqual(approvals);
    expect(ids(await outbox.queue.list({ reason: "model_escalated", status: "open" }))).toEqual(
      escalations.slice(2),
    );
    expect(ids(await outbox.queue.list({ status: ["claimed", "resolved"] }))).toEqual(
      escalations.slice(0, 2),
    );
    expect(ids(await outbox.queue.list({ status: "approved" }))).toEqual([approvals[2]]);
    expect(ids(await outbox.queue.list({ ticketId: "T-3" }))).toEqual([approvals[3], escalations[3]]);
    expect(ids(await outbox.queue.list({ ticketId: "T-3", reason: "model_escalated" }))).toEqual([
      escalations[3],
    ]);

    const pages = await allPages(ctx.store, { status: "open" }, 3);
    const open = all.items.filter((item) => item.status === "open").map((item) => item.id);
    expect(pages.flat().map((item) => item.id)).toEqual(open);
    let cursor: string | undefined;
    const viaOutbox: string[] = [];
    do {
      const page = await outbox.queue.list({ status: "open", limit: 2, ...(cursor ? { cursor } : {}) });
      viaOutbox.push(...ids(page));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(viaOutbox).toEqual(open);
  });
});
