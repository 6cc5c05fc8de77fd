import {
  type ClusterState,
  droppedPairs,
  droppedWords,
  pairCounts,
  sharedShare,
  wordCounts,
} from "./clusters.js";
import { isPlaceholder, isTypoOf, numberToken, sentenceEnd } from "./tokens.js";

/**
 * What a cluster's root is read from, boilerplate aside, kept while the cluster does not change: a
 * merge pass and the next read most clusters again as they were, and merging into a cluster adds
 * members (so its size is the mark of a change).
 */
export interface Reading {
  readonly size: number;
  /** The words most members hold, in the order they were counted. */
  readonly core: readonly string[];
  /**
   * The word pairs most members hold, each followed by its two words (pair, first, second, pair, …): one
   * flat list, and the words are the core's own strings, since readings are held until the merge ends
   * (tuples and split copies made them most of the merge's memory). Undefined for a cluster whose counts
   * were dropped: its pairs are read from its member when asked (see `droppedPairs`).
   */
  readonly pairs: readonly string[] | undefined;
  /** Each kept member's tokens as the core reads them (see `readingOf`). */
  readonly sequences: readonly (readonly string[])[];
}

export type Readings = Map<ClusterState, Reading>;

/**
 * A cluster's identity: the words and word pairs most members share (all of them for one member),
 * boilerplate left out (a pair is boilerplate when either word is). Its root's line holds its words in
 * the order of the member that holds most of them (see {@link lineOf}).
 */
export function identityOf(
  cluster: ClusterState,
  reading: Reading,
  boilerplate: ReadonlySet<string>,
): string[] {
  const { core, pairs } = reading;
  // The shared words, then the pairs: one list, not a copy of the first.
  const identity = core.filter((word) => !boilerplate.has(word));
  if (identity.length === 0) return identity;
  const kept = (first: string, second: string) => !boilerplate.has(first) && !boilerplate.has(second);
  // A cluster whose counts were dropped makes only the pairs kept.
  const held = pairs ?? droppedPairs(cluster, kept);
  for (let at = 0; at < held.length; at += 3)
    if (pairs === undefined || kept(held[at + 1] as string, held[at + 2] as string))
      identity.push(held[at] as string);
  return identity;
}

/**
 * The longest of a cluster's read sequences, less its trailing boilerplate: boilerplate words stay in
 * the line ("is due" and "was due" are two templates' words in one place), but not at its end, where
 * they are a closing or a team line the mail reading left.
 */
export function lineOf(
  sequences: readonly (readonly string[])[],
  boilerplate: ReadonlySet<string>,
): readonly string[] {
  let line: readonly string[] = [];
  for (const kept of sequences) {
    let end = kept.length;
    while (end > 0 && trailing(kept[end - 1] as string, boilerplate)) end--;
    if (end > line.length) line = kept.slice(0, end);
  }
  return line;
}

/**
 * What a root and its identity are read from (see {@link identityOf}), read again only when the
 * cluster changed (see below).
 */
export function readingOf(cluster: ClusterState, readings: Readings): Reading {
  const known = readings.get(cluster);
  if (known !== undefined && known.size === cluster.size) return known;
  const floor = sharedShare * cluster.size;
  // Each core word by itself, so a pair's two words are kept as the core's strings, not as copies.
  const core = new Map<string, string>();
  const dropped = droppedWords(cluster);
  let pairs: readonly string[] | undefined;
  if (dropped !== undefined) {
    // One member whose counts were dropped: each of its words and pairs is shared.
    for (const word of dropped) core.set(word, word);
  } else {
    // Read by forEach: iterating the entries made an array for each.
    wordCounts(cluster).forEach((count, word) => {
      if (count >= floor) core.set(word, word);
    });
    const held: string[] = [];
    pairCounts(cluster).forEach((count, pair) => {
      if (count < floor) return;
      const [first = "", second = ""] = pair.split(" ");
      held.push(pair, core.get(first) ?? first, core.get(second) ?? second);
    });
    pairs = held;
  }
  const sequences = cluster.sequences.map((sequence) => {
    // A run of numbers is one, words not shared between them aside: a time or a date masking did not
    // take ("12. Januar 2026, 10:25") reads as one to four of them.
    const kept: string[] = [];
    let same = true;
    for (const read of sequence) {
      // A member that mistyped a shared word still holds it in its place.
      const word = core.has(read) || read === sentenceEnd ? read : typoOf(read, core);
      if (word !== read) same = false;
      if (word === undefined) continue;
      if (word === numberToken && kept.at(-1) === numberToken) {
        same = false;
        continue;
      }
      kept.push(word);
    }
    // A sequence read as it is (a one-off cluster's, mostly) is the cluster's own, not a copy to hold.
    return same ? sequence : kept;
  });
  const reading = { size: cluster.size, core: dropped ?? [...core.keys()], pairs, sequences };
  // Kept for the next pass and the last step, which read it again. A cluster of one member that keeps
  // its counts is read again when asked instead: its core and pairs would be copies, and such clusters
  // are many. One whose counts were dropped (most of a long history's) reads its own words and tokens,
  // so what is kept is little more than the reading itself.
  if (cluster.size > 1 || dropped !== undefined) readings.set(cluster, reading);
  return reading;
}

/** The shared word a token is a mistyped form of, if any. */
function typoOf(token: string, core: ReadonlyMap<string, string>): string | undefined {
  if (token.length < 5 || isPlaceholder(token)) return undefined;
  for (const word of core.keys()) if (isTypoOf(token, word)) return word;
  return undefined;
}

/** A closing's or a team line's token: boilerplate words and sentence ends, never a value. */
function trailing(token: string, boilerplate: ReadonlySet<string>): boolean {
  if (token === sentenceEnd) return true;
  return boilerplate.has(token) && !isPlaceholder(token) && token !== numberToken;
}
