import { type ClusterState, pairCounts, sharedShare, wordCounts } from "./clusters.js";
import { isPlaceholder, numberToken } from "./tokens.js";

/** Tokens written in one another's place by members of one template: each token's alternatives. */
export type Alternatives = ReadonlyMap<string, ReadonlySet<string>>;

/** Fewest members of a cluster that must write each of two tokens, and each neighbour pair, to teach them. */
const minWriters = 2;
/** Share of a cluster's members that must write each of two tokens: a stray member teaches nothing. */
const minShare = 0.1;
/** Members holding both of two alternatives, beyond the cluster's size, as a share of it: a typo, a quote. */
const overlapSlack = 0.1;
/**
 * Clusters that must teach two tokens: one cluster may hold two templates the reading could not part
 * ("a friendly reminder" / "a final reminder"), while a choice shows in each part of its template.
 */
const minTeachers = 2;

/**
 * The alternatives a history's clusters teach: two tokens that the members of one cluster write at one
 * place — the same word before both, the same word after both, hardly ever both in one member — are two
 * ways one template writes the place: a choice of synonyms ("authorise" / "approve"), or a value two
 * record fields hold, masked as one field in some messages and as the other in the rest
 * ("{{claim.amount}}" / "{{payout.amount}}"), when two clusters or more show it. A cluster of messages about records teaches only (one
 * of its members' placeholders most of them write): a person words those anew, while lines a program
 * prints differ by a word only when they are two events ("VM Paused" / "VM Stopped").
 */
export function learnedAlternatives(clusters: readonly ClusterState[], minSize: number): Alternatives {
  // How many clusters teach each pair of tokens, keyed in the order they sort.
  const teachers = new Map<string, number>();
  const teach = (a: string, b: string) => {
    const key = a < b ? `${a} ${b}` : `${b} ${a}`;
    teachers.set(key, (teachers.get(key) ?? 0) + 1);
  };
  for (const cluster of clusters) {
    if (cluster.size < minSize) continue;
    const words = wordCounts(cluster);
    const floor = Math.max(minWriters, minShare * cluster.size);
    let aboutRecords = false;
    for (const [word, count] of words)
      if (isPlaceholder(word) && count >= sharedShare * cluster.size) aboutRecords = true;
    if (!aboutRecords) continue;
    // Each word with the tokens enough members write after it, and each such token with the words after it.
    const following = new Map<string, Set<string>>();
    const rightOf = new Map<string, Set<string>>();
    for (const [pair, count] of pairCounts(cluster)) {
      if (count < minWriters) continue;
      const [first = "", second = ""] = pair.split(" ");
      if (second !== numberToken && (words.get(second) ?? 0) >= floor) addTo(following, first, second);
      if (first !== numberToken && (words.get(first) ?? 0) >= floor) addTo(rightOf, first, second);
    }
    // Two tokens after one word and before one word: written at one place.
    for (const tokens of following.values()) {
      if (tokens.size < 2) continue;
      const list = [...tokens];
      for (let i = 0; i < list.length; i++)
        for (let j = i + 1; j < list.length; j++) {
          const a = list[i] as string;
          const b = list[j] as string;
          if (!shareOne(rightOf.get(a), rightOf.get(b))) continue;
          // Written together by many members, they are two places, not one written two ways.
          if ((words.get(a) ?? 0) + (words.get(b) ?? 0) > (1 + overlapSlack) * cluster.size) continue;
          teach(a, b);
        }
    }
  }
  const learned = new Map<string, Set<string>>();
  for (const [key, count] of teachers) {
    if (count < minTeachers) continue;
    const [a = "", b = ""] = key.split(" ");
    addTo(learned, a, b);
    addTo(learned, b, a);
  }
  return learned;
}

function addTo(map: Map<string, Set<string>>, key: string, value: string): void {
  const known = map.get(key);
  if (known === undefined) map.set(key, new Set([value]));
  else known.add(value);
}

function shareOne(a: ReadonlySet<string> | undefined, b: ReadonlySet<string> | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  for (const item of a) if (b.has(item)) return true;
  return false;
}
