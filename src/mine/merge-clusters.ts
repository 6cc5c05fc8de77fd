import { type Alternatives, learnedAlternatives } from "./alternatives.js";
import { boilerplateWords } from "./boilerplate.js";
import {
  addIdentifier,
  type ClusterState,
  droppedPairs,
  droppedWords,
  maxSequences,
  pairCounts,
  restoreCounts,
  sharedShare,
  wordCounts,
} from "./clusters.js";
import { maxCompared, RootIndex } from "./merge-candidates.js";
import { MergeHelper } from "./merge-helper-thread.js";
import { Alignments, boundOf, joinScore, type Line } from "./merge-verdict.js";
import { isPlaceholder, isTypoOf, numberToken, sentenceEnd } from "./tokens.js";
import { variablePlaceGroups } from "./variable-places.js";

/** Options of {@link mergeClusters}. */
export interface MergeOptions {
  /** Clusters of fewer members do not count when telling boilerplate words. @default 3 */
  readonly minSize?: number;
  /** Example skeletons kept per cluster. @default 5 */
  readonly examples?: number;
  /** Distinct words counted per cluster. @default 2000 */
  readonly vocabulary?: number;
  /**
   * Whether a second thread tells verdicts ahead of the merge (see `MergeHelper`), for many clusters and
   * two cores: the same result, sooner only when a core would otherwise idle (on a busy machine the two
   * threads share one core's time, and the merge takes longer). @default false
   */
  readonly helperThread?: boolean;
}

interface Root extends Line {
  readonly cluster: ClusterState;
  /** Its place in the pass's order. */
  readonly place: number;
  /** Its identity words and pairs, each once. */
  readonly identity: readonly string[];
}

/**
 * What a cluster's root is read from, boilerplate aside, kept while the cluster does not change: a
 * merge pass and the next read most clusters again as they were, and merging into a cluster adds
 * members (so its size is the mark of a change).
 */
interface Reading {
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

type Readings = Map<ClusterState, Reading>;

/**
 * What the passes of one merge share: the alternatives learned, what they read and aligned, and the
 * thread telling verdicts ahead, if any.
 */
interface Shared {
  readonly alternatives: Alternatives;
  readonly readings: Readings;
  readonly alignments: Alignments;
  readonly helper: MergeHelper | undefined;
}

/**
 * The merge pass, once every message has been read: clusters of one template that the reading split —
 * by a greeting or a sign-off, an optional sentence, a typo, another choice, a free-form tail — are
 * merged into the biggest of them. A cluster's identity is the words most of its members share, less
 * the boilerplate spread over many clusters (greetings, sign-offs, names, a team line, small words);
 * going from the biggest cluster down, each is aligned with the bigger clusters sharing most of its
 * identity, and merged into the best that one of these describes:
 * - it is a message or two (no recurring template of its own) holding most of the bigger one's identity
 *   in order, with at most two other words or phrases in place of its words (a free-form tail, typos and
 *   synonyms are what a person adds), within a frame of at least ten tokens that agree;
 * - or it is bigger, and differs from the bigger one in at most one place by a phrase (another choice,
 *   another slot), besides sentences only one of them holds (an optional sentence, a clause moved) and
 *   a greeting the mail reading left at its start, within a frame of at least ten tokens that agree.
 * Sentences both write in another order are aligned in one order, and tokens the history teaches are
 * written in one another's place (see `learnedAlternatives`: synonyms of a choice, a value two fields
 * hold) are one token.
 * Last, clusters whose short lines differ by one word at one place, three or more of them, are merged
 * when the place reads as a value's (see `variablePlaceGroups`). Words a member mistyped count as the words they stand for.
 * Two templates differing in two places or more, or sharing only a greeting and a sign-off, never merge.
 * Deterministic: the order and the result depend on sizes and ids only. Returns the clusters that remain,
 * each with the ids merged into it.
 */
export function mergeClusters(clusters: readonly ClusterState[], options: MergeOptions = {}): ClusterState[] {
  const minSize = options.minSize ?? 3;
  // A template the reading split into many clusters makes its own words look spread over many: once
  // the first pass has joined them, the boilerplate is told again and the clusters merged once more.
  // Learned from the clusters as read, before merging joins any two.
  const alternatives = learnedAlternatives(clusters, minSize);
  const helper = MergeHelper.start(clusters.length, alternatives, options.helperThread ?? false);
  const shared: Shared = { alternatives, readings: new Map(), alignments: new Alignments(), helper };
  try {
    const once = mergePass(clusters, boilerplateWords(clusters, minSize), shared, options);
    shared.alignments.keep = false;
    const twice = mergePass(once, boilerplateWords(once, minSize), shared, options);
    return mergeVariablePlaces(twice, shared.readings, options);
  } finally {
    helper?.close();
  }
}

/**
 * Clusters whose lines differ only by one word at one place, three or more of them (see
 * `variablePlaceGroups`), are merged into the biggest: the word is a value masking did not take.
 */
function mergeVariablePlaces(
  clusters: readonly ClusterState[],
  readings: Readings,
  options: MergeOptions,
): ClusterState[] {
  const order = [...clusters].sort((a, b) => b.size - a.size || a.id - b.id);
  // Whole lines, words spread over many clusters and all: a template split at a value into many
  // clusters makes its own words look like boilerplate, and a line cut of its last words is too short
  // to tell.
  const none = new Set<string>();
  const groups = variablePlaceGroups(
    order.map((cluster) => lineOf(readingOf(cluster, readings).sequences, none)),
    order.map((cluster) => cluster.size),
  );
  const keep = options.examples ?? 5;
  const gone = new Set<number>();
  for (const group of groups) {
    const members = group.map((at) => order[at] as ClusterState);
    const into = members[0] as ClusterState;
    // Examples taken in turn from each cluster: they show the words written at the place, which a
    // draft makes a choice of.
    const examples = interleaved(
      members.map((member) => [...member.examples]),
      keep,
    );
    for (const at of group.slice(1)) {
      absorb(into, order[at] as ClusterState, keep, options.vocabulary ?? 2000);
      gone.add(at);
    }
    into.examples.splice(0, into.examples.length, ...examples);
  }
  return order.filter((_, at) => !gone.has(at));
}

/** The first of each list, then the second of each, and so on, up to `most` items. */
function interleaved<T>(lists: readonly (readonly T[])[], most: number): T[] {
  const out: T[] = [];
  for (let at = 0; out.length < most && lists.some((list) => at < list.length); at++)
    for (const list of lists) if (at < list.length && out.length < most) out.push(list[at] as T);
  return out;
}

function mergePass(
  clusters: readonly ClusterState[],
  boilerplate: ReadonlySet<string>,
  shared: Shared,
  options: MergeOptions,
): ClusterState[] {
  const minSize = options.minSize ?? 3;
  const keep = options.examples ?? 5;
  const vocabulary = options.vocabulary ?? 2000;
  const order = [...clusters].sort((a, b) => b.size - a.size || a.id - b.id);
  // Each cluster's root read up front, the same as at its turn (a cluster does not change before it:
  // only roots, placed before it, absorb), so the helping thread can tell verdicts ahead.
  const owns = order.map((cluster, place) => rootOf(cluster, place, boilerplate, shared.readings));
  shared.helper?.beginPass(
    owns.map((own) => own.identity),
    owns.map((own) => own.line),
    Uint8Array.from(order, (cluster) => (cluster.size < minSize ? 1 : 0)),
    shared.alignments.keep,
  );
  const roots: Root[] = [];
  const index = new RootIndex();
  for (const [place, cluster] of order.entries()) {
    shared.helper?.placing(place);
    const own = owns[place] as Root;
    const into =
      own.identity.length === 0 ? undefined : bestRoot(own, roots, index, shared, cluster.size < minSize);
    if (into !== undefined) {
      absorb(into, cluster, keep, vocabulary);
      shared.helper?.joined(place);
      // Its reading is never asked for again; the cluster it joined is read anew (its size changed).
      shared.readings.delete(cluster);
      continue;
    }
    roots.push(own);
    index.add(own.identity);
  }
  return roots.map((root) => root.cluster);
}

/**
 * A cluster's identity: the words and word pairs most members share (all of them for one member),
 * boilerplate left out (a pair is boilerplate when either word is), and its words in the order of the
 * member that holds most of them.
 */
function rootOf(
  cluster: ClusterState,
  place: number,
  boilerplate: ReadonlySet<string>,
  readings: Readings,
): Root {
  const { core, pairs, sequences } = readingOf(cluster, readings);
  const line = lineOf(sequences, boilerplate);
  const shared = core.filter((word) => !boilerplate.has(word));
  if (shared.length === 0) return { cluster, place, identity: [], line };
  const identity = [...shared];
  const kept = (first: string, second: string) => !boilerplate.has(first) && !boilerplate.has(second);
  // A cluster whose counts were dropped makes only the pairs kept.
  const held = pairs ?? droppedPairs(cluster, kept);
  for (let at = 0; at < held.length; at += 3)
    if (pairs === undefined || kept(held[at + 1] as string, held[at + 2] as string))
      identity.push(held[at] as string);
  return { cluster, place, identity, line };
}

/**
 * The longest of a cluster's read sequences, less its trailing boilerplate: boilerplate words stay in
 * the line ("is due" and "was due" are two templates' words in one place), but not at its end, where
 * they are a closing or a team line the mail reading left.
 */
function lineOf(
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

/** What {@link rootOf} reads of a cluster, read again only when the cluster changed (see below). */
function readingOf(cluster: ClusterState, readings: Readings): Reading {
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
    for (const [word, count] of wordCounts(cluster)) if (count >= floor) core.set(word, word);
    const held: string[] = [];
    for (const [pair, count] of pairCounts(cluster)) {
      if (count < floor) continue;
      const [first = "", second = ""] = pair.split(" ");
      held.push(pair, core.get(first) ?? first, core.get(second) ?? second);
    }
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

function bestRoot(
  own: Root,
  roots: readonly Root[],
  index: RootIndex,
  { alternatives, alignments, helper }: Shared,
  few: boolean,
): ClusterState | undefined {
  let best: ClusterState | undefined;
  let bestScore = 0;
  for (const at of index.nearest(own.identity, maxCompared)) {
    const root = roots[at] as Root;
    // The verdict the helping thread told, else told here (asked of the best yet, it may be cut short).
    const known = helper?.verdict(own.place, root.place);
    const score =
      known === undefined || (known < 0 && boundOf(known) > bestScore)
        ? joinScore(own, root, few, alternatives, alignments, bestScore)
        : known;
    if (score <= bestScore) continue;
    best = root.cluster;
    bestScore = score;
  }
  return best;
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
  restoreCounts(into);
  addCounts(into.words, wordCounts(from), vocabulary);
  addCounts(into.pairs, pairCounts(from), vocabulary);
  for (const example of from.examples) if (into.examples.length < keep) into.examples.push(example);
  for (const sequence of from.sequences)
    if (into.sequences.length < maxSequences) into.sequences.push(sequence);
  for (const subject of from.subjects) if (into.subjects.length < keep) into.subjects.push(subject);
  for (const entry of from.identifiers.values()) addIdentifier(into, entry.kind, entry.shown, entry.count);
  into.merged.push(...from.merged);
}
