import type { ClusterState } from "./clusters.js";

/**
 * The words spread over many clusters: greetings, sign-offs, the names of the staff who wrote, a team
 * line pasted under every message, and the small words every sentence has. They are what messages of
 * different templates share, so they never decide which template a message is (they are still written
 * where a template writes them). A word is boilerplate when at least a third of the clusters of
 * `minSize` members or more (and at least three) hold it in two members or more.
 */
export function boilerplateWords(clusters: readonly ClusterState[], minSize: number): Set<string> {
  const spread = new Map<string, number>();
  let counted = 0;
  for (const cluster of clusters) {
    if (cluster.size < minSize) continue;
    counted += 1;
    for (const [word, count] of cluster.words) if (count >= 2) spread.set(word, (spread.get(word) ?? 0) + 1);
  }
  const boilerplate = new Set<string>();
  if (counted < 3) return boilerplate;
  for (const [word, clustersWithIt] of spread)
    if (clustersWithIt >= Math.max(3, counted / 3)) boilerplate.add(word);
  return boilerplate;
}
