/**
 * A worker thread placing part of a merge pass's messages-or-two (see `FewPlacer`): from the last of
 * those it is sent back towards the first, until it meets the thread that places them from the first.
 */
import { parentPort } from "node:worker_threads";
import { clusterOf, FewProgress, type FewSnapshot, type FewWork } from "./few-placer.js";
import { RootIndex } from "./merge-candidates.js";
import { placeFew, type Root } from "./merge-roots.js";

function placeFromLast(work: FewWork): void {
  const progress = new FewProgress(new Int32Array(work.progress), work.from);
  const index = new RootIndex();
  for (const identity of work.identities) index.add(identity);
  const roots: Root[] = work.lines.map((line) => ({ line }));
  const placing = { alternatives: work.alternatives, boilerplate: work.boilerplate };
  // Each snapshot is let go once placed, and no reading is kept: none is asked for again here.
  const clusters = work.clusters as (FewSnapshot | undefined)[];
  for (let k = clusters.length - 1; k >= 0; k--) {
    const at = work.from + k;
    if (at < progress.placedTo()) return;
    const cluster = clusterOf(clusters[k] as FewSnapshot);
    clusters[k] = undefined;
    progress.helped(at, placeFew(cluster, roots, index, placing, new Map()));
  }
}

parentPort?.on("message", (work: FewWork) => placeFromLast(work));
