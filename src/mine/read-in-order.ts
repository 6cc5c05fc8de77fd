import { availableParallelism } from "node:os";
import type { RecordsDefinition } from "../core/definition/define-records.js";
import type { ValueIndexOptions } from "./mask.js";
import { type LineProblem, type ReadLine, readingDefinition, readLine } from "./read-line.js";
import { WarmUpLines } from "./warm-up-lines.js";
import { ReadingPool } from "./worker-pool.js";

/** Lines of a history, read, in the order they came. */
export interface ReadBatch {
  /** The line number (from 1) of the first line. */
  readonly first: number;
  readonly lines: readonly (string | LineProblem)[];
  /** What each line was read as, in the same order. */
  readonly read: readonly ReadLine[];
}

/** Options of {@link readInOrder}. */
export interface ReadInOrderOptions extends Omit<ValueIndexOptions, "text"> {
  /** Worker threads reading lines; 0 reads them all on this thread. @default see {@link defaultWorkers} */
  readonly workers?: number;
  /** The heap each worker may hold, in MB. @default {@link readerHeapMb} */
  readonly readerHeapMb?: number;
}

/**
 * Lines one message to a worker holds: many enough to cost little to send, few enough that the lines and
 * their readings waiting in the queue die young (at 256, most were promoted to the old generation and
 * collected there, which let the heap grow to three times what the clusters hold).
 */
const batchSize = 32;
/**
 * Lines read on this thread before workers start by default: a short history is read before a worker
 * would be. The workers are given them to read first, so they come warm to their first batch (a cold
 * worker took 0.2 s for its first and held up the batches after it, which are clustered in order).
 */
export const readAloneFor = 1024;
/** Batches each worker is given ahead: one being read, the next ones waiting so the worker never idles. */
const aheadPerWorker = 3;
/** Batches read and not yet clustered, besides those ahead on workers: what bounds memory. */
const readAhead = 4;
/**
 * The old-generation heap a worker may use, in MB. A worker holds a few batches, not the history: a small
 * heap makes it collect often, so it does not hold hundreds of MB of garbage beside the clusters (a
 * default heap took the process's peak from 225 to 450 MB at 100,000 messages). A batch that needs more
 * ends the worker, and the rest are read on the calling thread.
 */
export const readerHeapMb = 64;

/** Workers started once a history proves long: every core but the one clustering, and at least one. */
export function defaultWorkers(): number {
  return Math.max(1, availableParallelism() - 1);
}

interface Queued {
  readonly first: number;
  readonly lines: readonly (string | LineProblem)[];
  read: readonly ReadLine[] | undefined;
  /** A worker's reading; undefined when the worker could not read the batch, which is then read here. */
  readonly answer?: Promise<readonly ReadLine[] | undefined>;
}

/**
 * Reads a history's lines ({@link readLine}) and yields them in batches in their order. With workers,
 * batches are read on worker threads while the caller clusters earlier ones; when every worker has its
 * batches ahead, this thread reads the next batch itself rather than wait. A bounded number of batches
 * is out at once, so memory follows the batch size, not the history. The workers end when the lines do,
 * when reading them throws, and when the caller stops early.
 */
export async function* readInOrder(
  definition: RecordsDefinition,
  lines: AsyncIterable<string | LineProblem> | Iterable<string | LineProblem>,
  options: ReadInOrderOptions,
): AsyncGenerator<ReadBatch> {
  const { workers, readerHeapMb: heapMb, ...reading } = options;
  const readHere = (batch: readonly (string | LineProblem)[]): ReadLine[] =>
    batch.map((line) => readLine(definition, line, reading));
  const queue: Queued[] = [];
  let pool: ReadingPool | undefined;
  let first = 1;
  const warmUp = new WarmUpLines();
  const dispatch = async function* (batch: readonly (string | LineProblem)[]): AsyncGenerator<ReadBatch> {
    const count = workers ?? (first > readAloneFor ? defaultWorkers() : 0);
    if (pool === undefined && count > 0)
      pool = new ReadingPool(
        count,
        { definition: readingDefinition(definition), options: functionless(reading), warmUp: warmUp.take() },
        heapMb ?? readerHeapMb,
      );
    if (pool === undefined) {
      if (workers === undefined) warmUp.keep(batch);
    } else if (!pool.broken) {
      // Answers that arrived are taken in (they come as events), and the ones in order are clustered.
      // So is the workers' readiness: from a source that never waits, no event would be handled.
      await nextTurn();
      yield* settled(queue, "none", readHere);
      await nextTurn();
    }
    // Until its workers have warmed up, and when they have every batch they can hold, this thread reads.
    if (pool?.ready && !pool.broken && pool.inFlight < aheadPerWorker * count) {
      // A line problem is sent as only what it says: a reader's own object may not be one a thread can send.
      // A batch a worker fails (a line too big for its heap, the worker gone) is read here, where a line
      // that cannot be read throws as it does without workers.
      const answer = pool
        .read(batch.map((line) => (typeof line === "string" ? line : { problem: line.problem })))
        .catch(() => undefined);
      const queued: Queued = { first, lines: batch, read: undefined, answer };
      void answer.then((read) => {
        if (read !== undefined) queued.read = read;
      });
      queue.push(queued);
    } else queue.push({ first, lines: batch, read: readHere(batch) });
    first += batch.length;
    yield* settled(queue, queue.length > aheadPerWorker * count + readAhead ? "front" : "none", readHere);
  };
  // The lines before one the source failed to give are all clustered (and told) before its error is raised.
  let failed: { error: unknown } | undefined;
  try {
    for await (const batch of batchesOf(lines, (error) => (failed = { error }))) yield* dispatch(batch);
    yield* settled(queue, "all", readHere);
  } finally {
    await pool?.close();
  }
  if (failed !== undefined) throw failed.error;
}

/** A source's lines in batches; an error of the source's ends them, after the lines before it, and is handed to `failed`. */
async function* batchesOf<T>(
  lines: AsyncIterable<T> | Iterable<T>,
  failed: (error: unknown) => void,
): AsyncGenerator<T[]> {
  let batch: T[] = [];
  try {
    for await (const line of lines) {
      batch.push(line);
      if (batch.length === batchSize) {
        yield batch;
        batch = [];
      }
    }
  } catch (error) {
    failed(error);
  }
  if (batch.length > 0) yield batch;
}

/**
 * Yields the batches read at the front of the queue, up to the first one still being read; waits for
 * that one first when `wait` is "front", for each one in turn when "all". A batch its worker failed is
 * read with `readHere` when its turn comes.
 */
async function* settled(
  queue: Queued[],
  wait: "none" | "front" | "all",
  readHere: (batch: readonly (string | LineProblem)[]) => readonly ReadLine[],
): AsyncGenerator<ReadBatch> {
  for (let front = queue[0]; front !== undefined; front = queue[0]) {
    if (front.read === undefined) {
      if (wait === "none") return;
      front.read = (await front.answer) ?? readHere(front.lines);
      if (wait === "front") wait = "none";
    }
    queue.shift();
    yield { first: front.first, lines: front.lines, read: front.read as readonly ReadLine[] };
  }
}

/** Lets the events that arrived (workers' answers) be handled. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Options as a worker can be sent them: a function is never read while reading a line. */
function functionless<T extends object>(options: T): T {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => typeof value !== "function")) as T;
}
