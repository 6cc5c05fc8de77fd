import { boilerplateWords } from "./boilerplate.js";
import { type ClusterState, maxIdentifiers, othersShown, sharedShare } from "./clusters.js";
import { isTypoOf } from "./tokens.js";

/** Options of {@link mergeClusters}. */
export interface MergeOptions {
  /** Clusters of fewer members do not count when telling boilerplate words. @default 3 */
  readonly minSize?: number;
  /** Share of a cluster's identity a smaller one must hold to be merged into it. @default 0.75 */
  readonly recall?: number;
  /** Share of the smaller cluster's identity the bigger one must explain. @default 0.5 */
  readonly precision?: number;
  /** Example skeletons kept per cluster. @default 5 */
  readonly examples?: number;
  /** Distinct words counted per cluster. @default 2000 */
  readonly vocabulary?: number;
}

/** Clusters whose words one identity word leads to: past this, the word says too little to look through. */
const maxPostings = 256;
/** Bigger clusters compared with each cluster, those sharing the most identity words first. */
const maxCompared = 16;

/**
 * The merge pass, once every message has been read: clusters of one template that the reading split —
 * by a greeting or a sign-off, an optional sentence, a typo, another choice, a free-form tail — are
 * merged into the biggest of them. Each cluster's identity is the words most of its members share, less
 * the boilerplate spread over many clusters; going from the biggest cluster down, a cluster is merged into
 * a bigger one when it holds most of that one's identity (`recall`, a mistyped word counting as the word)
 * and that identity explains enough of its own (`precision`). Two templates that share a greeting and a
 * sign-off share only boilerplate, so they never merge. Deterministic; the order and the result depend on
 * sizes and ids only. Returns the clusters that remain, each with the ids merged into it.
 */
export function mergeClusters(clusters: readonly ClusterState[], options: MergeOptions = {}): ClusterState[] {
  const minSize = options.minSize ?? 3;
  const recall = options.recall ?? 0.75;
  const precision = options.precision ?? 0.5;
  const keep = options.examples ?? 5;
  const vocabulary = options.vocabulary ?? 2000;
  const boilerplate = boilerplateWords(clusters, minSize);
  const order = [...clusters].sort((a, b) => b.size - a.size || a.id - b.id);
  const roots: { cluster: ClusterState; identity: readonly string[] }[] = [];
  const postings = new Map<string, number[]>();
  for (const cluster of order) {
    const identity = identityOf(cluster, boilerplate);
    const into = identity.length === 0 ? undefined : bestRoot(identity, roots, postings, recall, precision);
    if (into !== undefined) {
      absorb(into, cluster, keep, vocabulary);
      continue;
    }
    const at = roots.length;
    roots.push({ cluster, identity });
    for (const word of identity) {
      const list = postings.get(word);
      if (list === undefined) postings.set(word, [at]);
      else if (list.length <= maxPostings) list.push(at);
    }
  }
  return roots.map((root) => root.cluster);
}

/**
 * The words and word pairs most members share (all of them for one member), boilerplate left out: a
 * pair is boilerplate when either of its words is.
 */
function identityOf(cluster: ClusterState, boilerplate: ReadonlySet<string>): string[] {
  const floor = sharedShare * cluster.size;
  const identity: string[] = [];
  for (const [word, count] of cluster.words)
    if (count >= floor && !boilerplate.has(word)) identity.push(word);
  for (const [pair, count] of cluster.pairs) {
    if (count < floor) continue;
    const [first = "", second = ""] = pair.split(" ");
    if (!boilerplate.has(first) && !boilerplate.has(second)) identity.push(pair);
  }
  return identity;
}

function bestRoot(
  identity: readonly string[],
  roots: readonly { cluster: ClusterState; identity: readonly string[] }[],
  postings: ReadonlyMap<string, readonly number[]>,
  recall: number,
  precision: number,
): ClusterState | undefined {
  const common = new Map<number, number>();
  for (const word of identity) {
    const list = postings.get(word);
    if (list === undefined || list.length > maxPostings) continue;
    for (const at of list) common.set(at, (common.get(at) ?? 0) + 1);
  }
  const ranked = [...common].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, maxCompared);
  let best: ClusterState | undefined;
  let bestScore = 0;
  for (const [at] of ranked) {
    const root = roots[at] as { cluster: ClusterState; identity: readonly string[] };
    const held = heldWords(root.identity, identity);
    const rootRecall = held / root.identity.length;
    const ownPrecision = held / identity.length;
    if (rootRecall < recall || ownPrecision < precision) continue;
    const score = rootRecall + ownPrecision;
    if (score > bestScore) {
      best = root.cluster;
      bestScore = score;
    }
  }
  return best;
}

/** How many of `wanted` the words hold, a mistyped word counting as the word. */
function heldWords(wanted: readonly string[], words: readonly string[]): number {
  const own = new Set(words);
  let held = 0;
  const missing: string[] = [];
  for (const word of wanted) {
    if (own.has(word)) held++;
    else missing.push(word);
  }
  if (missing.length === 0) return held;
  const spare = words.filter((word) => !wanted.includes(word));
  for (const word of missing) {
    const typo = spare.findIndex((other) => isTypoOf(word, other));
    if (typo === -1) continue;
    held++;
    spare.splice(typo, 1);
  }
  return held;
}

function addCounts(into: Map<string, number>, from: ReadonlyMap<string, number>, bound: number): void {
  for (const [item, count] of from) {
    const known = into.get(item);
    if (known !== undefined) into.set(item, known + count);
    else if (into.size < bound) into.set(item, count);
  }
}

/** Adds a cluster's members to another: counts summed, lists kept within their bounds. */
function absorb(into: ClusterState, from: ClusterState, keep: number, vocabulary: number): void {
  into.size += from.size;
  into.resolved += from.resolved;
  for (const [source, count] of from.recipients)
    into.recipients.set(source, (into.recipients.get(source) ?? 0) + count);
  addCounts(into.words, from.words, vocabulary);
  addCounts(into.pairs, from.pairs, vocabulary);
  for (const example of from.examples) if (into.examples.length < keep) into.examples.push(example);
  for (const subject of from.subjects) if (into.subjects.length < keep) into.subjects.push(subject);
  for (const [key, entry] of from.identifiers) {
    const known = into.identifiers.get(key);
    if (known !== undefined) known.count += entry.count;
    else if (into.identifiers.size < maxIdentifiers) into.identifiers.set(key, { ...entry });
    else {
      const others = `${entry.kind} `;
      const counted = into.identifiers.get(others);
      if (counted !== undefined) counted.count += entry.count;
      else into.identifiers.set(others, { kind: entry.kind, shown: othersShown, count: entry.count });
    }
  }
  into.merged.push(...from.merged);
}
