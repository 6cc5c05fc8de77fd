import type { MessagePort } from "node:worker_threads";
import type { Alternatives } from "./alternatives.js";
import { maxCompared, RootIndex } from "./merge-candidates.js";
import { Alignments, joinScore, type Line } from "./merge-verdict.js";

/** What a merge's helping thread is started with (see `MergeHelper`). */
export interface GuessSetup {
  readonly alternatives: Alternatives;
  /**
   * Where the merging thread is: the pass it is in, then the place in that pass's order of the cluster
   * it is placing (read as an Int32Array at the indices of {@link Progress}).
   */
  readonly progress: SharedArrayBuffer;
  /** Where verdicts are posted, each as a {@link VerdictChunk}. */
  readonly port: MessagePort;
}

/** The indices of {@link GuessSetup.progress}. */
export const Progress = { pass: 0, placing: 1 } as const;

/** One pass of a merge, its clusters in the pass's order. */
export interface PassRequest {
  readonly pass: number;
  /** Each cluster's identity items (empty: it joins none). */
  readonly identities: readonly (readonly string[])[];
  /** Each cluster's line. */
  readonly lines: readonly (readonly string[])[];
  /** 1 for a cluster of a message or two (see `joinScore`), else 0. */
  readonly few: Uint8Array;
  /** Per cluster, 1 once the merging thread has placed it in another (written there as it goes). */
  readonly joined: SharedArrayBuffer;
  /** Whether the pass's alignments are kept for the next. */
  readonly keep: boolean;
}

/**
 * Verdicts of one pass: per cluster, its place, how many candidates follow, then each candidate's place
 * and the verdict the cluster joins it with (see `joinScore`, asked of the best of the candidates before
 * it: a score, 0 when it may not join, or below 0 a bound of its score).
 */
export interface VerdictChunk {
  readonly pass: number;
  readonly verdicts: Float64Array;
}

/** Candidates guessed per cluster: more than the merge compares, as a guess's are not all roots. */
const guessed = 6;
/** Clusters told per chunk posted: few, as the merging thread comes for them soon after. */
const chunkClusters = 4;
/** How far ahead of the merging thread telling starts again once it has caught up. */
const lead = 16;

/** Alignments the helping thread made, kept across the passes of a merge like the merging thread's. */
const alignments = new Alignments();

/**
 * Tells the verdicts of a merge pass's clusters on their likely candidates, a little ahead of the
 * merging thread: from a few clusters past the one it places, forward, until it catches up, and then
 * again from a few past it, until the pass ends or the merging thread leaves it. A cluster's candidates
 * are roots placed before it, found as the merge finds them, of the roots guessed here: a cluster told
 * here is taken to join another when its best verdict joins, one the merging thread placed in another
 * is known to, and any other is taken to be a root (most are).
 */
export function tellVerdicts(request: PassRequest, setup: GuessSetup): void {
  const progress = new Int32Array(setup.progress);
  const placed = new Uint8Array(request.joined);
  const { identities, few } = request;
  const lines: Line[] = request.lines.map((line) => ({ line }));
  // The roots guessed, by the order they were added, and each one's place.
  const index = new RootIndex();
  const places: number[] = [];
  /** The clusters before this have been added to the index, or not as they were guessed to join. */
  let added = 0;
  alignments.keep = request.keep;
  let told: number[] = [];
  let clusters = 0;
  for (let at = 0; at < identities.length; at++) {
    if (Atomics.load(progress, Progress.pass) !== request.pass) break;
    const placing = Atomics.load(progress, Progress.placing);
    if (placing >= at) {
      post(setup.port, request.pass, told);
      told = [];
      at = placing + lead;
      if (at >= identities.length) break;
    }
    // Clusters passed untold are roots unless the merging thread placed them in another.
    for (; added < at; added++)
      if (placed[added] !== 1) {
        index.add(identities[added] as readonly string[]);
        places.push(added);
      }
    added = at + 1;
    const identity = identities[at] as readonly string[];
    if (identity.length === 0) continue;
    const candidates = index
      .nearest(identity, guessed)
      .map((root) => places[root] as number)
      .filter((place) => placed[place] !== 1);
    told.push(at, candidates.length);
    const own = lines[at] as Line;
    // Told in the merge's order, each asked of the best yet as the merge asks it: most are cut short.
    let best = 0;
    let joins = false;
    for (let rank = 0; rank < candidates.length; rank++) {
      const candidate = candidates[rank] as number;
      const root = lines[candidate] as Line;
      const verdict = joinScore(own, root, few[at] === 1, setup.alternatives, alignments, best);
      told.push(candidate, verdict);
      if (verdict <= best) continue;
      best = verdict;
      // The merge compares the first few alone: a candidate past them does not tell the cluster joins.
      if (rank < maxCompared) joins = true;
    }
    if (!joins) {
      index.add(identity);
      places.push(at);
    }
    if (++clusters % chunkClusters === 0) {
      post(setup.port, request.pass, told);
      told = [];
    }
  }
  post(setup.port, request.pass, told);
}

function post(port: MessagePort, pass: number, told: readonly number[]): void {
  if (told.length === 0) return;
  const verdicts = Float64Array.from(told);
  port.postMessage({ pass, verdicts } satisfies VerdictChunk, [verdicts.buffer]);
}
