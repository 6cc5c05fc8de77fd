/**
 * A worker thread placing part of a merge pass's messages-or-two (see `FewPlacer`): from the last of
 * those it is sent back towards the first, until it meets the thread that places them from the first.
 */
import { parentPort } from "node:worker_threads";
import { clusterOf, FewProgress, type FewSnapshot, type FewWork } from "./few-placer.js";
import { RootIndex } from "./merge-candidates.js";
import { type Placing, placeFew, type Root } from "./merge-roots.js";

/** What placing reads, sent once before the clusters. */
interface Placed {
  readonly progress: FewProgress;
  readonly roots: readonly Root[];
  readonly index: RootIndex;
  readonly placing: Placing;
}

function settle(work: Extract<FewWork, { kind: "roots" }>): Placed {
  const index = new RootIndex();
  for (const identity of work.identities) index.add(identity);
  return {
    progress: new FewProgress(new Int32Array(work.progress)),
    roots: work.lines.map((line) => ({ line })),
    index,
    placing: { alternatives: work.alternatives, boilerplate: work.boilerplate },
  };
}

/** Places a chunk from its last back, until the calling thread has been there. */
function placeFromLast(
  { progress, roots, index, placing }: Placed,
  from: number,
  chunk: readonly FewSnapshot[],
): void {
  // Each snapshot is let go once placed, and no reading is kept: none is asked for again here.
  const clusters = chunk as (FewSnapshot | undefined)[];
  for (let k = clusters.length - 1; k >= 0; k--) {
    const at = from + k;
    if (at < progress.placedTo()) return;
    const cluster = clusterOf(clusters[k] as FewSnapshot);
    clusters[k] = undefined;
    progress.helped(at, placeFew(cluster, roots, index, placing, new Map()));
  }
}

let placed: Placed | undefined;
parentPort?.on("message", (work: FewWork) => {
  if (work.kind === "roots") placed = settle(work);
  else if (placed !== undefined) placeFromLast(placed, work.from, work.clusters);
});
