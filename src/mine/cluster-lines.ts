import { type ClusterOptions, Clusters } from "./clusters.js";
import { mergeClusters } from "./merge-clusters.js";

/**
 * Groups plain lines (no records to mask) with mining's own clustering: read one at a time, then merged.
 * Returns each line's group, numbered from 0 in the order groups were first seen. This is how mining is
 * measured beside other parsers on public log samples, and what a caller with pre-masked text can use.
 *
 * @example
 * import { clusterLines } from "formletter/mine";
 * clusterLines(["disk 1 full", "disk 2 full", "user anna logged in"]); // [0, 0, 1]
 */
export function clusterLines(
  lines: Iterable<string>,
  options: ClusterOptions & { readonly minSize?: number } = {},
): number[] {
  const first: number[] = [];
  const clusters = new Clusters(options, (at, cluster) => {
    first[at] = cluster.id;
  });
  for (const line of lines) {
    const at = first.length;
    first[at] = clusters.add(line, undefined, { tag: at }).id;
  }
  const groupOf = new Map<number, number>();
  for (const cluster of mergeClusters(clusters.finish(), options)) {
    for (const id of cluster.merged) groupOf.set(id, cluster.id);
  }
  const numbered = new Map<number, number>();
  return first.map((id) => {
    const group = groupOf.get(id) ?? id;
    let number = numbered.get(group);
    if (number === undefined) {
      number = numbered.size;
      numbered.set(group, number);
    }
    return number;
  });
}
