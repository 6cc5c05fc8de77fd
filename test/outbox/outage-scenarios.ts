/**
 * Outages at each step of handle(), flush() and an approval, for any store that can really be made
 * unavailable (a SQLite file locked by another process, a Postgres server stopped). A receiver counts
 * deliveries per idempotency key; each scenario checks what the call said was written against what the
 * store holds, and that no key reaches the receiver twice.
 *
 * An outage lasts until an event ends it, never a fixed time: the failed call the scenario waits for,
 * or, where the call must ride the outage out, the store giving up on one of its calls (its own retries
 * spent), so the outbox's retries are what carry the call over.
 */
import { afterEach, expect, it } from "vitest";
import { isStoreUnavailable } from "../../src/core/errors.js";
import {
  type Catalog,
  createOutbox,
  type OutboxOptions,
  type Store,
  StoreUnavailableError,
  type Transport,
} from "../../src/index.js";
import { loadTicket, propertyCatalog, proposal } from "../fixtures/property.js";
import { message, outboundRow } from "../store/conformance.js";
import { auditOf, rejectionOf } from "./harness.js";

/** An outage under way. */
export interface Outage {
  /** Ends the outage; resolves once the store can be reached again. */
  end(): Promise<void>;
}

/** A store that can be made unavailable for real. */
export interface OutageTarget {
  /** A fresh store (its own file or schema) for one scenario. */
  store(): Promise<Store>;
  /** Makes the store unavailable until the outage is ended; resolves once it is (the outage has begun). */
  outage(): Promise<Outage>;
}

/**
 * `store` as the outbox sees it, and a promise that resolves the first time one of its calls fails with
 * a StoreUnavailableError: the store gave up (its own retry window, or busy timeout, spent).
 */
function watched(store: Store): { readonly store: Store; readonly gaveUp: Promise<void> } {
  let gaveUp: () => void = () => undefined;
  const given = new Promise<void>((resolve) => {
    gaveUp = resolve;
  });
  const proxy = new Proxy(store, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        const result: unknown = value.apply(target, args);
        if (result instanceof Promise)
          result.catch((error: unknown) => {
            if (isStoreUnavailable(error)) gaveUp();
          });
        return result;
      };
    },
  });
  return { store: proxy, gaveUp: given };
}

/** Deliveries per key, as a provider on the other side would count them. */
function receiver() {
  const counts = new Map<string, number>();
  let beforeReturning: (() => Promise<void>) | undefined;
  const transport: Transport = {
    name: "receiver",
    deliver: async (_message, { key }) => {
      counts.set(key, (counts.get(key) ?? 0) + 1);
      const hook = beforeReturning;
      beforeReturning = undefined;
      await hook?.();
      return { id: `receipt-${key.slice(0, 12)}` };
    },
  };
  return {
    transport,
    counts,
    total: () => [...counts.values()].reduce((sum, n) => sum + n, 0),
    /** Runs `work` after the next delivery reached the receiver, before the transport returns. */
    afterNextDelivery(work: () => Promise<void>) {
      beforeReturning = work;
    },
  };
}

type Schemas = typeof propertyCatalog extends Catalog<infer S> ? S : never;
type Options = Partial<OutboxOptions<Schemas>>;

/** Registers the outage scenarios for `target` in the surrounding describe block. */
export function outageScenarios(target: OutageTarget, timeoutMs: number): void {
  const outboxOn = async (store: Store, rx: ReturnType<typeof receiver>, options: Options = {}) =>
    createOutbox({
      catalog: propertyCatalog,
      load: loadTicket,
      store,
      transports: { email: rx.transport },
      retry: { attempts: 1 },
      ...options,
    });
  // Far longer than any outage here lasts (the store giving up once, then coming back): the outbox
  // holds a delivered outcome and retries recording it until the store returns.
  const recordRetryMs = 20_000;

  // The outage of the running scenario, ended after it whatever happened, so one failed scenario does
  // not leave the store out of reach for the next.
  let current: Promise<Outage> | undefined;
  const begin = (): Promise<Outage> => {
    let ending: Promise<void> | undefined;
    const outage = target.outage().then((started) => ({ end: () => (ending ??= started.end()) }));
    current = outage;
    return outage;
  };
  afterEach(async () => {
    const outage = current;
    current = undefined;
    await (await outage?.catch(() => undefined))?.end();
  });
  /**
   * Begins an outage (resolving once it has begun) that ends once the store has given up on a call;
   * `ended` resolves when the store is back, so it resolving shows the outage outlasted the store's
   * own retries.
   */
  const untilGivenUp = async (gaveUp: Promise<void>): Promise<{ ended: Promise<void> }> => {
    const outage = await begin();
    const ended = gaveUp.then(() => outage.end());
    ended.catch(() => undefined);
    return { ended };
  };

  it(
    "an outage while handle() writes its decision: it fails saying nothing was written or sent; the retry sends once",
    async () => {
      const store = await target.store();
      const rx = receiver();
      let outage: Promise<Outage> | undefined;
      const outbox = await outboxOn(store, rx, {
        load: async (ticketId: string) => {
          outage ??= begin();
          await outage;
          return loadTicket(ticketId);
        },
      });
      const input = { ticketId: "T-1", output: proposal("T-1"), runId: "r1" };
      const error = await rejectionOf(outbox.handle(input));
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect(error).toMatchObject({
        code: "store_unavailable",
        retryable: true,
        committed: false,
        writes: { decision: "not_written", delivery: "not_attempted", outcome: "not_applicable" },
      });
      expect((error as Error).message).toMatch(/the decision was not written; no message was sent/);
      expect(rx.total()).toBe(0);
      await (await outage)?.end();
      const result = await outbox.handle(input);
      expect(result).toMatchObject({ duplicate: false, delivery: { status: "delivered" } });
      expect([...rx.counts.values()]).toEqual([1]);
      await outbox.close();
    },
    timeoutMs,
  );

  it(
    "an outage after the transport delivered, shorter than recordRetryMs: the outcome is kept and recorded when the store returns",
    async () => {
      const store = await target.store();
      const watch = watched(store);
      const rx = receiver();
      const outbox = await outboxOn(watch.store, rx, { recordRetryMs });
      let ended: Promise<void> | undefined;
      rx.afterNextDelivery(async () => {
        ({ ended } = await untilGivenUp(watch.gaveUp));
      });
      const result = await outbox.handle({ ticketId: "T-2", output: proposal("T-2"), runId: "r2" });
      expect(ended).toBeDefined();
      await ended;
      expect(result).toMatchObject({ duplicate: false, delivery: { status: "delivered", attempts: 1 } });
      expect(await store.getOutbound(result.outboundId as string)).toMatchObject({
        status: "delivered",
        leaseUntil: undefined,
      });
      const deliveries = await auditOf(outbox, { type: "delivery" });
      expect(deliveries.map((event) => event.data.status)).toEqual(["delivered"]);
      expect([...rx.counts.values()]).toEqual([1]);
      await outbox.close();
    },
    timeoutMs,
  );

  it(
    "an outage after the transport delivered, longer than recordRetryMs: the error says delivered and not recorded; no retry or flush sends it again",
    async () => {
      const store = await target.store();
      const rx = receiver();
      let now = Date.now();
      const outbox = await outboxOn(store, rx, {
        recordRetryMs: 100,
        leaseMs: 60_000,
        clock: () => now,
      });
      let outage: Outage | undefined;
      rx.afterNextDelivery(async () => {
        outage = await begin();
      });
      const input = { ticketId: "T-3", output: proposal("T-3"), runId: "r3" };
      const error = await rejectionOf(outbox.handle(input));
      expect(error).toBeInstanceOf(StoreUnavailableError);
      const writes = (error as StoreUnavailableError).writes;
      expect(error).toMatchObject({
        code: "store_unavailable",
        retryable: true,
        committed: true,
        writes: { decision: "written", delivery: "delivered", outcome: "not_written" },
      });
      expect(writes?.receiptId).toMatch(/^receipt-/);
      // The receipt is the provider's text: the caller reads it from writes, the message does not repeat it.
      expect((error as Error).message).not.toContain(writes?.receiptId);
      expect((error as Error).message).not.toMatch(/nothing was written/);
      expect((error as Error).message).toMatch(/the message was delivered .*not recorded/);
      expect(outage).toBeDefined();
      await outage?.end();

      // The row is still held, delivering: a retry of the call is a duplicate and sends nothing.
      const row = await store.getOutbound(writes?.outboundId as string);
      expect(row).toMatchObject({ status: "delivering", key: writes?.key });
      const again = await outbox.handle(input);
      expect(again).toMatchObject({
        duplicate: true,
        auditId: writes?.auditId,
        delivery: { status: "delivering" },
      });
      expect(await outbox.flush()).toEqual({ delivered: 0, failed: 0 });
      // Once its lease ran out, flush() hands it to a person as in doubt, and sends nothing.
      now += 60_000;
      expect(await outbox.flush()).toEqual({ delivered: 0, failed: 1 });
      const [item] = (await outbox.queue.list({ status: "open", reason: "delivery_failed" })).items;
      expect(item).toMatchObject({ key: writes?.key, outboundId: writes?.outboundId });
      expect(item?.detail).toMatch(/^delivery in doubt/);
      expect([...rx.counts.values()]).toEqual([1]);
      await outbox.close();
    },
    timeoutMs,
  );

  it(
    "an outage as flush() claims: it fails saying nothing was written or sent; the next flush delivers once",
    async () => {
      const store = await target.store();
      await store.transaction((tx) =>
        tx.addOutbound(outboundRow({ key: "fl_outage_claim", message: message(1) })),
      );
      const rx = receiver();
      const outbox = await outboxOn(store, rx);
      const outage = await begin();
      const error = await rejectionOf(outbox.flush());
      expect(error).toMatchObject({
        code: "store_unavailable",
        committed: false,
        writes: { decision: "not_written", delivery: "not_attempted" },
      });
      expect(rx.total()).toBe(0);
      await outage.end();
      expect(await outbox.flush()).toEqual({ delivered: 1, failed: 0 });
      expect(await outbox.flush()).toEqual({ delivered: 0, failed: 0 });
      expect([...rx.counts]).toEqual([["fl_outage_claim", 1]]);
      await outbox.close();
    },
    timeoutMs,
  );

  it(
    "an outage after flush() delivered: the outcome is recorded when the store returns, once",
    async () => {
      const store = await target.store();
      const id = await store.transaction((tx) =>
        tx.addOutbound(outboundRow({ key: "fl_outage_settle", message: message(2) })),
      );
      const watch = watched(store);
      const rx = receiver();
      const outbox = await outboxOn(watch.store, rx, { recordRetryMs });
      let ended: Promise<void> | undefined;
      rx.afterNextDelivery(async () => {
        ({ ended } = await untilGivenUp(watch.gaveUp));
      });
      expect(await outbox.flush()).toEqual({ delivered: 1, failed: 0 });
      expect(ended).toBeDefined();
      await ended;
      expect(await store.getOutbound(id)).toMatchObject({ status: "delivered" });
      expect(await outbox.flush()).toEqual({ delivered: 0, failed: 0 });
      expect([...rx.counts]).toEqual([["fl_outage_settle", 1]]);
      await outbox.close();
    },
    timeoutMs,
  );

  it(
    "an outage as an approval is written: it fails saying nothing was written or sent; approving again sends once",
    async () => {
      const store = await target.store();
      const rx = receiver();
      const outbox = await outboxOn(store, rx);
      const result = await outbox.handle({
        ticketId: "T-5",
        output: proposal("T-5", "payment_release"),
        runId: "r5",
      });
      const outage = await begin();
      const error = await rejectionOf(outbox.queue.approve(result.queueItemId as string, { by: "ana" }));
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect(error).toMatchObject({
        committed: false,
        writes: { decision: "not_written", delivery: "not_attempted" },
      });
      expect(rx.total()).toBe(0);
      await outage.end();
      const approval = await outbox.queue.approve(result.queueItemId as string, { by: "ana" });
      expect(approval).toMatchObject({ approvedNow: true, outbound: { status: "delivered" } });
      expect([...rx.counts.values()]).toEqual([1]);
      await outbox.close();
    },
    timeoutMs,
  );

  it(
    "an outage after an approval's delivery: recorded when the store returns; approving again sends nothing",
    async () => {
      const store = await target.store();
      const watch = watched(store);
      const rx = receiver();
      const outbox = await outboxOn(watch.store, rx, { recordRetryMs });
      const result = await outbox.handle({
        ticketId: "T-4",
        output: proposal("T-4", "payment_release"),
        runId: "r4",
      });
      expect(rx.total()).toBe(0);
      let ended: Promise<void> | undefined;
      rx.afterNextDelivery(async () => {
        ({ ended } = await untilGivenUp(watch.gaveUp));
      });
      const approval = await outbox.queue.approve(result.queueItemId as string, { by: "ana" });
      expect(approval).toMatchObject({ approvedNow: true, outbound: { status: "delivered" } });
      expect(ended).toBeDefined();
      await ended;
      const again = await outbox.queue.approve(result.queueItemId as string, { by: "ana" });
      expect(again.approvedNow).toBe(false);
      expect(await outbox.flush()).toEqual({ delivered: 0, failed: 0 });
      expect([...rx.counts.values()]).toEqual([1]);
      await outbox.close();
    },
    timeoutMs,
  );
}
