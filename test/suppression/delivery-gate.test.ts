import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  type Message,
  memoryTransport,
  type Outbox,
  openHumanQueue,
  QueueError,
  type Store,
} from "../../src/index.js";
import { destinationHash } from "../../src/outbox/first-contact.js";
import { sqliteStore } from "../../src/store/sqlite/index.js";
import { newOutboundRow } from "../../src/store/store.js";
import { outcomes, runAction } from "../../src/workspace/actions.js";
import { storeSource } from "../../src/workspace/source.js";
import { cli } from "../cli/run.js";
import { propertyCatalog, propertyTicket, proposal } from "../fixtures/property.js";
import { auditOf, outboxOver, rejectionOf, storeKinds, t0, useStore } from "../outbox/harness.js";

const contactKey = "a secret of at least thirty-two bytes, for the gate";

/** Suppresses the destination of `message`, as a provider's hard bounce recorded elsewhere would. */
async function suppress(store: Store, message: Message): Promise<string> {
  const destination = destinationHash(contactKey, message);
  await store.transaction((tx) =>
    tx.addSuppression({
      destination,
      channel: message.channel,
      cause: "hard_bounce",
      provider: "ses",
      at: t0,
      auditId: "bounce-1",
    }),
  );
  return destination;
}

/** A payment release waiting for approval: its queue item and the draft it holds. */
async function awaitingApproval(outbox: Outbox, ticketId = "T-1") {
  const result = await outbox.handle({
    ticketId,
    output: proposal(ticketId, "payment_release"),
    runId: `run-${ticketId}`,
  });
  const decided = propertyCatalog.decide(proposal(ticketId, "payment_release"), propertyTicket(ticketId));
  if (decided.outcome !== "escalate" || decided.draft === undefined)
    throw new Error("fixture: needs a draft");
  return { id: result.queueItemId as string, draft: decided.draft };
}

describe.each(storeKinds)("suppression is checked before every delivery, on the %s store", (kind) => {
  const ctx = useStore(kind);

  /** The delivery is refused and says why; the item still waits, and nothing was written or sent. */
  async function expectRefused(outbox: Outbox, id: string): Promise<void> {
    const error = await rejectionOf(outbox.queue.approve(id, { by: "ana" }));
    expect(error).toBeInstanceOf(QueueError);
    expect(error).toMatchObject({ code: "queue_transition_invalid", itemId: id });
    expect((error as Error).message).toMatch(/suppressed.*lift the suppression/);
    expect((await outbox.queue.get(id))?.status).toBe("open");
  }

  it("a draft approved after its destination was suppressed (since it was queued) sends nothing; lifted, it sends once", async () => {
    const { outbox, transport } = outboxOver(ctx.store, { contactKey });
    const { id, draft } = await awaitingApproval(outbox);
    const destination = await suppress(ctx.store, draft);

    await expectRefused(outbox, id);
    expect((await outbox.queue.get(id))?.outboundId).toBeUndefined();
    expect(transport.sent).toEqual([]);

    expect((await outbox.suppressions.lift(destination, { by: "ana" })).lifted).toBe(true);
    const approved = await outbox.queue.approve(id, { by: "ana" });
    expect(approved).toMatchObject({ approvedNow: true, outbound: { status: "delivered" } });
    expect((await outbox.queue.approve(id, { by: "ana" })).approvedNow).toBe(false);
    expect(await outbox.flush()).toEqual({ delivered: 0, failed: 0 });
    expect(transport.sent.map((one) => one.message)).toEqual([draft]);
  });

  it("a row released for a later flush() is not sent once its destination is suppressed: it fails to a destination_suppressed item holding the message", async () => {
    const { outbox, transport } = outboxOver(ctx.store, { contactKey });
    const { id, draft } = await awaitingApproval(outbox);
    // Released by a tool that holds no contact key: the row waits, pending, for the outbox's flush().
    const released = await openHumanQueue(ctx.store, { clock: () => t0 }).release(id, { by: "ana" });
    const row = released.outbound;
    expect(row?.status).toBe("pending");
    expect(row?.templateVersion).toBeDefined();
    const destination = await suppress(ctx.store, draft);

    expect(await outbox.flush()).toEqual({ delivered: 0, failed: 1 });
    expect(transport.sent).toEqual([]);
    expect(await ctx.store.getOutbound(row?.id as string)).toMatchObject({ status: "failed", attempts: 0 });
    const [event] = await auditOf(outbox, { type: "delivery" });
    expect(event).toMatchObject({
      outcome: "escalate",
      reason: "destination_suppressed",
      key: row?.key,
      data: {
        outboundId: row?.id,
        status: "failed",
        templateVersion: row?.templateVersion,
        catalogVersion: row?.catalogVersion,
        facts: { cause: "hard_bounce", destination: destination.slice(0, 12) },
      },
    });
    const [item] = (await outbox.queue.list({ reason: "destination_suppressed" })).items;
    expect(item).toMatchObject({
      status: "open",
      draft,
      key: row?.key,
      outboundId: row?.id,
      auditId: event?.id,
    });
    expect((await outbox.queue.get(item?.id as string))?.decidedUnder).toEqual({
      templateVersion: row?.templateVersion,
      catalogVersion: row?.catalogVersion,
    });
    // The address is never written, only its hash's prefix.
    expect(JSON.stringify(event)).not.toContain(draft.to);

    // Approved while still suppressed: refused, and nothing is sent by a flush after it either.
    await expectRefused(outbox, item?.id as string);
    expect(await outbox.flush()).toEqual({ delivered: 0, failed: 0 });
    expect(transport.sent).toEqual([]);

    await outbox.suppressions.lift(destination, { by: "ana" });
    const approved = await outbox.queue.approve(item?.id as string, { by: "ana" });
    // The same row, with the same key, is sent: once.
    expect(approved.outbound).toMatchObject({ id: row?.id, key: row?.key, status: "delivered" });
    expect(await outbox.flush()).toEqual({ delivered: 0, failed: 0 });
    expect(transport.sent.map((one) => [one.message, one.key])).toEqual([[draft, row?.key]]);
  });

  it("a failed delivery approved again after its destination was suppressed sends nothing", async () => {
    const failing = memoryTransport({ failFirst: 3, retryable: true });
    const { outbox } = outboxOver(ctx.store, { contactKey, transport: failing });
    const sent = await outbox.handle({ ticketId: "T-2", output: proposal("T-2"), runId: "run-2" });
    expect(sent.delivery?.status).toBe("failed");
    const [item] = (await outbox.queue.list({ reason: "delivery_failed" })).items;
    const row = await ctx.store.getOutbound(sent.outboundId as string);
    await suppress(ctx.store, row?.message as Message);

    await expectRefused(outbox, item?.id as string);
    expect(await ctx.store.getOutbound(row?.id as string)).toMatchObject({ status: "failed" });
    expect(await outbox.flush()).toEqual({ delivered: 0, failed: 0 });
    expect(failing.sent).toEqual([]);
  });

  it("a message in doubt is neither resent nor approved again to a suppressed destination", async () => {
    const deduplicating = Object.assign(memoryTransport(), { deduplicatesByKey: true });
    const { outbox, clock } = outboxOver(ctx.store, { contactKey, transport: deduplicating });
    const message: Message = {
      template: "welcome",
      channel: "email",
      to: "tenant@example.com",
      text: "Hello",
    };
    // A deliverer took the row and stopped: `delivering`, its lease long over.
    const outboundId = await ctx.store.transaction((tx) =>
      tx.addOutbound(
        newOutboundRow({
          key: "k-in-doubt",
          ticketId: "T-3",
          runId: "run-3",
          template: "welcome",
          message,
          status: "delivering",
          createdAt: t0,
          bodySha256: "0".repeat(64),
          leaseUntil: t0,
        }),
      ),
    );
    clock.advance(1);
    await suppress(ctx.store, message);
    // To a transport that deduplicates by key the row would be sent again: the suppression stops it.
    expect(await outbox.flush()).toEqual({ delivered: 0, failed: 1 });
    expect(deduplicating.sent).toEqual([]);
    const [item] = (await outbox.queue.list({ reason: "destination_suppressed" })).items;
    expect(item).toMatchObject({ outboundId, key: "k-in-doubt", draft: message });
    await expectRefused(outbox, item?.id as string);
    expect(deduplicating.sent).toEqual([]);
  });

  it("a person's reply is refused when its destination is suppressed while the ticket's records load", async () => {
    let suppressWhileLoading: Message | undefined;
    const { outbox, transport } = outboxOver(ctx.store, {
      contactKey,
      load: async (ticketId: string) => {
        if (suppressWhileLoading !== undefined) await suppress(ctx.store, suppressWhileLoading);
        return propertyTicket(ticketId);
      },
    });
    const { id, draft } = await awaitingApproval(outbox);
    suppressWhileLoading = draft;
    const result = await outbox.sendPersonReply({ queueItemId: id, text: "Hello.", by: "ana" });
    expect(result).toMatchObject({ ok: false, refusal: "suppressed" });
    expect(transport.sent).toEqual([]);
    expect((await outbox.queue.get(id))?.status).toBe("open");
  });

  it("the workspace says an approval was refused for a suppressed recipient, not that the item has no draft", async () => {
    const { outbox } = outboxOver(ctx.store, { contactKey });
    const { id, draft } = await awaitingApproval(outbox);
    await suppress(ctx.store, draft);
    const source = storeSource(ctx.store, { contactKey });
    expect(await runAction(source, "release", id, "ana", {}, 600_000)).toBe("suppressed");
    expect(outcomes.suppressed.text).toMatch(/suppressed.*Lift the suppression/);
    expect((await outbox.queue.get(id))?.status).toBe("open");
  });

  it("without a contact key no suppression is read, and a released row is sent as before", async () => {
    const { outbox, transport } = outboxOver(ctx.store);
    const { id, draft } = await awaitingApproval(outbox);
    await openHumanQueue(ctx.store, { clock: () => t0 }).release(id, { by: "ana" });
    const reads: string[] = [];
    const getSuppression = ctx.store.getSuppression.bind(ctx.store);
    const transaction = ctx.store.transaction.bind(ctx.store);
    Object.assign(ctx.store, {
      getSuppression: (destination: string) => {
        reads.push(destination);
        return getSuppression(destination);
      },
      transaction: ((work, hooks) =>
        transaction(
          (tx) =>
            work(
              Object.assign(Object.create(tx) as typeof tx, {
                getSuppression: (destination: string) => {
                  reads.push(destination);
                  return tx.getSuppression(destination);
                },
              }),
            ),
          hooks,
        )) as Store["transaction"],
    });
    expect(await outbox.flush()).toEqual({ delivered: 1, failed: 0 });
    expect(transport.sent.map((one) => one.message)).toEqual([draft]);
    expect(reads).toEqual([]);
  });
});

describe("formletter queue release to a suppressed destination", () => {
  it("is refused with the reason, the item still waiting; lifted, it is released", async () => {
    const directory = mkdtempSync(join(tmpdir(), "formletter-gate-cli-"));
    const file = join(directory, "outbox.db");
    const previous = process.env.FORMLETTER_CONTACT_KEY;
    process.env.FORMLETTER_CONTACT_KEY = contactKey;
    try {
      const store = sqliteStore(file);
      const { outbox } = outboxOver(store, { contactKey });
      const { id, draft } = await awaitingApproval(outbox);
      const destination = await suppress(store, draft);
      await outbox.close();

      const refused = await cli(["queue", "release", id, "--db", file, "--by", "ana"]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/recipient is suppressed \(it bounced for good\).*lift the suppression/);
      expect(refused.stderr).not.toContain(draft.to);
      const lifted = await cli(["suppression", "lift", destination, "--db", file, "--by", "ana"]);
      expect(lifted.code).toBe(0);
      const released = await cli(["queue", "release", id, "--db", file, "--by", "ana"]);
      expect(released).toMatchObject({ code: 0, stderr: "" });
      expect(released.stdout).toContain("waits for delivery");
    } finally {
      if (previous === undefined) delete process.env.FORMLETTER_CONTACT_KEY;
      else process.env.FORMLETTER_CONTACT_KEY = previous;
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
