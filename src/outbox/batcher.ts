import { type Deferred, deferred } from "../core/deferred.js";
import { merged } from "../core/merged.js";
import type { Store, StoreTransaction } from "../store/store.js";

type Job = {
  readonly work: (tx: StoreTransaction) => Promise<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
  /** Resolved at commit with the result and a promise of durability (see Batcher.runCommitted). */
  readonly atCommit: boolean;
};

/** A result handed back at commit, before the commit is known to be on disk. */
export interface Committed<T> {
  readonly value: T;
  /** Settles once the commit is on disk; rejects if it could not be made so. Never unhandled. */
  readonly durable: Promise<void>;
}

/** Runs transactional work in groups: many callers, one commit. */
export interface Batcher {
  /** Resolves with `work`'s result once its group's commit is durable. */
  run<T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T>;
  /**
   * Resolves as soon as `work`'s group has committed (every later transaction sees it), with a promise
   * of its durability: on a store that syncs after committing (SQLite's default), without waiting for
   * the sync. Failures before the commit reject, as with `run`.
   */
  runCommitted<T>(work: (tx: StoreTransaction) => Promise<T>): Promise<Committed<T>>;
  /** Resolves when every job handed in so far has committed (durably) or failed. */
  idle(): Promise<void>;
}

const durableAlready = Promise.resolve();

export interface BatcherOptions {
  /** The most jobs one group takes. @default 256 */
  readonly maxBatch?: number;
  /**
   * Whether the caller has no other work in progress (the outbox: no other call under way), so that a
   * group of one job, with nothing else queued, may have its sync run on the event loop. Under load the
   * loop has requests to parse and decisions to make while a sync runs in the thread pool; one call at a
   * time it has nothing, and a sync on the loop costs less than the hand-off. @default () => true
   */
  readonly alone?: () => boolean;
}

/**
 * Group commit: work handed in during one turn of the event loop runs in one transaction, so a durable
 * commit (an fsync) is paid once per group, not once per call. Each caller's promise resolves only after
 * its group committed durably, groups in the order they formed. If a group fails before it commits, its
 * jobs are retried one by one, so one bad job fails alone.
 *
 * Two groups may be in the store at once: on a store that tells when it has committed (see
 * TransactionHooks), the next group's statements run while the previous group's commit syncs. A group's
 * statements never start before the previous group has committed or finished its retries, so commits
 * keep the order the jobs came in.
 */
export function createBatcher(store: Store, options: BatcherOptions = {}): Batcher {
  const { maxBatch = 256, alone = () => true } = options;
  const pending: Job[] = [];
  const inStore = new Set<Promise<void>>();
  // A group is running its statements (or retrying its jobs): the next one waits for its commit.
  let beforeCommit = false;
  let turnScheduled = false;
  // The previous group's settling: each group hands its results back after it, in order.
  let previous: Promise<void> = durableAlready;

  const schedule = () => {
    if (turnScheduled || beforeCommit || inStore.size >= 2 || pending.length === 0) return;
    turnScheduled = true;
    // Let every caller that is ready in this turn join the group.
    setImmediate(startGroup);
  };

  const startGroup = () => {
    turnScheduled = false;
    if (beforeCommit || inStore.size >= 2 || pending.length === 0) return;
    const group = pending.splice(0, maxBatch);
    beforeCommit = true;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      beforeCommit = false;
      schedule();
    };
    const turn = previous;
    const settled: Promise<void> = runGroup(group, release, turn).finally(() => {
      release();
      inStore.delete(settled);
      schedule();
    });
    previous = settled;
    inStore.add(settled);
  };

  /** Runs a group; never rejects: every job is resolved or rejected. */
  const runGroup = async (group: Job[], release: () => void, turn: Promise<void>): Promise<void> => {
    const results: unknown[] = [];
    let committed = false;
    let durable: Deferred | undefined;
    const atCommit = () => {
      committed = true;
      if (group.some((job) => job.atCommit)) {
        durable = deferred();
        // Its holders may not be listening when it fails; they see the failure when they do.
        durable.promise.catch(noop);
        settleAtCommit(group, results, durable.promise);
      }
      release();
    };
    try {
      await store.transaction(
        async (tx) => {
          // A store may run the work again (Postgres, after a stale read): results are those of the last run.
          results.length = 0;
          for (const job of group) results.push(await job.work(tx));
        },
        // One call at a time: a sync on the event loop costs less than handing it to the thread pool.
        { committed: atCommit, syncOnLoop: () => group.length === 1 && pending.length === 0 && alone() },
      );
    } catch (error) {
      if (committed) {
        // Committed, then the sync failed: running the jobs again would write them twice.
        durable?.reject(error);
        await turn;
        for (const job of group) if (!job.atCommit) job.reject(error);
        return;
      }
      if (group.length === 1) {
        await turn;
        (group[0] as Job).reject(error);
        return;
      }
      // The retries run now; each hands its job back after the previous group's, as the group would have.
      const afterTurn = group.map(
        (job): Job =>
          merged(job, {
            resolve: (value: unknown) => void turn.then(() => job.resolve(value)),
            reject: (reason: unknown) => void turn.then(() => job.reject(reason)),
          }),
      );
      for (const job of afterTurn) await runGroup([job], noop, durableAlready);
      await turn;
      return;
    }
    if (!committed) settleAtCommit(group, results, durableAlready);
    durable?.resolve();
    await turn;
    // Index loops: `entries()` makes an array a job.
    for (let index = 0; index < group.length; index++) {
      const job = group[index] as Job;
      if (!job.atCommit) job.resolve(results[index]);
    }
  };

  const enqueue = (job: Job) => {
    pending.push(job);
    schedule();
  };

  return {
    run<T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        enqueue({ work, resolve: resolve as (value: unknown) => void, reject, atCommit: false });
      });
    },
    runCommitted<T>(work: (tx: StoreTransaction) => Promise<T>): Promise<Committed<T>> {
      return new Promise<Committed<T>>((resolve, reject) => {
        enqueue({ work, resolve: resolve as (value: unknown) => void, reject, atCommit: true });
      });
    },
    async idle() {
      for (;;) {
        if (inStore.size > 0) await Promise.all(inStore);
        else if (pending.length > 0 || turnScheduled) await new Promise((resolve) => setImmediate(resolve));
        else return;
      }
    },
  };
}

/** Hands the jobs that asked for it their result at commit, with the group's durability. */
function settleAtCommit(group: readonly Job[], results: readonly unknown[], durable: Promise<void>): void {
  for (let index = 0; index < group.length; index++) {
    const job = group[index] as Job;
    if (job.atCommit) job.resolve({ value: results[index], durable } satisfies Committed<unknown>);
  }
}

function noop(): void {}
