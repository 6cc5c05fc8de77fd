import { type ClusterState, sharedShare, wordCounts } from "./clusters.js";
import { isPlaceholder } from "./tokens.js";

/**
 * The words spread over many clusters: greetings, sign-offs, the names of the staff who wrote, a team
 * line pasted under every message, and the small words every sentence has. They are what messages of
 * different templates share, so they never decide which template a message is (they are still written
 * where a template writes them). A word is boilerplate when at least a third of the clusters of
 * `minSize` members or more (and at least three) hold it in two members or more, and those clusters
 * write at least three different sets of slots (or none).
 */
export function boilerplateWords(clusters: readonly ClusterState[], minSize: number): Set<string> {
  const spread = new Map<string, { clusters: number; groups: Set<string> }>();
  let counted = 0;
  for (const cluster of clusters) {
    if (cluster.size < minSize) continue;
    counted += 1;
    const group = slotsOf(cluster) ?? `#${cluster.id}`;
    for (const [word, count] of wordCounts(cluster)) {
      if (count < 2) continue;
      const held = spread.get(word) ?? { clusters: 0, groups: new Set<string>() };
      spread.set(word, held);
      held.clusters += 1;
      held.groups.add(group);
    }
  }
  const boilerplate = new Set<string>();
  if (counted < 3) return boilerplate;
  for (const [word, held] of spread)
    if (held.clusters >= Math.max(3, counted / 3) && held.groups.size >= 3) boilerplate.add(word);
  return boilerplate;
}

/**
 * The placeholders most of a cluster's members write, as one key (undefined when they write none):
 * clusters writing the same slots are likely parts of one template the reading split, and a word only
 * they hold is that template's, however many parts it was split into.
 */
function slotsOf(cluster: ClusterState): string | undefined {
  const slots: string[] = [];
  for (const [word, count] of wordCounts(cluster))
    if (isPlaceholder(word) && count >= sharedShare * cluster.size) slots.push(word);
  return slots.length === 0 ? undefined : slots.sort().join(" ");
}
