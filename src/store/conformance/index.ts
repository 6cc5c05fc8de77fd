/**
 * @module formletter/store/conformance: the behaviour every `Store` must have, whatever keeps the data: register it with
 * `describeStoreConformance(name, makeStore)` from a store's own test file, run by vitest (an optional
 * peer dependency, needed only here). Each test gets a fresh, empty store; `cleanup` must also work on
 * a store the test already closed.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Message } from "../../core/decision/decision.js";
import type { EscalationReason } from "../../core/decision/reasons.js";
import {
  type AuditEvent,
  type AuditFilter,
  minuteOf,
  type OutboundRow,
  type QueueFilter,
  type QueueItem,
  type QueueStatus,
  type Store,
  type StoredResult,
  type StoreTransaction,
} from "../store.js";
import { deliveryStatusCases } from "./delivery-status.js";

/** A fresh, empty store for one test, and how to remove it afterwards (also once the test closed it). */
export interface StoreUnderTest {
  readonly store: Store;
  cleanup(): Promise<void>;
}

/** A minute boundary, so tests can place events in "the same minute" on purpose. */
export const t0 = Date.UTC(2026, 2, 2, 9, 0, 0);
const minute = 60_000;
const day = 24 * 60 * minute;

export function message(n: number | string): Message {
  return {
    template: "visit_request",
    channel: "email",
    to: `works-${n}@builders.example`,
    subject: `Visit request ${n}`,
    text: `Hello,\n\nplease visit unit ${n}.`,
  };
}

export function outboundRow(overrides: Partial<Omit<OutboundRow, "id">> = {}): Omit<OutboundRow, "id"> {
  return {
    key: `fl_${Math.random().toString(16).slice(2)}${Math.random().toString(16).slice(2)}`,
    ticketId: "T-1",
    runId: "run-1",
    template: "visit_request",
    message: message(1),
    status: "pending",
    attempts: 0,
    createdAt: t0,
    leaseUntil: undefined,
    deliveredAt: undefined,
    receiptId: undefined,
    bodySha256: "0".repeat(64),
    templateVersion: undefined,
    catalogVersion: undefined,
    ...overrides,
  };
}

export function queueItem(overrides: Partial<Omit<QueueItem, "id">> = {}): Omit<QueueItem, "id"> {
  return {
    status: "open",
    reason: "model_escalated",
    ticketId: "T-1",
    runId: "run-1",
    template: undefined,
    detail: "the model escalated: needs_human",
    key: undefined,
    draft: undefined,
    note: undefined,
    createdAt: t0,
    claimedBy: undefined,
    claimedAt: undefined,
    closedBy: undefined,
    closedAt: undefined,
    resolution: undefined,
    closeNote: undefined,
    auditId: "1",
    outboundId: undefined,
    ...overrides,
  };
}

export function auditEvent(overrides: Partial<Omit<AuditEvent, "id">> = {}): Omit<AuditEvent, "id"> {
  return {
    at: t0,
    type: "decision",
    ticketId: "T-1",
    runId: "run-1",
    template: "visit_request",
    outcome: "send",
    reason: undefined,
    key: undefined,
    actor: "outbox",
    data: { tags: { category: "leak" } },
    ...overrides,
  };
}

export function storedResult(key: string, ticketId = "T-1"): StoredResult {
  return {
    decision: {
      outcome: "send",
      ticketId,
      template: "visit_request",
      message: message(ticketId),
      values: { "order.unit": `Flat ${ticketId}` },
      choices: { order: "w-1234" },
      key,
    },
    auditId: "7",
    outboundId: "8",
    queueItemId: undefined,
  };
}

/** A reservation as `reserve` takes it. */
export function reservation(
  key: string,
  fields: { template?: string; ticketId?: string; runId?: string; at?: number } = {},
) {
  const ticketId = fields.ticketId ?? "T-1";
  return {
    key,
    template: fields.template ?? "visit_request",
    ticketId,
    runId: fields.runId ?? "run-1",
    at: fields.at ?? t0,
    result: storedResult(key, ticketId),
  };
}

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const value of iterable) out.push(value);
  return out;
}

/** Every page of a queue listing, checking page sizes on the way. */
export async function allPages(store: Store, filter: QueueFilter, limit: number): Promise<QueueItem[][]> {
  const pages: QueueItem[][] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 1000; guard++) {
    const page = await store.listQueue({ ...filter, limit, ...(cursor !== undefined ? { cursor } : {}) });
    pages.push([...page.items]);
    if (page.nextCursor === undefined) return pages;
    expect(page.items, "a page with a next cursor is full").toHaveLength(limit);
    cursor = page.nextCursor;
  }
  throw new Error("listQueue never ended");
}

const ticks = async (n = 5) => {
  for (let i = 0; i < n; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

/** A deterministic permutation of 0..n-1. */
function shuffled(n: number): number[] {
  const out = Array.from({ length: n }, (_, i) => i);
  let seed = 12345;
  for (let i = n - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j] as number, out[i] as number];
  }
  return out;
}

/**
 * Registers, with vitest, the tests every `Store` must pass: transactions that commit whole or not at
 * all, idempotency reservations, send counts, claims and leases, queue pages, audit streaming.
 *
 * @example
 * import { describeStoreConformance } from "formletter/store/conformance";
 * describeStoreConformance("redis", async () => {
 *   const store = await redisStore(url);
 *   return { store, cleanup: () => store.close() };
 * });
 */
export function describeStoreConformance(name: string, makeStore: () => Promise<StoreUnderTest>): void {
  describe(`${name} store conformance`, () => {
    let store: Store;
    let cleanup: () => Promise<void>;

    beforeEach(async () => {
      ({ store, cleanup } = await makeStore());
    });
    afterEach(async () => {
      await cleanup();
    });

    const counts = (fields: { template?: string; ticketId?: string; runId?: string; since?: number } = {}) =>
      store.transaction((tx) =>
        tx.countSends({
          template: fields.template ?? "visit_request",
          ticketId: fields.ticketId ?? "T-1",
          runId: fields.runId ?? "run-1",
          since: fields.since ?? t0 - day,
        }),
      );

    describe("transactions", () => {
      it("commit every write together, and return the work's value", async () => {
        const ids = await store.transaction(async (tx) => {
          const auditId = await tx.appendAudit(auditEvent());
          const outboundId = await tx.addOutbound(outboundRow({ key: "fl_commit" }));
          const queueItemId = await tx.addQueueItem(queueItem({ auditId }));
          await tx.reserve(reservation("fl_commit"));
          return { auditId, outboundId, queueItemId };
        });
        expect(typeof ids.auditId).toBe("string");
        expect(typeof ids.outboundId).toBe("string");
        expect(typeof ids.queueItemId).toBe("string");
        expect(await store.getOutbound(ids.outboundId)).toMatchObject({
          id: ids.outboundId,
          key: "fl_commit",
        });
        expect(await store.getQueueItem(ids.queueItemId)).toMatchObject({
          id: ids.queueItemId,
          auditId: ids.auditId,
        });
        expect((await collect(store.queryAudit({}))).map((event) => event.id)).toEqual([ids.auditId]);
        expect(await store.transaction((tx) => tx.findResult("fl_commit"))).toEqual(
          storedResult("fl_commit"),
        );
        expect(await counts()).toEqual({ ticket: 1, day: 1, run: 1 });
      });

      it("read back a send's result as reserved, message and key order included, when it names the outbound row written with it", async () => {
        const row = outboundRow({ key: "fl_named", ticketId: "T-3", message: message("named") });
        const written = await store.transaction(async (tx) => {
          const outboundId = await tx.addOutbound(row);
          const base = storedResult("fl_named", "T-3");
          const result = { ...base, decision: { ...base.decision, message: row.message }, outboundId };
          await tx.reserve({ ...reservation("fl_named", { ticketId: "T-3" }), result });
          return result;
        });
        // Delivery changes the row's status, never its message.
        await store.transaction((tx) =>
          tx.updateOutbound(written.outboundId, { status: "delivered", deliveredAt: t0 + 1 }),
        );
        const read = await store.transaction((tx) => tx.findResult("fl_named"));
        expect(read).toEqual(written);
        expect(Object.keys(read?.decision ?? {})).toEqual(Object.keys(written.decision));
        // A result naming a row of another transaction keeps its own message.
        const other = storedResult("fl_other", "T-4");
        await store.transaction((tx) =>
          tx.reserve({
            ...reservation("fl_other", { ticketId: "T-4" }),
            result: { ...other, outboundId: written.outboundId },
          }),
        );
        expect(await store.transaction((tx) => tx.findResult("fl_other"))).toEqual({
          ...other,
          outboundId: written.outboundId,
        });
      });

      it("roll back every write when the work throws: reservations, audit, outbound, queue, send counts", async () => {
        const before = await store.transaction(async (tx) => {
          const auditId = await tx.appendAudit(auditEvent({ ticketId: "T-0" }));
          const outboundId = await tx.addOutbound(outboundRow({ key: "fl_before" }));
          const queueItemId = await tx.addQueueItem(queueItem({ auditId }));
          return { auditId, outboundId, queueItemId };
        });
        const outboundBefore = await store.getOutbound(before.outboundId);
        const itemBefore = await store.getQueueItem(before.queueItemId);

        let written: { outboundId: string; queueItemId: string } | undefined;
        const failure = new Error("work failed half way");
        await expect(
          store.transaction(async (tx) => {
            await tx.reserve(reservation("fl_rolled_back"));
            await tx.appendAudit(auditEvent({ ticketId: "T-2" }));
            const outboundId = await tx.addOutbound(outboundRow({ key: "fl_rolled_back" }));
            const queueItemId = await tx.addQueueItem(queueItem({ ticketId: "T-2" }));
            await tx.updateOutbound(before.outboundId, { status: "delivered", attempts: 1, deliveredAt: t0 });
            await tx.updateQueueItem(before.queueItemId, { status: "claimed", claimedBy: "ana" });
            written = { outboundId, queueItemId };
            throw failure;
          }),
        ).rejects.toBe(failure);

        expect(written).toBeDefined();
        expect(await store.transaction((tx) => tx.findResult("fl_rolled_back"))).toBeUndefined();
        expect(await counts()).toEqual({ ticket: 0, day: 0, run: 0 });
        expect((await collect(store.queryAudit({}))).map((event) => event.id)).toEqual([before.auditId]);
        expect(await store.getOutbound(written?.outboundId as string)).toBeUndefined();
        expect(await store.getQueueItem(written?.queueItemId as string)).toBeUndefined();
        expect(await store.getOutbound(before.outboundId)).toEqual(outboundBefore);
        expect(await store.getQueueItem(before.queueItemId)).toEqual(itemBefore);
        expect((await store.listQueue({})).items.map((item) => item.id)).toEqual([before.queueItemId]);
        // The rolled-back key is free again.
        await store.transaction((tx) => tx.addOutbound(outboundRow({ key: "fl_rolled_back" })));
        await store.transaction((tx) => tx.reserve(reservation("fl_rolled_back")));
      });

      it("refuse every call through a transaction that has ended, during a later one too, writing nothing", async () => {
        let kept: StoreTransaction | undefined;
        const committedId = await store.transaction(async (tx) => {
          kept = tx;
          return tx.appendAudit(auditEvent({ ticketId: "T-kept" }));
        });
        const leaked = kept as StoreTransaction;
        const refused = { code: "store_invalid" };
        await expect(leaked.appendAudit(auditEvent({ ticketId: "T-after" }))).rejects.toMatchObject(refused);
        await expect(leaked.findResult("fl_after")).rejects.toMatchObject(refused);
        // A write through the ended transaction while another runs is refused, and is not that one's:
        // the later transaction commits only its own write.
        const laterId = await store.transaction(async (tx) => {
          await expect(leaked.addOutbound(outboundRow({ key: "fl_leaked" }))).rejects.toMatchObject(refused);
          await expect(leaked.reserve(reservation("fl_leaked"))).rejects.toMatchObject(refused);
          return tx.appendAudit(auditEvent({ ticketId: "T-later" }));
        });
        // And a later transaction that fails undoes only its own writes.
        const failure = new Error("later work failed");
        await expect(
          store.transaction(async (tx) => {
            await expect(leaked.appendAudit(auditEvent({ ticketId: "T-leaked" }))).rejects.toMatchObject(
              refused,
            );
            await tx.appendAudit(auditEvent({ ticketId: "T-failed" }));
            throw failure;
          }),
        ).rejects.toBe(failure);
        expect((await collect(store.queryAudit({}))).map((event) => event.id)).toEqual([
          committedId,
          laterId,
        ]);
        expect(await store.transaction((tx) => tx.findResult("fl_leaked"))).toBeUndefined();
        await store.transaction((tx) => tx.addOutbound(outboundRow({ key: "fl_leaked" })));
      });

      it("read their own writes before they commit", async () => {
        await store.transaction(async (tx) => {
          await tx.reserve(reservation("fl_own"));
          expect(await tx.findResult("fl_own")).toEqual(storedResult("fl_own"));
          expect(
            await tx.countSends({ template: "visit_request", ticketId: "T-1", runId: "run-1", since: t0 }),
          ).toEqual({ ticket: 1, day: 1, run: 1 });
          const outboundId = await tx.addOutbound(outboundRow({ key: "fl_own" }));
          await tx.updateOutbound(outboundId, { status: "delivered", attempts: 1 });
          expect(await tx.getOutbound(outboundId)).toMatchObject({ status: "delivered", attempts: 1 });
          const itemId = await tx.addQueueItem(queueItem());
          await tx.updateQueueItem(itemId, { status: "claimed", claimedBy: "ana", claimedAt: t0 });
          expect(await tx.getQueueItem(itemId)).toMatchObject({ status: "claimed", claimedBy: "ana" });
        });
      });

      it("never show uncommitted writes to reads outside the transaction", async () => {
        let release!: () => void;
        const held = new Promise<void>((resolve) => {
          release = resolve;
        });
        let wrote!: (ids: { outboundId: string; queueItemId: string }) => void;
        const written = new Promise<{ outboundId: string; queueItemId: string }>((resolve) => {
          wrote = resolve;
        });
        const failure = new Error("rolled back after the reads started");
        const open = store.transaction(async (tx) => {
          await tx.appendAudit(auditEvent());
          const outboundId = await tx.addOutbound(outboundRow({ key: "fl_uncommitted" }));
          const queueItemId = await tx.addQueueItem(queueItem());
          wrote({ outboundId, queueItemId });
          await held;
          throw failure;
        });
        const ids = await written;
        // Reads issued while the transaction is open; whenever they are answered, they must not see it.
        const reads = Promise.all([
          store.getOutbound(ids.outboundId),
          store.getQueueItem(ids.queueItemId),
          store.listQueue({}),
          collect(store.queryAudit({})),
        ]);
        await ticks();
        release();
        await expect(open).rejects.toBe(failure);
        const [row, item, page, events] = await reads;
        expect(row, "getOutbound saw an uncommitted row").toBeUndefined();
        expect(item, "getQueueItem saw an uncommitted item").toBeUndefined();
        expect(page.items, "listQueue saw an uncommitted item").toEqual([]);
        expect(events, "queryAudit saw an uncommitted event").toEqual([]);
      });

      it("are isolated: concurrent check-then-reserve of one key reserves once and fails none", async () => {
        const outcomes = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            store.transaction(async (tx) => {
              const prior = await tx.findResult("fl_contended");
              await ticks(1);
              if (prior !== undefined) return "duplicate";
              await tx.reserve(reservation("fl_contended", { runId: `run-${i}` }));
              return "reserved";
            }),
          ),
        );
        expect(outcomes.filter((outcome) => outcome === "reserved")).toHaveLength(1);
        expect(outcomes.filter((outcome) => outcome === "duplicate")).toHaveLength(19);
      });

      it("are isolated: concurrent count-then-reserve under a limit of one never goes over", async () => {
        const outcomes = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            store.transaction(async (tx) => {
              const sent = await tx.countSends({
                template: "visit_request",
                ticketId: "T-1",
                runId: `run-${i}`,
                since: t0 - day,
              });
              await ticks(1);
              if (sent.ticket >= 1) return "limited";
              await tx.reserve(reservation(`fl_limit_${i}`, { runId: `run-${i}` }));
              return "reserved";
            }),
          ),
        );
        expect(outcomes.filter((outcome) => outcome === "reserved")).toHaveLength(1);
        expect((await counts()).ticket).toBe(1);
      });
    });

    describe("idempotency reservations", () => {
      it("findResult returns the stored result of a key, and undefined for an unknown key", async () => {
        await store.transaction((tx) => tx.reserve(reservation("fl_a")));
        const found = await store.transaction(async (tx) => [
          await tx.findResult("fl_a"),
          await tx.findResult("fl_b"),
        ]);
        expect(found).toEqual([storedResult("fl_a"), undefined]);
      });

      it("reserve refuses a key that is already reserved, and keeps the first result", async () => {
        await store.transaction((tx) => tx.reserve(reservation("fl_once")));
        const second = { ...reservation("fl_once", { ticketId: "T-9", runId: "run-9" }) };
        await expect(store.transaction((tx) => tx.reserve(second))).rejects.toThrow();
        await expect(
          store.transaction(async (tx) => {
            await tx.reserve(reservation("fl_twice"));
            await tx.reserve(reservation("fl_twice"));
          }),
        ).rejects.toThrow();
        expect(await store.transaction((tx) => tx.findResult("fl_once"))).toEqual(storedResult("fl_once"));
        expect(await store.transaction((tx) => tx.findResult("fl_twice"))).toBeUndefined();
        expect(await counts({ ticketId: "T-9", runId: "run-9" })).toEqual({ ticket: 0, day: 1, run: 0 });
      });

      it("an outbound key is unique", async () => {
        await store.transaction((tx) => tx.addOutbound(outboundRow({ key: "fl_unique" })));
        await expect(
          store.transaction((tx) => tx.addOutbound(outboundRow({ key: "fl_unique", ticketId: "T-2" }))),
        ).rejects.toThrow();
      });
    });

    describe("countSends", () => {
      beforeEach(async () => {
        await store.transaction(async (tx) => {
          await tx.reserve(
            reservation("k1", { template: "visit_request", ticketId: "T-1", runId: "r1", at: t0 }),
          );
          await tx.reserve(
            reservation("k2", { template: "visit_request", ticketId: "T-2", runId: "r1", at: t0 + 59_999 }),
          );
          await tx.reserve(
            reservation("k3", {
              template: "payment_release",
              ticketId: "T-1",
              runId: "r2",
              at: t0 - 2 * day,
            }),
          );
          await tx.reserve(
            reservation("k4", { template: "visit_request", ticketId: "T-1", runId: "r3", at: t0 - 2 * day }),
          );
          await tx.reserve(
            reservation("k5", {
              template: "visit_request",
              ticketId: "T-3",
              runId: "r1",
              at: t0 + 5 * minute,
            }),
          );
        });
      });

      it("ticket counts this template for this ticket, ever", async () => {
        expect((await counts({ template: "visit_request", ticketId: "T-1", since: t0 })).ticket).toBe(2);
        expect((await counts({ template: "payment_release", ticketId: "T-1", since: t0 })).ticket).toBe(1);
        expect((await counts({ template: "visit_request", ticketId: "T-4", since: t0 })).ticket).toBe(0);
      });

      it("run counts every template in this run", async () => {
        expect((await counts({ runId: "r1" })).run).toBe(3);
        expect((await counts({ template: "completion_check", runId: "r2" })).run).toBe(1);
        expect((await counts({ runId: "r4" })).run).toBe(0);
      });

      it("day counts this template across tickets from the minute of `since` on, whole minutes", async () => {
        expect(minuteOf(t0 + 59_999)).toBe(minuteOf(t0));
        // A send anywhere in the `since` minute counts, even one before `since` itself.
        expect((await counts({ since: t0 + 59_999 })).day).toBe(3);
        expect((await counts({ since: t0 })).day).toBe(3);
        expect((await counts({ since: t0 - 1 })).day).toBe(3);
        expect((await counts({ since: t0 + minute })).day).toBe(1);
        expect((await counts({ since: t0 + 5 * minute + 59_999 })).day).toBe(1);
        expect((await counts({ since: t0 + 6 * minute })).day).toBe(0);
        expect((await counts({ since: t0 - 3 * day })).day).toBe(4);
        expect((await counts({ template: "payment_release", since: t0 - 3 * day })).day).toBe(1);
        expect((await counts({ template: "payment_release", since: t0 - day })).day).toBe(0);
      });
    });

    describe("sumSpend (value ceilings)", () => {
      const hour = 60 * minute;
      const spend = (units: number, currency = "EUR", group = "refunds") => [
        { ceiling: "refunds", group, currency, units },
      ];
      const sum = (since: number, currency = "EUR", group = "refunds") =>
        store.transaction((tx) => tx.sumSpend({ group, currency, since }));

      it("sums whole units exactly, per group and currency, never across them", async () => {
        await store.transaction(async (tx) => {
          await tx.reserve({ ...reservation("s1"), spend: spend(1999) });
          await tx.reserve({ ...reservation("s2"), spend: spend(1) });
          await tx.reserve({ ...reservation("s3"), spend: spend(700, "USD") });
          await tx.reserve({ ...reservation("s4"), spend: spend(50, "EUR", "payouts") });
          await tx.reserve({
            ...reservation("s5", { at: t0 + 1 }),
            spend: [...spend(10), ...spend(5, "JPY")],
          });
          await tx.reserve(reservation("s6"));
        });
        expect(await sum(t0 - hour)).toBe(2010);
        expect(await sum(t0 - hour, "USD")).toBe(700);
        expect(await sum(t0 - hour, "JPY")).toBe(5);
        expect(await sum(t0 - hour, "GBP")).toBe(0);
        expect(await sum(t0 - hour, "EUR", "payouts")).toBe(50);
        // Large sums stay exact (no float drift, no 32-bit overflow).
        await store.transaction((tx) => tx.reserve({ ...reservation("big"), spend: spend(2 ** 52, "CHF") }));
        await store.transaction((tx) => tx.reserve({ ...reservation("big2"), spend: spend(3, "CHF") }));
        expect(await sum(t0 - hour, "CHF")).toBe(2 ** 52 + 3);
      });

      it("windows at their edges: 59:59 ago counts, 60:01 ago does not; a window is rounded out by its first minute", async () => {
        const now = t0;
        await store.transaction(async (tx) => {
          await tx.reserve({ ...reservation("in", { at: now - hour + 1000 }), spend: spend(1) });
          await tx.reserve({ ...reservation("out", { at: now - hour - 1000 }), spend: spend(10) });
          await tx.reserve({ ...reservation("day-in", { at: now - day + 1000 }), spend: spend(100) });
          await tx.reserve({ ...reservation("day-out", { at: now - day - 1000 }), spend: spend(1000) });
        });
        expect(await sum(now - hour)).toBe(1 + 0);
        expect(await sum(now - day)).toBe(1 + 10 + 100);
        // Since 45 s into a minute, the whole minute counts: a send 60:30 ago at 15 s into it is in.
        const later = t0 + 45_000;
        await store.transaction((tx) =>
          tx.reserve({ ...reservation("early", { at: later - hour - 30_000 }), spend: spend(7) }),
        );
        expect(await sum(later - hour)).toBe(1 + 7);
      });

      it("counts and sums a day of steady sending exactly, from any minute of it", async () => {
        // A send every 7 minutes and 13 seconds for 26 hours, each spending its index in cents; `since`
        // falls on, just after and just before whole hours and at odd minutes.
        const step = 7 * minute + 13_000;
        const start = t0 - 26 * hour + 29_000;
        const sends = Array.from({ length: Math.floor((26 * hour) / step) }, (_, i) => ({
          at: start + i * step,
          units: i + 1,
        }));
        await store.transaction(async (tx) => {
          for (const [i, { at, units }] of sends.entries()) {
            await tx.reserve({
              ...reservation(`steady-${i}`, { ticketId: `T-${i}`, runId: `run-${i}`, at }),
              spend: spend(units),
            });
          }
        });
        const starts = [t0 - day, t0 - day + minute, t0 - day - minute, t0 - day + 59 * minute + 59_000];
        starts.push(t0 - 7 * hour - 17 * minute, t0 - hour, t0 - 59 * minute, t0 - 25 * hour + 31 * minute);
        for (const since of starts) {
          const counted = sends.filter(({ at }) => minuteOf(at) >= minuteOf(since));
          const found = await store.transaction(async (tx) => ({
            day: (await tx.countSends({ template: "visit_request", ticketId: "T-0", runId: "run-0", since }))
              .day,
            spent: await tx.sumSpend({ group: "refunds", currency: "EUR", since }),
          }));
          expect({ since, ...found }).toEqual({
            since,
            day: counted.length,
            spent: counted.reduce((total, { units }) => total + units, 0),
          });
        }
      });

      it("reads its own transaction's spend, and rolls it back with a failed transaction", async () => {
        await expect(
          store.transaction(async (tx) => {
            await tx.reserve({ ...reservation("r1"), spend: spend(300) });
            expect(await tx.sumSpend({ group: "refunds", currency: "EUR", since: t0 - hour })).toBe(300);
            throw new Error("fails after reserving");
          }),
        ).rejects.toThrow("fails after reserving");
        expect(await sum(t0 - hour)).toBe(0);
        // A duplicate key fails the transaction: its spend goes too.
        await store.transaction((tx) => tx.reserve({ ...reservation("dup"), spend: spend(5) }));
        await expect(
          store.transaction((tx) => tx.reserve({ ...reservation("dup"), spend: spend(6) })),
        ).rejects.toThrow();
        expect(await sum(t0 - hour)).toBe(5);
      });

      it("is isolated: concurrent sum-then-reserve against one maximum never goes over it", async () => {
        const max = 1000;
        const amounts = Array.from({ length: 24 }, (_, i) => 37 + ((i * 53) % 190));
        const outcomes = await Promise.all(
          amounts.map((units, i) =>
            store.transaction(async (tx) => {
              const spent = await tx.sumSpend({ group: "refunds", currency: "EUR", since: t0 - hour });
              await ticks(1);
              if (spent + units > max) return 0;
              await tx.reserve({ ...reservation(`c${i}`, { runId: `run-${i}` }), spend: spend(units) });
              return units;
            }),
          ),
        );
        const accepted = outcomes.reduce((a, b) => a + b, 0);
        expect(accepted).toBeLessThanOrEqual(max);
        expect(await sum(t0 - hour)).toBe(accepted);
        // Nothing refused would have fitted in what was left.
        for (const units of amounts)
          if (!outcomes.includes(units)) expect(accepted + units).toBeGreaterThan(max);
      });
    });

    describe("contacts (first contact)", () => {
      const hashOf = (n: number) => n.toString(16).padStart(64, "0");

      it("records a destination once: true the first time, false after, across transactions", async () => {
        const first = await store.transaction((tx) =>
          tx.addContact({ destination: hashOf(1), template: "a", at: t0 }),
        );
        const again = await store.transaction(async (tx) => [
          await tx.hasContact(hashOf(1)),
          await tx.addContact({ destination: hashOf(1), template: "b", at: t0 + 1 }),
          await tx.hasContact(hashOf(2)),
        ]);
        expect([first, ...again]).toEqual([true, true, false, false]);
      });

      it("sees its own transaction's contact, and rolls it back with a failed transaction", async () => {
        await expect(
          store.transaction(async (tx) => {
            expect(await tx.addContact({ destination: hashOf(3), template: "a", at: t0 })).toBe(true);
            expect(await tx.hasContact(hashOf(3))).toBe(true);
            expect(await tx.addContact({ destination: hashOf(3), template: "a", at: t0 })).toBe(false);
            throw new Error("fails after recording");
          }),
        ).rejects.toThrow("fails after recording");
        expect(await store.transaction((tx) => tx.hasContact(hashOf(3)))).toBe(false);
      });

      it("is isolated: of concurrent first sends to one destination, exactly one is first", async () => {
        const outcomes = await Promise.all(
          Array.from({ length: 20 }, () =>
            store.transaction(async (tx) => {
              await ticks(1);
              return tx.addContact({ destination: hashOf(4), template: "a", at: t0 });
            }),
          ),
        );
        expect(outcomes.filter(Boolean)).toHaveLength(1);
      });
    });

    describe("claimDue", () => {
      const now = t0 + 10 * minute;

      it("leases pending rows that are free or whose lease ran out, and only those", async () => {
        const ids = await store.transaction(async (tx) => ({
          free: await tx.addOutbound(outboundRow({ key: "free" })),
          leased: await tx.addOutbound(outboundRow({ key: "leased", leaseUntil: now + 1000 })),
          expired: await tx.addOutbound(outboundRow({ key: "expired", leaseUntil: now - 1 })),
          endsNow: await tx.addOutbound(outboundRow({ key: "ends_now", leaseUntil: now })),
          delivered: await tx.addOutbound(outboundRow({ key: "delivered", status: "delivered" })),
          failed: await tx.addOutbound(outboundRow({ key: "failed", status: "failed" })),
          shadow: await tx.addOutbound(outboundRow({ key: "shadow", status: "shadow" })),
          inDoubt: await tx.addOutbound(outboundRow({ key: "in_doubt", status: "in_doubt" })),
        }));
        const claimed = await store.claimDue({ now, leaseUntil: now + 5000, limit: 10 });
        expect(claimed.map((row) => row.key).sort()).toEqual(["ends_now", "expired", "free"]);
        for (const row of claimed) {
          expect(row.leaseUntil).toBe(now + 5000);
          // Returned as found; in the store, marked as being delivered.
          expect(row.status).toBe("pending");
          expect(await store.getOutbound(row.id)).toMatchObject({
            status: "delivering",
            leaseUntil: now + 5000,
          });
        }
        // Leased now: nobody claims them again until the lease passes.
        expect(await store.claimDue({ now: now + 999, leaseUntil: now + 9999, limit: 10 })).toEqual([]);
        expect(
          (await store.claimDue({ now: now + 1000, leaseUntil: now + 9999, limit: 10 })).map((row) => row.id),
        ).toEqual([ids.leased]);
        expect(
          (await store.claimDue({ now: now + 5000, leaseUntil: now + 9999, limit: 10 }))
            .map((row) => row.key)
            .sort(),
        ).toEqual(["ends_now", "expired", "free"]);
        expect(await store.getOutbound(ids.delivered)).toMatchObject({ leaseUntil: undefined });
        expect(await store.getOutbound(ids.inDoubt)).toMatchObject({ status: "in_doubt" });
      });

      it("claims a delivering row only once its lease ran out, and returns it as delivering: in doubt", async () => {
        const ids = await store.transaction(async (tx) => ({
          held: await tx.addOutbound(
            outboundRow({ key: "held", status: "delivering", attempts: 1, leaseUntil: now + 1 }),
          ),
          abandoned: await tx.addOutbound(
            outboundRow({ key: "abandoned", status: "delivering", attempts: 1, leaseUntil: now }),
          ),
          pending: await tx.addOutbound(outboundRow({ key: "pending" })),
        }));
        const claimed = await store.claimDue({ now, leaseUntil: now + 5000, limit: 10 });
        expect(claimed.map((row) => [row.key, row.status, row.attempts])).toEqual([
          ["abandoned", "delivering", 1],
          ["pending", "pending", 0],
        ]);
        expect(await store.getOutbound(ids.abandoned)).toMatchObject({
          status: "delivering",
          leaseUntil: now + 5000,
        });
        expect(await store.getOutbound(ids.held)).toMatchObject({
          status: "delivering",
          leaseUntil: now + 1,
        });
        // Once claimed, a pending row is found delivering by the next claim after its lease.
        const later = await store.claimDue({ now: now + 5000, leaseUntil: now + 9000, limit: 10 });
        expect(later.map((row) => [row.id, row.status])).toEqual([
          [ids.held, "delivering"],
          [ids.abandoned, "delivering"],
          [ids.pending, "delivering"],
        ]);
      });

      it("claims at most `limit` rows, oldest first", async () => {
        const ids = await store.transaction(async (tx) => {
          const out: string[] = [];
          for (let i = 0; i < 5; i++) out.push(await tx.addOutbound(outboundRow({ key: `k${i}` })));
          return out;
        });
        expect((await store.claimDue({ now, leaseUntil: now + 1, limit: 2 })).map((row) => row.id)).toEqual(
          ids.slice(0, 2),
        );
        expect((await store.claimDue({ now, leaseUntil: now + 1, limit: 2 })).map((row) => row.id)).toEqual(
          ids.slice(2, 4),
        );
        expect((await store.claimDue({ now, leaseUntil: now + 1, limit: 2 })).map((row) => row.id)).toEqual(
          ids.slice(4),
        );
      });

      it("with `id`, considers only that row", async () => {
        const ids = await store.transaction(async (tx) => ({
          a: await tx.addOutbound(outboundRow({ key: "a" })),
          b: await tx.addOutbound(outboundRow({ key: "b" })),
          leased: await tx.addOutbound(outboundRow({ key: "leased", leaseUntil: now + 1000 })),
          delivered: await tx.addOutbound(outboundRow({ key: "delivered", status: "delivered" })),
        }));
        const claimed = await store.claimDue({ now, leaseUntil: now + 5000, limit: 10, id: ids.b });
        expect(claimed.map((row) => row.id)).toEqual([ids.b]);
        expect(await store.getOutbound(ids.a)).toMatchObject({ leaseUntil: undefined });
        expect(await store.claimDue({ now, leaseUntil: now + 5000, limit: 10, id: ids.b })).toEqual([]);
        expect(await store.claimDue({ now, leaseUntil: now + 5000, limit: 10, id: ids.leased })).toEqual([]);
        expect(await store.claimDue({ now, leaseUntil: now + 5000, limit: 10, id: ids.delivered })).toEqual(
          [],
        );
        expect(await store.claimDue({ now, leaseUntil: now + 5000, limit: 10, id: "424242" })).toEqual([]);
      });

      it("concurrent calls never return the same row", async () => {
        const keys = await store.transaction(async (tx) => {
          const out: string[] = [];
          for (let i = 0; i < 50; i++) {
            await tx.addOutbound(outboundRow({ key: `c${i}` }));
            out.push(`c${i}`);
          }
          return out;
        });
        const batches = await Promise.all(
          Array.from({ length: 10 }, () => store.claimDue({ now, leaseUntil: now + 60_000, limit: 7 })),
        );
        const claimed = batches.flat().map((row) => row.key);
        expect(new Set(claimed).size, "a row was claimed twice").toBe(claimed.length);
        expect(claimed.sort()).toEqual(keys.sort());
      });
    });

    describe("outbound rows and queue items", () => {
      it("round-trip every field", async () => {
        const row = outboundRow({
          key: "fl_fields",
          message: { ...message(2), html: "<p>Hello</p>" },
          attempts: 2,
          leaseUntil: t0 + 1,
          receiptId: undefined,
          templateVersion: "0123456789abcdef",
          catalogVersion: "fedcba9876543210",
        });
        const draft: Message = {
          template: "sms_notice",
          channel: "sms",
          to: "+447700900123",
          text: "Visit at 9",
          sms: { segments: 1, encoding: "GSM-7" },
        };
        const item = queueItem({
          reason: "approval_required",
          template: "payment_release",
          key: "fl_item",
          draft,
          note: "the tenant asked twice",
          claimedBy: "ana",
          claimedAt: t0 + 5,
          outboundId: "3",
        });
        const ids = await store.transaction(async (tx) => ({
          row: await tx.addOutbound(row),
          item: await tx.addQueueItem(item),
        }));
        expect(await store.getOutbound(ids.row)).toEqual({ ...row, id: ids.row });
        expect(await store.getQueueItem(ids.item)).toEqual({ ...item, id: ids.item });
        expect(await store.getOutbound("999999")).toBeUndefined();
        expect(await store.getQueueItem("999999")).toBeUndefined();
      });

      it("keep the template and catalog versions a row was written with through updates, claims and receipts; a row without them reads back without them", async () => {
        const versions = { templateVersion: "0123456789abcdef", catalogVersion: "fedcba9876543210" };
        const ids = await store.transaction(async (tx) => ({
          versioned: await tx.addOutbound(outboundRow({ key: "fl_versioned", ...versions })),
          bare: await tx.addOutbound(outboundRow({ key: "fl_bare" })),
        }));
        const claimed = await store.claimDue({ now: t0, leaseUntil: t0 + 1000, limit: 10 });
        expect(claimed.map((row) => [row.key, row.templateVersion, row.catalogVersion])).toEqual([
          ["fl_versioned", versions.templateVersion, versions.catalogVersion],
          ["fl_bare", undefined, undefined],
        ]);
        await store.transaction((tx) =>
          tx.updateOutbound(ids.versioned, { status: "delivered", receiptId: "r-versioned", attempts: 1 }),
        );
        const byReceipt = await store.transaction((tx) => tx.findOutboundByReceipt("r-versioned"));
        expect(byReceipt).toMatchObject(versions);
        expect(await store.getOutbound(ids.versioned)).toMatchObject(versions);
        expect(await store.getOutbound(ids.bare)).toMatchObject({
          templateVersion: undefined,
          catalogVersion: undefined,
        });
        // What produced a message never changes once it is written.
        for (const field of ["templateVersion", "catalogVersion"]) {
          await expect(
            store.transaction((tx) =>
              tx.updateOutbound(ids.versioned, { [field]: "0000000000000000" } as never),
            ),
            field,
          ).rejects.toMatchObject({ code: "store_invalid" });
        }
        expect(await store.getOutbound(ids.versioned)).toMatchObject(versions);
      });

      it("updates change only the given fields; undefined clears one", async () => {
        const ids = await store.transaction(async (tx) => ({
          row: await tx.addOutbound(outboundRow({ key: "fl_update", leaseUntil: t0 + 1 })),
          item: await tx.addQueueItem(queueItem({ note: "keep me" })),
        }));
        await store.transaction(async (tx) => {
          await tx.updateOutbound(ids.row, {
            status: "delivered",
            attempts: 1,
            deliveredAt: t0 + 2,
            receiptId: "r-1",
            leaseUntil: undefined,
          });
          await tx.updateQueueItem(ids.item, {
            status: "resolved",
            closedBy: "ana",
            closedAt: t0 + 3,
            resolution: "phoned the contractor",
          });
        });
        expect(await store.getOutbound(ids.row)).toEqual({
          ...outboundRow({ key: "fl_update" }),
          id: ids.row,
          status: "delivered",
          attempts: 1,
          deliveredAt: t0 + 2,
          receiptId: "r-1",
          leaseUntil: undefined,
        });
        expect(await store.getQueueItem(ids.item)).toEqual({
          ...queueItem({ note: "keep me" }),
          id: ids.item,
          status: "resolved",
          closedBy: "ana",
          closedAt: t0 + 3,
          resolution: "phoned the contractor",
        });
      });

      it("refuses a change to a field it has no column for, a prototype's name included, with store_invalid, changing nothing", async () => {
        const { outboundId, itemId } = await store.transaction(async (tx) => {
          const auditId = await tx.appendAudit(auditEvent());
          return {
            outboundId: await tx.addOutbound(outboundRow({ key: "fl_fields" })),
            itemId: await tx.addQueueItem(queueItem({ auditId })),
          };
        });
        const outboundBefore = await store.getOutbound(outboundId);
        const itemBefore = await store.getQueueItem(itemId);
        const updates = {
          outbound: (tx: StoreTransaction, change: object) => tx.updateOutbound(outboundId, change as never),
          queue: (tx: StoreTransaction, change: object) => tx.updateQueueItem(itemId, change as never),
        };
        // `__proto__` as parsed input carries it: an own key, not the prototype. A queue item's key can change.
        const hostile = ["message", "id", "constructor", "toString", "hasOwnProperty", "__proto__"];
        const refused = [
          ["outbound", "key"],
          ...hostile.flatMap((field) => [
            ["outbound", field],
            ["queue", field],
          ]),
        ];
        for (const [table, field] of refused as ["outbound" | "queue", string][]) {
          const change = JSON.parse(`{${JSON.stringify(field)}: "x"}`) as object;
          await expect(
            store.transaction((tx) => updates[table](tx, change)),
            `${table}.${field}`,
          ).rejects.toMatchObject({
            code: "store_invalid",
            message: expect.stringContaining(`${table}.${field}`),
          });
        }
        expect(await store.getOutbound(outboundId)).toEqual(outboundBefore);
        expect(await store.getQueueItem(itemId)).toEqual(itemBefore);
      });

      it("updating an unknown id throws (and rolls the transaction back)", async () => {
        await expect(
          store.transaction((tx) => tx.updateOutbound("987654", { status: "delivered" })),
        ).rejects.toThrow();
        await expect(
          store.transaction(async (tx) => {
            await tx.appendAudit(auditEvent());
            await tx.updateQueueItem("987654", { status: "resolved" });
          }),
        ).rejects.toThrow();
        expect(await collect(store.queryAudit({}))).toEqual([]);
      });
    });

    describe("listQueue", () => {
      const statuses: QueueStatus[] = ["open", "claimed", "approved", "rejected", "resolved"];
      const reasons: EscalationReason[] = [
        "model_escalated",
        "approval_required",
        "limit_exceeded",
        "delivery_failed",
      ];
      const templates = ["visit_request", "payment_release", undefined];

      async function seed(n: number): Promise<QueueItem[]> {
        const ids = await store.transaction(async (tx) => {
          const out: string[] = [];
          for (let i = 0; i < n; i++) {
            out.push(
              await tx.addQueueItem(
                queueItem({
                  status: statuses[i % 5] as QueueStatus,
                  reason: reasons[i % 4] as EscalationReason,
                  template: templates[i % 3],
                  ticketId: `T-${i % 7}`,
                  createdAt: t0 + i,
                }),
              ),
            );
          }
          return out;
        });
        return Promise.all(ids.map(async (id) => (await store.getQueueItem(id)) as QueueItem));
      }

      const filters: [string, QueueFilter, (item: QueueItem) => boolean][] = [
        ["no filter", {}, () => true],
        ["one status", { status: "open" }, (item) => item.status === "open"],
        [
          "a list of statuses",
          { status: ["open", "claimed"] },
          (item) => item.status === "open" || item.status === "claimed",
        ],
        ["reason", { reason: "limit_exceeded" }, (item) => item.reason === "limit_exceeded"],
        ["template", { template: "payment_release" }, (item) => item.template === "payment_release"],
        ["ticketId", { ticketId: "T-3" }, (item) => item.ticketId === "T-3"],
        [
          "everything at once",
          { status: ["open", "approved"], reason: "model_escalated", ticketId: "T-0" },
          (item) =>
            (item.status === "open" || item.status === "approved") &&
            item.reason === "model_escalated" &&
            item.ticketId === "T-0",
        ],
        ["nothing matches", { ticketId: "T-none" }, () => false],
      ];

      it.each(filters)("filters by %s, oldest first", async (_, filter, keep) => {
        const items = await seed(60);
        const expected = items.filter(keep).map((item) => item.id);
        const page = await store.listQueue({ ...filter, limit: 500 });
        expect(page.items.map((item) => item.id)).toEqual(expected);
        expect(page.nextCursor).toBeUndefined();
        // The same through small pages: no duplicates, no gaps.
        const pages = await allPages(store, filter, 4);
        expect(pages.flat().map((item) => item.id)).toEqual(expected);
      });

      it("pages with a cursor: full pages, then the rest, no duplicates or gaps", async () => {
        const items = await seed(23);
        const pages = await allPages(store, {}, 5);
        expect(pages.map((page) => page.length)).toEqual([5, 5, 5, 5, 3]);
        expect(pages.flat()).toEqual(items);
      });

      it("ends without an empty page when the last page is exactly full", async () => {
        const items = await seed(10);
        const pages = await allPages(store, {}, 5);
        expect(pages.map((page) => page.length)).toEqual([5, 5]);
        expect(pages.flat()).toEqual(items);
      });

      it("keeps paging correctly while items are added and closed between pages", async () => {
        const items = await seed(12);
        const first = await store.listQueue({ status: "open", limit: 2 });
        const openBefore = items.filter((item) => item.status === "open");
        expect(first.items).toEqual(openBefore.slice(0, 2));
        const added = await store.transaction((tx) => tx.addQueueItem(queueItem({ status: "open" })));
        const rest = await allPages(
          store,
          { status: "open", ...(first.nextCursor !== undefined ? { cursor: first.nextCursor } : {}) },
          2,
        );
        expect(rest.flat().map((item) => item.id)).toEqual([
          ...openBefore.slice(2).map((item) => item.id),
          added,
        ]);
      });

      it("defaults to pages of 50 and caps a page at 500", async () => {
        await seed(520);
        const first = await store.listQueue({});
        expect(first.items).toHaveLength(50);
        expect(first.nextCursor).toBeDefined();
        const big = await store.listQueue({ limit: 10_000 });
        expect(big.items).toHaveLength(500);
        expect(big.nextCursor).toBeDefined();
      });
    });

    describe("queryAudit", () => {
      it("streams in (at, id) order, whatever order the events were written in", async () => {
        const ats = [300, 100, 200, 200, 100, 300];
        const ids = await store.transaction(async (tx) => {
          const out: string[] = [];
          for (const at of ats) out.push(await tx.appendAudit(auditEvent({ at: t0 + at })));
          return out;
        });
        const expected = ats
          .map((at, index) => ({ at, index }))
          .sort((a, b) => a.at - b.at || a.index - b.index)
          .map(({ index }) => ids[index]);
        expect((await collect(store.queryAudit({}))).map((event) => event.id)).toEqual(expected);
      });

      it("returns events as written", async () => {
        const event = auditEvent({
          type: "queue",
          outcome: undefined,
          reason: "approval_required",
          key: "fl_k",
          actor: "ana@harbourside.example",
          data: { action: "approve", nested: { list: [1, "two", null, true] }, unicode: "Zoë ✓" },
        });
        const id = await store.transaction((tx) => tx.appendAudit(event));
        expect(await collect(store.queryAudit({}))).toEqual([{ ...event, id }]);
        const bare = auditEvent({
          ticketId: undefined,
          runId: undefined,
          template: undefined,
          outcome: undefined,
        });
        const bareId = await store.transaction((tx) => tx.appendAudit({ ...bare, at: t0 + 1 }));
        expect((await collect(store.queryAudit({ since: t0 + 1 })))[0]).toEqual({
          ...bare,
          at: t0 + 1,
          id: bareId,
        });
      });

      describe("filters and pages", () => {
        const n = 1203;
        let written: AuditEvent[];

        beforeEach(async () => {
          const order = shuffled(n);
          written = await store.transaction(async (tx) => {
            const out: AuditEvent[] = [];
            for (const i of order) {
              // Ties on `at` across page boundaries: three events per millisecond.
              const event = auditEvent({
                at: t0 + Math.floor(i / 3),
                type: i % 4 === 0 ? "delivery" : "decision",
                ticketId: `T-${i % 5}`,
                data: { i },
              });
              out.push({ ...event, id: await tx.appendAudit(event) });
            }
            return out;
          });
        });

        const expectedFor = (filter: AuditFilter) =>
          written
            .map((event, index) => ({ event, index }))
            .filter(
              ({ event }) =>
                (filter.since === undefined || event.at >= filter.since) &&
                (filter.until === undefined || event.at < filter.until) &&
                (filter.ticketId === undefined || event.ticketId === filter.ticketId) &&
                (filter.type === undefined || event.type === filter.type),
            )
            .sort((a, b) => a.event.at - b.event.at || a.index - b.index)
            .map(({ event }) => event.id);

        it.each<[string, AuditFilter]>([
          ["no filter (more than two pages)", {}],
          ["since, inclusive", { since: t0 + 100 }],
          ["until, exclusive", { until: t0 + 250 }],
          ["since and until", { since: t0 + 50, until: t0 + 300 }],
          ["ticketId", { ticketId: "T-2" }],
          ["type", { type: "delivery" }],
          ["everything at once", { since: t0 + 10, until: t0 + 390, ticketId: "T-1", type: "decision" }],
          ["an empty window", { since: t0 + 100, until: t0 + 100 }],
        ])("%s", async (_, filter) => {
          const expected = expectedFor(filter);
          const got = (await collect(store.queryAudit(filter))).map((event) => event.id);
          expect(got.length).toBe(expected.length);
          expect(got).toEqual(expected);
        });

        it("can stop early, and lets transactions run while a query is open", async () => {
          let seen = 0;
          for await (const event of store.queryAudit({})) {
            seen++;
            if (seen === 10) {
              await store.transaction((tx) => tx.appendAudit(auditEvent({ at: event.at - 1_000_000 })));
            }
            if (seen === 700) break;
          }
          expect(seen).toBe(700);
          expect((await collect(store.queryAudit({}))).length).toBe(n + 1);
        });
      });
    });

    describe("delivery status: receipts, event ids, suppressions", () => {
      deliveryStatusCases(() => store, { outboundRow, t0 });
    });

    describe("close", () => {
      it("resolves, and later transactions and claims are refused", async () => {
        await store.transaction((tx) => tx.appendAudit(auditEvent()));
        await store.close();
        await expect(store.transaction((tx) => tx.appendAudit(auditEvent()))).rejects.toThrow();
        await expect(store.claimDue({ now: t0, leaseUntil: t0 + 1, limit: 1 })).rejects.toThrow();
      });
    });
  });
}
