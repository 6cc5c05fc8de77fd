import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from "node:worker_threads";
import type { Alternatives } from "./alternatives.js";
import { type GuessSetup, type PassRequest, Progress, type VerdictChunk } from "./merge-guesses.js";

/** How a helping thread is reached: what is posted to it, where its verdicts arrive, how it is ended. */
export interface HelperThread {
  /** Where the thread's verdicts arrive (read here synchronously, never listened to). */
  readonly verdicts: MessagePort;
  post(request: PassRequest): void;
  end(): void;
}

/**
 * When a merge asked for a helping thread starts one, and how (tests change these): only for many
 * clusters, as a thread takes a tenth of a second or more to start, and only with another core to run on.
 */
export const mergeHelperSettings: {
  fewestClusters: number;
  /** Starts the thread: by default {@link startHelperThread}. */
  start: (setup: Omit<GuessSetup, "port">) => HelperThread | undefined;
} = {
  fewestClusters: 2000,
  start: (setup) => startHelperThread(setup),
};

/**
 * A second thread telling a merge's verdicts a little ahead of it (see `tellVerdicts`), the merge taking a
 * verdict it finds told instead of telling it. A verdict is a pure function of the two clusters' lines,
 * so the result is the same whatever the thread guesses, or fails to tell: a thread that is slow, ends
 * or posts what cannot be read leaves the merge telling the verdicts itself. The merge never waits for
 * the thread.
 */
export class MergeHelper {
  readonly #thread: HelperThread;
  readonly #progress: Int32Array;
  #pass = 0;
  /** Per cluster of the pass, the chunk its verdicts are in and where they start, once told. */
  #chunks: (Float64Array | undefined)[] = [];
  #starts = new Int32Array(0);
  /** Per cluster of the pass, 1 once placed in another: shared with the thread, which guesses by it. */
  #joined = new Uint8Array(new SharedArrayBuffer(0));
  /** The cluster the verdicts were last read in for: each cluster reads them at most once. */
  #readFor = -1;

  private constructor(thread: HelperThread, progress: Int32Array) {
    this.#thread = thread;
    this.#progress = progress;
  }

  /**
   * A helper for a merge of this many clusters, or undefined when not `asked` for, when a second thread
   * would not pay (few clusters, one core) or when it could not be started.
   */
  static start(clusters: number, alternatives: Alternatives, asked: boolean): MergeHelper | undefined {
    if (!asked || clusters < mergeHelperSettings.fewestClusters || availableParallelism() < 2)
      return undefined;
    const progress = new SharedArrayBuffer(8);
    let thread: HelperThread | undefined;
    try {
      thread = mergeHelperSettings.start({ alternatives, progress });
    } catch {
      return undefined;
    }
    return thread === undefined ? undefined : new MergeHelper(thread, new Int32Array(progress));
  }

  /** Starts a pass: its clusters, in the pass's order, are sent to be told. */
  beginPass(
    identities: readonly (readonly string[])[],
    lines: readonly (readonly string[])[],
    few: Uint8Array,
    keep: boolean,
  ): void {
    this.#pass++;
    this.#chunks = new Array(identities.length);
    this.#starts = new Int32Array(identities.length);
    this.#readFor = -1;
    const joined = new SharedArrayBuffer(identities.length);
    this.#joined = new Uint8Array(joined);
    Atomics.store(this.#progress, Progress.placing, -1);
    Atomics.store(this.#progress, Progress.pass, this.#pass);
    try {
      this.#thread.post({ pass: this.#pass, identities, lines, few, joined, keep });
    } catch {
      // A thread that cannot be posted to tells nothing: the merge tells every verdict.
    }
  }

  /** The merge places this cluster now: the thread stops before it. */
  placing(at: number): void {
    Atomics.store(this.#progress, Progress.placing, at);
  }

  /** The merge placed this cluster in another. */
  joined(at: number): void {
    this.#joined[at] = 1;
  }

  /** The verdict told of a cluster on a candidate (both by their places; see `joinScore`), if told. */
  verdict(cluster: number, candidate: number): number | undefined {
    if (this.#chunks[cluster] === undefined && this.#readFor !== cluster) {
      this.#readFor = cluster;
      this.#read();
    }
    const chunk = this.#chunks[cluster];
    if (chunk === undefined) return undefined;
    const start = this.#starts[cluster] as number;
    const end = start + 2 + 2 * (chunk[start + 1] as number);
    for (let at = start + 2; at < end; at += 2) if (chunk[at] === candidate) return chunk[at + 1];
    return undefined;
  }

  /** Ends the thread (not waiting for it). */
  close(): void {
    Atomics.store(this.#progress, Progress.pass, -1);
    try {
      this.#thread.end();
    } catch {
      // Ending a thread that has already ended.
    }
  }

  /** Files the verdicts arrived for this pass; what is not a chunk of this pass's is dropped. */
  #read(): void {
    for (;;) {
      const received = receiveMessageOnPort(this.#thread.verdicts);
      if (received === undefined) return;
      const chunk = received.message as Partial<VerdictChunk> | null;
      if (chunk?.pass !== this.#pass || !(chunk.verdicts instanceof Float64Array)) continue;
      this.#file(chunk.verdicts);
    }
  }

  /** Files each cluster's verdicts in a chunk, up to the first entry that is not one. */
  #file(verdicts: Float64Array): void {
    const clusters = this.#chunks.length;
    for (let start = 0; start + 1 < verdicts.length; ) {
      const cluster = verdicts[start] as number;
      const count = verdicts[start + 1] as number;
      const end = start + 2 + 2 * count;
      if (
        !Number.isInteger(cluster) ||
        cluster < 0 ||
        cluster >= clusters ||
        !Number.isInteger(count) ||
        count < 0 ||
        end > verdicts.length
      )
        return;
      this.#chunks[cluster] = verdicts;
      this.#starts[cluster] = start;
      start = end;
    }
  }
}

/**
 * Starts the thread from the built merge-worker.js beside this file; from the sources (tests, tsx) that
 * file is TypeScript, which Node cannot run in a worker, so a one-line script loads it through jiti.
 * The thread is unreferenced: it never keeps the process alive.
 */
export function startHelperThread(setup: Omit<GuessSetup, "port">, script?: string): HelperThread {
  const { port1, port2 } = new MessageChannel();
  const workerData: GuessSetup = { alternatives: setup.alternatives, progress: setup.progress, port: port2 };
  const options = { workerData, transferList: [port2] };
  const built = new URL("./merge-worker.js", import.meta.url);
  let worker: Worker;
  if (script !== undefined) worker = new Worker(script, { eval: true, ...options });
  else if (existsSync(built)) worker = new Worker(built, options);
  else {
    const source = JSON.stringify(fileURLToPath(new URL("./merge-worker.ts", import.meta.url)));
    const jiti = JSON.stringify(createRequire(import.meta.url).resolve("jiti"));
    worker = new Worker(`require(${jiti}).createJiti(${source}).import(${source});`, {
      eval: true,
      ...options,
    });
  }
  worker.unref();
  port1.unref();
  // A thread that throws or exits tells nothing more; the merge tells what is left itself.
  worker.on("error", () => undefined);
  return {
    verdicts: port1,
    post: (request) => worker.postMessage(request),
    end: () => {
      port1.close();
      void worker.terminate();
    },
  };
}
