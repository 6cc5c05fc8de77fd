import type { Store, StoreTransaction } from "../store/store.js";

type Job = {
  readonly work: (tx: StoreTransaction) => Promise<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
};

/** Runs transactional work in groups: many callers, one commit. */
export interface Batcher {
  run<T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T>;
  /** Resolves when every job handed in so far has committed or failed. */
  idle(): Promise<void>;
}

/**
 * Group commit: work handed in during one turn of the event loop runs in one transaction, so a durable
 * commit (an fsync) is paid once per group, not once per call. Each caller's promise resolves only after
 * its group committed. If a group fails, its jobs are retried one by one, so one bad job fails alone.
 */
export function createBatcher(store: Store, maxBatch = 256): Batcher {
  const pending: Job[] = [];
  let draining: Promise<void> | undefined;

  const drain = async (): Promise<void> => {
    // Let every caller that is ready in this turn join the group.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (pending.length > 0) {
      const group = pending.splice(0, maxBatch);
      try {
        const results = await store.transaction(async (tx) => {
          const out: unknown[] = [];
          for (const job of group) out.push(await job.work(tx));
          return out;
        });
        for (const [index, job] of group.entries()) job.resolve(results[index]);
      } catch {
        for (const job of group) {
          try {
            job.resolve(await store.transaction((tx) => job.work(tx)));
          } catch (error) {
            job.reject(error);
          }
        }
      }
    }
  };

  const start = () => {
    draining ??= drain().finally(() => {
      draining = undefined;
      if (pending.length > 0) start();
    });
  };

  return {
    run<T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        pending.push({ work, resolve: resolve as (value: unknown) => void, reject });
        start();
      });
    },
    async idle() {
      while (draining !== undefined) await draining;
    },
  };
}
