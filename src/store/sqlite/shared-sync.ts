import { type Deferred, deferred } from "../../core/deferred.js";

/** One sync to disk shared by every caller waiting for it (group commit's second half). */
export interface SharedSync {
  /**
   * Resolves once a sync that started after this call has completed, so whatever was written before
   * the call is on disk; rejects with that sync's error.
   */
  request(): Promise<void>;
  /** Resolves once no sync is running or waiting to start. */
  drained(): Promise<void>;
}

/**
 * Shares `sync` among callers. A sync serves every caller that asked before it started; callers that
 * ask while one runs wait for the next, which starts when the running one ends and serves them all. So
 * at most one sync runs at a time, one more waits, and no caller is served by a sync that started
 * before it asked (which could have missed its writes).
 */
export function sharedSync(sync: () => Promise<void>): SharedSync {
  let running = false;
  // The callers of the next sync, sharing one promise: no allocation per caller.
  let next: Deferred | undefined;
  let idle: Deferred | undefined;

  const start = () => {
    const served = next as Deferred;
    next = undefined;
    running = true;
    let syncing: Promise<void>;
    try {
      syncing = sync();
    } catch (error) {
      syncing = Promise.reject(error);
    }
    syncing.then(served.resolve, served.reject).finally(() => {
      running = false;
      if (next !== undefined) start();
      else if (idle !== undefined) {
        idle.resolve();
        idle = undefined;
      }
    });
  };

  return {
    request() {
      next ??= deferred();
      const { promise } = next;
      if (!running) start();
      return promise;
    },
    drained() {
      if (!running && next === undefined) return Promise.resolve();
      idle ??= deferred();
      return idle.promise;
    },
  };
}
