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
    const [result] = db.pragma("wal_checkpoint(PASSIVE)");
    parentPort.postMessage({ frames: result.log });
  } catch (error) {
    parentPort.postMessage(String((error && error.message) || error));
  }
});
`;

const requireHere = createRequire(import.meta.url);

// Commits between checkpoints: from 16, doubled or halved after each checkpoint to aim at about as many
// WAL frames a checkpoint as SQLite's own automatic one (1,000 pages). Small commits (one call at a time)
// would otherwise pay a checkpoint, and its sync of the database file, every few calls.
const targetFrames = 1000;
const fewestCommits = 16;
const mostCommits = 1024;

/** The commits to wait before the next checkpoint, given how many WAL frames the last one found. */
export function nextCheckpointInterval(commits: number, frames: number): number {
  if (frames < targetFrames / 2) return Math.min(commits * 2, mostCommits);
  if (frames > targetFrames * 2) return Math.max(Math.floor(commits / 2), fewestCommits);
  return commits;
}

/**
 * A checkpointer for `file`, its worker started at the first checkpoint (a store that commits little
 * never starts one). If the worker cannot run, `onFailure` is called once and checkpoints are left to
 * the store's connection (SQLite's automatic checkpoint), as without a checkpointer.
 */
export function walCheckpointer(file: string, onFailure: () => void): Checkpointer {
  let everyCommits = fewestCommits;
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
    started.on("message", (message: unknown) => {
      running = false;
      const frames = (message as { frames?: unknown } | null)?.frames;
      if (typeof frames === "number") everyCommits = nextCheckpointInterval(everyCommits, frames);
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
