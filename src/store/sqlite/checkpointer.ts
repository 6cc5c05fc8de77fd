import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/** Checkpoints a database's WAL from a worker thread, so the event loop never waits for it. */
export interface Checkpointer {
  /** Notes one commit; every so many, starts a checkpoint unless one is running. */
  committed(): void;
  /** Ends the worker (after the checkpoint it may be running) and its connection. */
  close(): Promise<void>;
}

// The worker's own connection checkpoints PASSIVE: it never blocks the store's writers or readers, and
// copies what it can; the next writer restarts the WAL once all of it is in the database file. With
// synchronous=NORMAL, a checkpoint syncs the WAL before and the database after: here, off the loop.
const workerSource = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.module);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma("synchronous = NORMAL");
parentPort.on("message", (message) => {
  if (message === "close") {
    db.close();
    parentPort.close();
    return;
  }
  try {
    db.pragma("wal_checkpoint(PASSIVE)");
    parentPort.postMessage("done");
  } catch (error) {
    parentPort.postMessage(String((error && error.message) || error));
  }
});
`;

const requireHere = createRequire(import.meta.url);

/**
 * A checkpointer for `file`, its worker started at the first checkpoint (a store that commits little
 * never starts one). If the worker cannot run, `onFailure` is called once and checkpoints are left to
 * the store's connection (SQLite's automatic checkpoint), as without a checkpointer.
 */
export function walCheckpointer(file: string, onFailure: () => void, everyCommits = 16): Checkpointer {
  let worker: Worker | undefined;
  let exited: Promise<void> | undefined;
  let running = false;
  let failed = false;
  let commits = 0;
  const fail = () => {
    if (failed) return;
    failed = true;
    running = false;
    onFailure();
  };
  const start = (): Worker => {
    const started = new Worker(workerSource, {
      eval: true,
      workerData: { file, module: requireHere.resolve("better-sqlite3") },
    });
    // Checkpoints are housekeeping: the worker never keeps the process alive.
    started.unref();
    exited = new Promise((resolve) => started.once("exit", () => resolve()));
    started.on("message", () => {
      running = false;
    });
    started.on("error", fail);
    return started;
  };
  return {
    committed() {
      commits += 1;
      if (failed || running || commits < everyCommits) return;
      commits = 0;
      running = true;
      try {
        worker ??= start();
        worker.postMessage("checkpoint");
      } catch {
        fail();
      }
    },
    async close() {
      const stopping = worker;
      worker = undefined;
      if (stopping === undefined) return;
      // Held by the process while it stops: a caller awaiting close() must not find an empty event loop.
      stopping.ref();
      if (!failed) stopping.postMessage("close");
      await exited;
    },
  };
}
