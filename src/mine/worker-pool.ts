import type { Worker } from "node:worker_threads";
import type { ValueIndexOptions } from "./mask.js";
import type { LineProblem, ReadingDefinition, ReadLine } from "./read-line.js";
import { startWorker } from "./start-worker.js";

/** What a reading worker is started with. */
export interface ReaderSetup {
  readonly definition: ReadingDefinition;
  readonly options: Omit<ValueIndexOptions, "text">;
  /**
   * Lines read once and thrown away before the worker says it is ready: its code is compiled on them. Sent
   * as its first message, not with its setup, so the worker lets them go once read.
   */
  readonly warmUp?: readonly string[];
}

/** What a reading worker is sent: its warm-up lines first, then batches. */
export type ReaderRequest = { readonly warmUp: readonly string[] } | ReadRequest;

/** A batch of lines to read. */
export interface ReadRequest {
  readonly id: number;
  readonly lines: readonly (string | LineProblem)[];
}

/** A reading worker's answer: the batch read, in its order, or why reading it threw. */
export type ReadAnswer =
  | { readonly id: number; readonly read: readonly ReadLine[] }
  | { readonly id: number; readonly failed: string };

/** What a reading worker posts: an answer, or that it has loaded and warmed up. */
export type ReaderMessage = ReadAnswer | { readonly ready: true };

interface Pending {
  readonly resolve: (read: readonly ReadLine[]) => void;
  readonly reject: (error: Error) => void;
}

/** One worker thread and the batches it was given that it has not answered yet. */
interface Reader {
  readonly worker: Worker;
  readonly pending: Map<number, Pending>;
  ready: boolean;
}

/**
 * Worker threads that read batches of history lines ({@link readLine}). Batches go to the workers in
 * turn; each answer settles its own batch, so the caller takes them in the order it asked. A worker
 * that throws or exits fails its batches and every later one with an error saying so: no batch waits
 * on a worker that is gone.
 */
export class ReadingPool {
  readonly #readers: Reader[] = [];
  #next = 0;
  #id = 0;
  #broken: Error | undefined;
  #closed = false;

  /**
   * `heapMb`: the old-generation heap each worker may use; a worker past it ends, failing its batches. A
   * worker that cannot be started (its file left out of a bundle) leaves the pool broken, not the caller.
   */
  constructor(count: number, setup: ReaderSetup, heapMb?: number) {
    try {
      for (let at = 0; at < count; at++) this.#readers.push(this.#start(setup, heapMb));
    } catch (error) {
      this.#fail(
        new Error(`mining's line reader (a worker thread) could not be started: ${String(error)}`, {
          cause: error,
        }),
      );
    }
  }

  /** Whether a worker failed: every batch asked for from now on is failed at once. */
  get broken(): boolean {
    return this.#broken !== undefined;
  }

  /** Whether every worker has loaded and warmed up: a batch sent before waits behind that. */
  get ready(): boolean {
    return this.#readers.every((reader) => reader.ready);
  }

  /** Batches asked for and not answered yet. */
  get inFlight(): number {
    let count = 0;
    for (const reader of this.#readers) count += reader.pending.size;
    return count;
  }

  /** Reads a batch on the next worker in turn. */
  read(lines: readonly (string | LineProblem)[]): Promise<readonly ReadLine[]> {
    if (this.#broken !== undefined) return Promise.reject(this.#broken);
    const reader = this.#readers[this.#next] as Reader;
    this.#next = (this.#next + 1) % this.#readers.length;
    const id = this.#id++;
    const answer = new Promise<readonly ReadLine[]>((resolve, reject) => {
      reader.pending.set(id, { resolve, reject });
    });
    reader.worker.postMessage({ id, lines } satisfies ReaderRequest);
    return answer;
  }

  /** Ends every worker; batches still out are failed (their callers have stopped waiting). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#fail(new Error("mining's line readers were closed"));
    await Promise.all(this.#readers.map((reader) => reader.worker.terminate()));
  }

  #start(setup: ReaderSetup, heapMb: number | undefined): Reader {
    const { warmUp = [], ...kept } = setup;
    const reader: Reader = { worker: startReader(kept, heapMb), pending: new Map(), ready: false };
    reader.worker.postMessage({ warmUp } satisfies ReaderRequest);
    reader.worker.on("message", (answer: ReaderMessage) => {
      if ("ready" in answer) {
        reader.ready = true;
        return;
      }
      const pending = reader.pending.get(answer.id);
      if (pending === undefined) return;
      reader.pending.delete(answer.id);
      if ("read" in answer) pending.resolve(answer.read);
      else {
        this.#fail(new Error(`mining could not read a line: ${answer.failed}`));
        pending.reject(this.#broken as Error);
      }
    });
    reader.worker.on("error", (error) =>
      this.#fail(
        new Error(`mining's line reader (a worker thread) threw: ${error.message}`, { cause: error }),
      ),
    );
    reader.worker.on("messageerror", (error) =>
      this.#fail(new Error(`mining's line reader sent an answer that could not be read: ${error.message}`)),
    );
    reader.worker.on("exit", (code) => {
      if (!this.#closed)
        this.#fail(new Error(`mining's line reader (a worker thread) exited with code ${code}`));
    });
    return reader;
  }

  /** Fails every batch still out, and every later one, with the first error. */
  #fail(error: Error): void {
    this.#broken ??= error;
    for (const reader of this.#readers) {
      for (const pending of reader.pending.values()) pending.reject(this.#broken);
      reader.pending.clear();
    }
  }
}

/**
 * The young generation a worker with a bounded heap is given, in MB. V8 sizes it from the old generation,
 * so a 64 MB heap got one so small that the batches in flight outlived it: promoted, they filled the old
 * generation, and the worker ran a full collection every quarter of a second (62 in a 100,000-line
 * history, their marking on the threads the other work needs; 11 with this).
 */
const readerYoungMb = 16;

function startReader(setup: ReaderSetup, heapMb: number | undefined): Worker {
  const limits =
    heapMb === undefined
      ? {}
      : { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: Math.min(readerYoungMb, heapMb) };
  return startWorker("read-worker", setup, limits);
}
