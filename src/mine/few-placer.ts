import type { Worker } from "node:worker_threads";
import type { Alternatives } from "./alternatives.js";
import type { ClusterState } from "./clusters.js";
import type { RootIndex } from "./merge-candidates.js";
import type { Placing, Root } from "./merge-roots.js";
import { startWorker } from "./start-worker.js";

/** The roots a merge pass settled, with the identities they were indexed by, in order. */
export interface SettledRoots {
  readonly roots: readonly Root[];
  readonly identities: readonly (readonly string[])[];
  readonly index: RootIndex;
}

/**
 * Places part of a merge pass's messages-or-two on another thread, from the last back, while the caller
 * places them from the first: see {@link FewProgress}. Undefined when it cannot.
 */
export interface FewPlacer {
  place(few: readonly ClusterState[], settled: SettledRoots, placing: Placing): FewHelp | undefined;
}

/** The help under way, as the caller reads it and tells it how far it got (see {@link FewProgress}). */
export interface FewHelp {
  /** The helper placed every cluster from this one on. */
  placedFrom(): number;
  /** Tells the helper the caller placed every cluster before `count`. */
  calledTo(count: number): void;
  /** The place the helper found for a cluster at or past {@link placedFrom}. */
  placeOf(at: number): number;
  /** The first cluster the helper may be sent: the caller places every one before it. */
  readonly keptTo: number;
}

/**
 * What a cluster is placed by (see `placeFew`), as a thread is sent it: its members' tokens, each
 * sequence as one string (tokens never hold a space), so thousands of clusters cost a string each rather
 * than one per token; its counts while it keeps them, else its skeleton where they are read again from it.
 */
export interface FewSnapshot {
  readonly size: number;
  readonly recount: ClusterState["recount"];
  readonly sequences: readonly string[];
  readonly skeleton: string | undefined;
  readonly words: ReadonlyMap<string, number> | undefined;
  readonly pairs: ReadonlyMap<string, number> | undefined;
}

/**
 * What a helper is sent: first what placing reads (the shared progress, the roots, the alternatives and
 * the boilerplate), then the clusters in chunks, each chunk from `from` on and below the one before.
 */
export type FewWork =
  | {
      readonly kind: "roots";
      readonly progress: SharedArrayBuffer;
      readonly lines: readonly (readonly string[])[];
      readonly identities: readonly (readonly string[])[];
      readonly alternatives: Alternatives;
      readonly boilerplate: ReadonlySet<string>;
    }
  | { readonly kind: "clusters"; readonly from: number; readonly clusters: readonly FewSnapshot[] };

// The shared progress: the calling thread's next cluster, the first the helper placed, then the places.
const front = 0;
const back = 1;
const placesFrom = 2;

/**
 * The places two threads found, shared: the caller places clusters from the first and says how far it
 * got; the helper places them from the last back, writes each place, then says it placed from there on.
 * Each stops where the other has been, so a cluster is placed twice at most where they meet (the same
 * place either way), and the caller never waits: a helper that is slow or gone leaves it more to place.
 */
export class FewProgress {
  readonly #state: Int32Array;

  constructor(state: Int32Array) {
    this.#state = state;
  }

  /** A progress for `count` clusters, none placed. */
  static of(count: number): FewProgress {
    const state = new Int32Array(new SharedArrayBuffer(4 * (placesFrom + count)));
    state[back] = count;
    return new FewProgress(state);
  }

  get buffer(): SharedArrayBuffer {
    return this.#state.buffer as SharedArrayBuffer;
  }

  /** The helper placed every cluster from this one on. */
  placedFrom(): number {
    return Atomics.load(this.#state, back);
  }

  /** The caller placed every cluster before this one. */
  placedTo(): number {
    return Atomics.load(this.#state, front);
  }

  /** Tells the helper the caller placed every cluster before `count`. */
  calledTo(count: number): void {
    Atomics.store(this.#state, front, count);
  }

  /** Writes a cluster's place, found by the helper, and that it placed every cluster from there on. */
  helped(at: number, place: number): void {
    Atomics.store(this.#state, placesFrom + at, place);
    Atomics.store(this.#state, back, at);
  }

  /** The place the helper found for a cluster at or past {@link placedFrom}. */
  placeOf(at: number): number {
    return Atomics.load(this.#state, placesFrom + at);
  }
}

/**
 * Share of the messages-or-two the caller keeps to itself: it places them while the helper starts and
 * is sent its part, and what is not sent costs nothing to send.
 */
const keptShare = 0.4;
/**
 * Clusters a chunk sent to the helper holds. The next is sent when the helper has placed half of the last,
 * so it holds about two at a time (a million messages leave over a hundred thousand, more than its heap).
 */
const chunkSize = 4096;

/** A worker thread that places part of a merge's first pass (see {@link FewPlacer}); closed after it. */
export class MergeHelper implements FewPlacer {
  readonly #worker: Worker;
  readonly #chunkSize: number;
  #gone = false;

  private constructor(worker: Worker, chunk: number) {
    this.#worker = worker;
    this.#chunkSize = chunk;
    // A helper that fails only leaves the caller more to place.
    worker.on("error", () => {
      this.#gone = true;
    });
    worker.on("exit", () => {
      this.#gone = true;
    });
  }

  /**
   * Starts the thread, so it loads while the merge reads the clusters and places the bigger ones.
   * Undefined when no thread can be started (its file left out of a bundle): the merge runs without.
   * `chunk`: clusters a chunk sent to it holds.
   */
  static start(chunk = chunkSize): MergeHelper | undefined {
    try {
      return new MergeHelper(
        startWorker("merge-worker", undefined, {
          maxOldGenerationSizeMb: helperHeapMb,
          maxYoungGenerationSizeMb: helperYoungMb,
        }),
        chunk,
      );
    } catch {
      return undefined;
    }
  }

  place(few: readonly ClusterState[], settled: SettledRoots, placing: Placing): FewHelp | undefined {
    if (this.#gone) return undefined;
    const progress = FewProgress.of(few.length);
    const roots: FewWork = {
      kind: "roots",
      progress: progress.buffer,
      lines: settled.roots.map((root) => root.line),
      identities: settled.identities,
      alternatives: placing.alternatives,
      boilerplate: placing.boilerplate,
    };
    if (!this.#send(roots)) return undefined;
    const keptTo = Math.floor(few.length * keptShare);
    // The lowest cluster sent so far: chunks go down from the last towards `keptTo`.
    let sentFrom = few.length;
    const chunk = this.#chunkSize;
    const sendMore = (calledTo: number) => {
      const from = Math.max(keptTo, sentFrom - chunk, calledTo);
      if (from >= sentFrom) return;
      if (this.#send({ kind: "clusters", from, clusters: few.slice(from, sentFrom).map(snapshotOf) }))
        sentFrom = from;
    };
    sendMore(0);
    return {
      keptTo,
      placedFrom: () => progress.placedFrom(),
      placeOf: (at) => progress.placeOf(at),
      calledTo: (count) => {
        progress.calledTo(count);
        // The next chunk, once the helper is half-way through the last and the caller is not near it.
        if (sentFrom > keptTo && progress.placedFrom() - sentFrom < chunk / 2 && sentFrom - count > chunk)
          sendMore(count);
      },
    };
  }

  /** Posts work to the thread; false when it is gone. */
  #send(work: FewWork): boolean {
    if (this.#gone) return false;
    try {
      this.#worker.postMessage(work);
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await this.#worker.terminate();
  }
}

/**
 * The heap the helper may use, in MB: what it is sent (the clusters' tokens, a few hundred bytes each)
 * and the alignment it is making; it keeps neither. A helper past it ends, and the caller places the rest.
 */
const helperHeapMb = 96;
/** Its young generation: what it makes for one cluster dies there (see `readerYoungMb`). */
const helperYoungMb = 16;

function snapshotOf(cluster: ClusterState): FewSnapshot {
  const { size, recount } = cluster;
  const counted = recount === undefined;
  return {
    size,
    recount,
    sequences: cluster.sequences.map((sequence) => sequence.join(" ")),
    skeleton: recount === "skeleton" ? cluster.examples[0] : undefined,
    words: counted ? cluster.words : undefined,
    pairs: counted ? cluster.pairs : undefined,
  };
}

/**
 * The cluster a snapshot was taken of, as placing reads it. Its one member's words are read again from
 * its tokens or skeleton (see `droppedWords`), as they were when its counts were dropped.
 */
export function clusterOf(snapshot: FewSnapshot): ClusterState {
  const { size, recount, skeleton } = snapshot;
  return {
    size,
    recount,
    words: snapshot.words ?? noCounts,
    pairs: snapshot.pairs ?? noCounts,
    sequences: snapshot.sequences.map((sequence) => (sequence === "" ? [] : sequence.split(" "))),
    examples: skeleton === undefined ? [] : [skeleton],
  } as unknown as ClusterState;
}

const noCounts: ReadonlyMap<string, number> = new Map();
