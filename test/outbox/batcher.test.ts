/**
 * Group commit with two groups in the store: one group's statements run while the previous group's
 * commit syncs, results come back in order, and a failing group retries its jobs one by one. The store
 * is the test's own: each commit's sync is held until the test releases (or fails) it.
 */
import { describe, expect, it } from "vitest";
import { createBatcher } from "../../src/outbox/batcher.js";
import { memoryStore } from "../../src/store/memory.js";
import type { Store, StoreTransaction, TransactionHooks } from "../../src/store/store.js";
import { until, watch } from "../fixtures/settling.js";
import { auditEvent } from "../store/conformance.js";

/** A store that commits at once, tells its caller, and holds each commit's sync for the test. */
function heldSyncStore() {
  const log: string[] = [];
  const syncs: { release(): void; fail(error: unknown): void }[] = [];
  // Each commit's answer to whether the store may sync it on the event loop.
  const syncOnLoop: boolean[] = [];
  let chain: Promise<unknown> = Promise.resolve();
  const store = {
    name: "held",
    transaction: <T>(work: (tx: StoreTransaction) => Promise<T>, hooks?: TransactionHooks): Promise<T> => {
      const committed = chain.then(async () => {
        const tx = {
          appendAudit: async (event: { actor: string }) => event.actor,
        } as unknown as StoreTransaction;
        const result = await work(tx);
        log.push("commit");
        hooks?.committed?.();
        syncOnLoop.push(hooks?.syncOnLoop?.() === true);
        return result;
      });
      chain = committed.catch(() => undefined);
      return committed.then(
        (result) =>
          new Promise<T>((resolve, reject) => syncs.push({ release: () => resolve(result), fail: reject })),
      );
    },
  } as unknown as Store;
  return { store, log, syncs, syncOnLoop };
}

/** A job that notes when it runs and returns its name (or throws, for "bad…"). */
const job = (log: string[], name: string) => async (tx: StoreTransaction) => {
  log.push(`run ${name}`);
  if (name.startsWith("bad")) throw new Error(`${name} is bad`);
  return tx.appendAudit({ actor: name } as never);
};

describe("createBatcher", () => {
  it("runs the next group's statements while the previous group syncs; results still come back in order", async () => {
    const { store, log, syncs } = heldSyncStore();
    const batcher = createBatcher(store);
    const order: string[] = [];
    const a = batcher.run(job(log, "a")).then((value) => order.push(value));
    const b = batcher.run(job(log, "b")).then((value) => order.push(value));
    await until(() => syncs.length === 1);
    expect(log).toEqual(["run a", "run b", "commit"]);
    const c = batcher.run(job(log, "c")).then((value) => order.push(value));
    await until(() => syncs.length === 2);
    expect(log, "c's group ran while the first group's sync was held").toEqual([
      "run a",
      "run b",
      "commit",
      "run c",
      "commit",
    ]);
    // The second sync finishes first: c still waits for a and b.
    syncs[1]?.release();
    await until(() => order.length > 0);
    expect(order).toEqual([]);
    syncs[0]?.release();
    await Promise.all([a, b, c]);
    expect(order).toEqual(["a", "b", "c"]);
  });

  it("lets the store sync on the event loop only a group of one call with nothing else waiting", async () => {
    const { store, log, syncs, syncOnLoop } = heldSyncStore();
    const batcher = createBatcher(store);
    const releaseAll = () => {
      for (const sync of syncs) sync.release();
    };
    await Promise.all([batcher.run(job(log, "alone")), until(() => syncs.length === 1).then(releaseAll)]);
    const pair = [batcher.run(job(log, "a")), batcher.run(job(log, "b"))];
    await until(() => syncs.length === 2);
    releaseAll();
    await Promise.all(pair);
    // A call alone in its group, but another call joins the queue while it runs.
    let joined: Promise<string> | undefined;
    const first = batcher.run(async (tx) => {
      joined = batcher.run(job(log, "joined"));
      return job(log, "first")(tx);
    });
    await until(() => syncs.length === 4);
    releaseAll();
    await Promise.all([first, joined]);
    expect(log.filter((entry) => entry.startsWith("run"))).toEqual([
      "run alone",
      "run a",
      "run b",
      "run first",
      "run joined",
    ]);
    expect(syncOnLoop).toEqual([true, false, false, true]);
  });

  it("keeps the sync off the event loop when the caller says other work of its own is under way", async () => {
    const { store, log, syncs, syncOnLoop } = heldSyncStore();
    let alone = false;
    const batcher = createBatcher(store, { alone: () => alone });
    const releaseAll = () => {
      for (const sync of syncs) sync.release();
    };
    await Promise.all([batcher.run(job(log, "busy")), until(() => syncs.length === 1).then(releaseAll)]);
    alone = true;
    await Promise.all([batcher.run(job(log, "alone")), until(() => syncs.length === 2).then(releaseAll)]);
    expect(syncOnLoop).toEqual([false, true]);
  });

  it("has at most two groups in the store: a third waits until the first has settled", async () => {
    const { store, log, syncs } = heldSyncStore();
    const batcher = createBatcher(store);
    const first = batcher.run(job(log, "a"));
    await until(() => syncs.length === 1);
    const second = batcher.run(job(log, "b"));
    await until(() => syncs.length === 2);
    const third = batcher.run(job(log, "c"));
    await until(() => log.includes("run c"));
    expect(log).not.toContain("run c");
    syncs[0]?.release();
    await until(() => syncs.length === 3);
    expect(log.at(-2)).toBe("run c");
    syncs[1]?.release();
    syncs[2]?.release();
    expect(await Promise.all([first, second, third])).toEqual(["a", "b", "c"]);
  });

  it("retries a failed group's jobs one by one, before the next group runs: the bad job fails alone", async () => {
    const { store, log, syncs } = heldSyncStore();
    const batcher = createBatcher(store);
    const results = ["ok1", "bad", "ok2"].map((name) => watch(batcher.run(job(log, name))));
    await until(() => syncs.length === 1);
    // Handed in while the group is retried: runs only after the retries.
    const later = watch(batcher.run(job(log, "later")));
    syncs[0]?.release();
    await until(() => syncs.length === 2);
    syncs[1]?.release();
    await until(() => syncs.length === 3);
    syncs[2]?.release();
    await until(() => syncs.length === 4);
    syncs[3]?.release();
    await until(() => later.settled);
    expect(log).toEqual([
      "run ok1",
      "run bad",
      "run ok1",
      "commit",
      "run bad",
      "run ok2",
      "commit",
      "run later",
      "commit",
    ]);
    expect(results.map((state) => state.value ?? (state.error as Error).message)).toEqual([
      "ok1",
      "bad is bad",
      "ok2",
    ]);
    expect(later.value).toBe("later");
  });

  it("a retried group hands its results back after the previous group's, however its retries' syncs end", async () => {
    const { store, log, syncs } = heldSyncStore();
    const batcher = createBatcher(store);
    const first = watch(batcher.run(job(log, "first")));
    await until(() => syncs.length === 1);
    // The next group fails and retries its jobs while the first group's sync is still held.
    const retried = ["bad", "ok"].map((name) => watch(batcher.run(job(log, name))));
    await until(() => syncs.length === 2);
    syncs[1]?.release();
    await until(() => retried.some((state) => state.settled));
    expect(
      retried.some((state) => state.settled),
      "nothing of the second group before the first",
    ).toBe(false);
    syncs[0]?.release();
    await until(() => retried.every((state) => state.settled));
    expect(first.value).toBe("first");
    expect(retried.map((state) => state.value ?? (state.error as Error).message)).toEqual([
      "bad is bad",
      "ok",
    ]);
  });

  it("does not run a group's jobs again when its commit could not be made durable", async () => {
    const { store, log, syncs } = heldSyncStore();
    const batcher = createBatcher(store);
    const results = ["a", "b"].map((name) => watch(batcher.run(job(log, name))));
    await until(() => syncs.length === 1);
    syncs[0]?.fail(new Error("EIO"));
    await until(() => results.every((state) => state.settled));
    expect(results.map((state) => (state.error as Error).message)).toEqual(["EIO", "EIO"]);
    expect(log).toEqual(["run a", "run b", "commit"]);
  });

  it("runCommitted hands the result back at commit; its durability, and idle(), wait for the sync", async () => {
    const { store, log, syncs } = heldSyncStore();
    const batcher = createBatcher(store);
    const marked = watch(batcher.runCommitted(job(log, "mark")));
    const decided = watch(batcher.run(job(log, "decision")));
    await until(() => marked.settled);
    expect(marked.value?.value).toBe("mark");
    expect(decided.settled).toBe(false);
    const durable = watch(marked.value?.durable as Promise<void>);
    const idle = watch(batcher.idle());
    await until(() => durable.settled || idle.settled);
    expect([durable.settled, idle.settled]).toEqual([false, false]);
    syncs[0]?.release();
    await until(() => durable.settled && idle.settled && decided.settled);
    expect(durable.error).toBeUndefined();
    expect(decided.value).toBe("decision");
  });

  it("runCommitted: a failed sync rejects its durability, not the result already handed back", async () => {
    const { store, log, syncs } = heldSyncStore();
    const batcher = createBatcher(store);
    const marked = await (async () => {
      const pending = batcher.runCommitted(job(log, "mark"));
      await until(() => syncs.length === 1);
      return pending;
    })();
    syncs[0]?.fail(new Error("EIO"));
    await expect(marked.durable).rejects.toThrow("EIO");
    await batcher.idle();
  });

  it("on a store that commits durably in one step (memory), runCommitted resolves once committed, already durable", async () => {
    const batcher = createBatcher(memoryStore());
    const marked = await batcher.runCommitted((tx) => tx.appendAudit(auditEvent()));
    expect(marked.value).toBe("1");
    await expect(marked.durable).resolves.toBeUndefined();
    await batcher.idle();
  });
});
