/**
 * The human queue's refusals, for every caller of the library (not only the relay and the command
 * line): who acts is held to the visible-name rule on every action, a refused name changes nothing, and
 * no refusal's message repeats an id or a name a caller or a store row wrote: those are properties.
 */
import { describe, expect, it } from "vitest";
import { openHumanQueue, QueueError } from "../../src/index.js";
import type { QueueItem, QueueStatus } from "../../src/store/store.js";
import { proposal } from "../fixtures/property.js";
import { unreadableNames } from "../fixtures/unreadable-names.js";
import { auditOf, outboxOver, rejectionOf, storeKinds, useStore } from "./harness.js";

const rule =
  "1 to 200 characters, one or more of them visible, and none a control, invisible or bidi character";
const canary = "QZX-canary-7f3a";

describe.each(storeKinds)("queue refusals on the %s store", (kind) => {
  const ctx = useStore(kind);

  /** An outbox with an approval waiting (it has a draft) and an escalation (it has none). */
  async function twoItems() {
    const rig = outboxOver(ctx.store);
    const approval = await rig.outbox.handle({
      ticketId: "T-1",
      output: proposal("T-1", "payment_release"),
      runId: "run-1",
    });
    const escalation = await rig.outbox.handle({
      ticketId: "T-2",
      output: { escalate: "needs_human" },
      runId: "run-2",
    });
    const ids = [approval.queueItemId, escalation.queueItemId] as string[];
    return { ...rig, ids, queue: openHumanQueue(ctx.store) };
  }

  /** Every action of both queues (the outbox's and the detached one) on `id`, by `actor`. */
  function everyAction(rig: Awaited<ReturnType<typeof twoItems>>, id: string, actor: unknown) {
    const by = actor as { by: string };
    // The actor as given (undefined, a number…), with a resolution beside it.
    const closing = { resolution: "called back", ...(actor as object) } as { by: string; resolution: string };
    return [
      ["claim", () => rig.outbox.queue.claim(id, by)],
      ["approve", () => rig.outbox.queue.approve(id, by)],
      ["reject", () => rig.outbox.queue.reject(id, by)],
      ["resolve", () => rig.outbox.queue.resolve(id, closing)],
      ["detached claim", () => rig.queue.claim(id, by)],
      ["detached release", () => rig.queue.release(id, by)],
      ["detached reject", () => rig.queue.reject(id, by)],
      ["detached resolve", () => rig.queue.resolve(id, closing)],
    ] as const;
  }

  /** What a refused action must leave as it was. */
  async function state(rig: Awaited<ReturnType<typeof twoItems>>) {
    return {
      items: (await rig.outbox.queue.list()).items,
      audit: await auditOf(rig.outbox),
      sent: rig.transport.sent.length,
    };
  }

  it.each([
    ...unreadableNames.map(([name, by]) => [name, { by }] as const),
    ["no actor", undefined],
    ["a non-string name", { by: 7 }],
    ["a name that is an object", { by: { toString: () => "ana" } }],
  ] as const)("who acts may not be %s: every action is refused, and nothing changes", async (_, actor) => {
    const rig = await twoItems();
    const before = await state(rig);
    for (const id of rig.ids) {
      for (const [action, run] of everyAction(rig, id, actor)) {
        const error = await rejectionOf((async () => run())());
        expect(error, action).toBeInstanceOf(QueueError);
        expect(error, action).toMatchObject({ code: "queue_actor_invalid", itemId: id });
        // The message is code-written text: the rule, and none of the name given.
        expect((error as Error).message, action).toBe(
          `every queue action needs { by: "<who>" }, the name the audit log records: ${rule}`,
        );
      }
    }
    expect(await state(rig)).toEqual(before);
  });

  it("a readable name of any script acts, trimmed", async () => {
    const rig = await twoItems();
    const [approval, escalation] = rig.ids as [string, string];
    const claimed = await rig.outbox.queue.claim(escalation, { by: "  Zoë Ødegaard 李雷 " });
    expect(claimed.claimedBy).toBe("Zoë Ødegaard 李雷");
    const released = await rig.queue.release(approval, { by: "ساره" });
    expect(released.item.closedBy).toBe("ساره");
    const actors = (await auditOf(rig.outbox, { type: "queue" })).map((event) => event.actor);
    expect(actors).toEqual(["Zoë Ødegaard 李雷", "ساره"]);
  });

  it.each([
    ["a canary", canary],
    ["a canary with markup and a line break", `<b>${canary}</b>\n`],
    ["a canary behind a bidi override", `\u202e${canary}`],
    ["a canary of 10,000 characters", canary.repeat(700)],
  ])("an id of %s is queue_item_not_found, the id a property and never in the message", async (_, id) => {
    const rig = await twoItems();
    const before = await state(rig);
    for (const [action, run] of everyAction(rig, id, { by: "ana" })) {
      const error = await rejectionOf(run());
      expect(error, action).toBeInstanceOf(QueueError);
      expect(error, action).toMatchObject({ code: "queue_item_not_found", itemId: id });
      expect((error as Error).message, action).not.toContain(canary);
      expect((error as Error).message, action).toBe(
        "no queue item has the id given (the error's itemId); list the queue for the ids it holds",
      );
    }
    expect(await state(rig)).toEqual(before);
  });

  it.each([
    ["an object whose text is a canary", { toString: () => canary }],
    ["a number", 7],
    ["null", null],
  ])("an id that is %s names no item, and nothing of it reaches the message", async (_, given) => {
    const rig = await twoItems();
    for (const [action, run] of everyAction(rig, given as string, { by: "ana" })) {
      const error = await rejectionOf(run());
      expect(error, action).toMatchObject({ code: "queue_item_not_found", itemId: undefined });
      expect((error as Error).message, action).not.toContain(canary);
    }
  });

  it("a claim refused for another's claim gives the holder as a property, not in the message", async () => {
    const rig = await twoItems();
    const [, escalation] = rig.ids as [string, string];
    await rig.outbox.queue.claim(escalation, { by: canary });
    for (const claim of [rig.outbox.queue.claim, rig.queue.claim]) {
      const error = await rejectionOf(claim(escalation, { by: "ben" }));
      expect(error).toMatchObject({
        code: "queue_transition_invalid",
        itemId: escalation,
        status: "claimed",
        claimedBy: canary,
      });
      expect((error as Error).message).toBe(
        "the queue item is claimed by someone else (the error's claimedBy); only open items can be claimed",
      );
    }
  });

  it("transitions a status does not allow are said in code-written words", async () => {
    const rig = await twoItems();
    const [approval, escalation] = rig.ids as [string, string];
    const noDraft = await rejectionOf(rig.outbox.queue.approve(escalation, { by: "ana" }));
    expect(noDraft).toMatchObject({ code: "queue_transition_invalid", itemId: escalation, status: "open" });
    expect((noDraft as Error).message).toBe(
      "the queue item (model_escalated) has no draft to send; resolve it instead",
    );
    await rig.outbox.queue.reject(approval, { by: "ana" });
    const refused: [string, () => Promise<unknown>, string][] = [
      [
        "claim",
        () => rig.outbox.queue.claim(approval, { by: "ben" }),
        "the queue item is rejected; only open items can be claimed",
      ],
      [
        "approve",
        () => rig.outbox.queue.approve(approval, { by: "ben" }),
        "the queue item is already rejected; it cannot be approved",
      ],
      [
        "release",
        () => rig.queue.release(approval, { by: "ben" }),
        "the queue item is already rejected; it cannot be approved",
      ],
      [
        "reject",
        () => rig.outbox.queue.reject(approval, { by: "ben" }),
        "the queue item is already rejected; it cannot be rejected",
      ],
      [
        "resolve",
        () => rig.queue.resolve(approval, { by: "ben", resolution: "x" }),
        "the queue item is already rejected; it cannot be resolved",
      ],
    ];
    for (const [action, run, message] of refused) {
      const error = await rejectionOf(run());
      expect(error, action).toMatchObject({
        code: "queue_transition_invalid",
        itemId: approval,
        status: "rejected",
      });
      expect((error as Error).message, action).toBe(message);
    }
  });

  it("a stored status or reason this version does not know is refused, and not written into a message", async () => {
    const rig = await twoItems();
    const [approval, escalation] = rig.ids as [string, string];
    // As a newer version, or a hand-edited database, could leave a row.
    const foreign = { status: canary as QueueStatus, reason: canary as QueueItem["reason"] };
    await ctx.store.transaction((tx) => tx.updateQueueItem(approval, foreign));
    expect((await rig.queue.get(approval))?.status).toBe(canary);
    const before = await state(rig);
    for (const [action, run] of everyAction(rig, approval, { by: "ana" })) {
      const error = await rejectionOf(run());
      expect(error, action).toMatchObject({
        code: "queue_transition_invalid",
        itemId: approval,
        status: undefined,
      });
      expect((error as Error).message, action).toMatch(
        /^the queue item is in a status this version of formletter does not know; (only open items can be claimed|it cannot be (approved|rejected|resolved))$/,
      );
    }
    expect(await state(rig)).toEqual(before);
    await ctx.store.transaction((tx) => tx.updateQueueItem(escalation, { reason: foreign.reason }));
    const noDraft = await rejectionOf(rig.outbox.queue.approve(escalation, { by: "ana" }));
    expect((noDraft as Error).message).toBe("the queue item has no draft to send; resolve it instead");
  });
});
