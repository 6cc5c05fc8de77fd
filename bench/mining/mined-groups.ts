/**
 * `mineHistory` as a grouping of lines, to score it the way the log-parsing field scores a parser: each
 * message joins a cluster as it is read (`onMessage` gives that cluster's id), then the merge pass folds
 * clusters into candidates (`candidates[k].clusters` lists the ids each took in), so a line's group is
 * the candidate its first cluster ended in.
 */
import type { RecordsDefinition } from "formletter";
import { type MiningReport, mineHistory } from "formletter/mine";

export interface MinedGroups {
  readonly report: MiningReport;
  /** The candidate id of each line, in order; -1 for a line no candidate took (none should be). */
  readonly groups: Int32Array;
  readonly seconds: number;
}

/** Mines `lines` (JSON lines, none blank) and gives each line its candidate. */
export async function minedGroups(
  records: RecordsDefinition,
  lines: readonly string[],
): Promise<MinedGroups> {
  const firstCluster = new Int32Array(lines.length).fill(-1);
  const start = performance.now();
  const report = await mineHistory(records, lines, {
    onMessage: (line, cluster) => {
      firstCluster[line - 1] = cluster;
    },
  });
  const seconds = (performance.now() - start) / 1000;
  const candidateOf = new Map<number, number>();
  for (const candidate of report.candidates) {
    // A build older than the merge pass has no `clusters`: say how to fix it rather than fail on it.
    if (!Array.isArray(candidate.clusters))
      throw new Error(
        "minedGroups: candidates carry no `clusters`: dist is older than src; run `npm run build`",
      );
    for (const id of candidate.clusters) candidateOf.set(id, candidate.id);
  }
  const groups = firstCluster.map((cluster) => candidateOf.get(cluster) ?? -1);
  return { report, groups, seconds };
}
