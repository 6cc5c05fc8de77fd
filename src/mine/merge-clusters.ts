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
  wordCounts,
} from "./clusters.js";
import type { FewHelp, FewPlacer, SettledRoots } from "./few-placer.js";
import { RootIndex } from "./merge-candidates.js";
import { identityOf, lineOf, type Readings, readingOf } from "./merge-readings.js";
import { bestRoot, placeFew, type Root } from "./merge-roots.js";
import { variablePlaceGroups } from "./variable-places.js";

/** Options of {@link mergeClusters}. */
export interface MergeOptions {
  /** Clusters of fewer members do not count when telling boilerplate words. @default 3 */
  readonly minSize?: number;
  /** Example skeletons kept per cluster. @default 5 */
  readonly examples?: number;
  /** Distinct words counted per cluster. @default 2000 */
  readonly vocabulary?: number;
}

/** What the passes of one merge share: the alternatives learned, and what they read. */
interface Shared {
  readonly alternatives: Alternatives;
  /** The boilerplate of the pass running (see `boilerplateWords`). */
  boilerplate: ReadonlySet<string>;
  readonly readings: Readings;
}

/**
 * The merge pass, once every message has been read: clusters of one template that the reading split —
 * by a greeting or a sign-off, an optional sentence, a typo, another choice, a free-form tail — are
 * merged into the biggest of them. A cluster's identity is the words most of its members share, less
 * the boilerplate spread over many clusters (greetings, sign-offs, names, a team line, small words);
 * going from the biggest cluster down, each is aligned with the bigger clusters of three members or more
 * (`minSize`) sharing most of its identity, and merged into the best that one of these describes:
 * - it is a message or two (no recurring template of its own) holding most of the bigger one's identity
 *   in order, with at most two other words or phrases in place of its words (a free-form tail, typos and
 *   synonyms are what a person adds), within a frame of at least ten tokens that agree;
 * - or it is bigger, and differs from the bigger one in at most one place by a phrase (another choice,
 *   another slot), besides sentences only one of them holds (an optional sentence, a clause moved) and
 *   a greeting the mail reading left at its start, within a frame of at least ten tokens that agree.
 *   A word each writes in the other's place at the line's start or end is such a place ("Your order …"
 *   / "Sorry, order …": two templates that share their slots and the sentence around them, and differ
 *   by a phrase besides), unless one side's words are only boilerplate (a greeting, a closing).
 * Sentences both write in another order are aligned in one order, and tokens the history teaches are
 * written in one another's place (see `learnedAlternatives`: synonyms of a choice, a value two fields
 * hold) are one token.
 * Last, clusters whose short lines differ by one word at one place, three or more of them, are merged
 * when the place reads as a value's (see `variablePlaceGroups`). Words a member mistyped count as the words they stand for.
 * Two templates differing in two places or more, or sharing only a greeting and a sign-off, never merge.
 * A message or two is never one that others join: a long history holds thousands of one-off messages,
 * and compared as bigger clusters they were most of the few a template's stray message is aligned with
 * (those sharing most of its words, by a free-form sentence of its own), so it missed its template.
 * Deterministic: the order and the result depend on sizes and ids only, not on the `helper` that places
 * part of the first pass's messages-or-two on another thread (see `FewPlacer`). Returns the clusters that
 * remain, each with the ids merged into it.
 */
export function mergeClusters(
  clusters: readonly ClusterState[],
  options: MergeOptions = {},
  helper?: FewPlacer,
): ClusterState[] {
  const minSize = options.minSize ?? 3;
  // A template the reading split into many clusters makes its own words look spread over many: once
  // the first pass has joined them, the boilerplate is told again and the clusters merged once more.
  // Learned from the clusters as read, before merging joins any two.
  const alternatives = learnedAlternatives(clusters, minSize);
  const shared: Shared = {
    alternatives,
    boilerplate: boilerplateWords(clusters, minSize),
    readings: new Map(),
  };
  // The second pass places far fewer messages-or-two, most of them ruled out before any alignment.
  const once = mergePass(clusters, shared, options, helper);
  shared.boilerplate = boilerplateWords(once, minSize);
  const twice = mergePass(once, shared, options);
  return mergeVariablePlaces(twice, shared.readings, options);
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
  shared: Shared,
  options: MergeOptions,
  helper?: FewPlacer,
): ClusterState[] {
  const { boilerplate } = shared;
  const minSize = options.minSize ?? 3;
  const order = [...clusters].sort((a, b) => b.size - a.size || a.id - b.id);
  const roots: Root[] = [];
  const rootClusters: ClusterState[] = [];
  const identities: (readonly string[])[] = [];
  const index = new RootIndex();
  const remaining: ClusterState[] = [];
  const join = (into: ClusterState, cluster: ClusterState) => {
    absorb(into, cluster, options.examples ?? 5, options.vocabulary ?? 2000);
    // Its reading is never asked for again; the cluster it joined is read anew (its size changed).
    shared.readings.delete(cluster);
  };
  // Clusters of three members or more, biggest first: each joins a bigger one or is a root.
  let first = 0;
  for (; first < order.length && (order[first] as ClusterState).size >= minSize; first++) {
    const cluster = order[first] as ClusterState;
    const reading = readingOf(cluster, shared.readings);
    const own: Root = { line: lineOf(reading.sequences, boilerplate) };
    const identity = identityOf(cluster, reading, boilerplate);
    const into = bestRoot(own, identity, roots, index, shared, false);
    if (into !== -1) {
      join(rootClusters[into] as ClusterState, cluster);
      continue;
    }
    remaining.push(cluster);
    roots.push(own);
    rootClusters.push(cluster);
    identities.push(identity);
    index.add(identity);
  }
  // A message or two is no root (see `mergeClusters`), so with the roots settled each one's place
  // depends on itself alone: the places are found first, here and on the helper's thread, then taken.
  const few = order.slice(first);
  const places = fewPlaces(few, { roots, identities, index }, shared, helper);
  for (const [at, cluster] of few.entries()) {
    const into = places[at] as number;
    if (into === -1) remaining.push(cluster);
    else join(rootClusters[into] as ClusterState, cluster);
  }
  return remaining;
}

/** One-off clusters a pass must hold before part of them is placed on a helper's thread. */
export const fewForHelper = 2048;

/**
 * Where each of a pass's messages-or-two goes (a root's number, or -1), found in order from the first;
 * with a helper, it finds them from the last back on its own thread, and this one stops where the two
 * meet (see `FewPlacer`). The places are the same either way.
 */
function fewPlaces(
  few: readonly ClusterState[],
  settled: SettledRoots,
  shared: Shared,
  helper: FewPlacer | undefined,
): Int32Array {
  const places = new Int32Array(few.length);
  const progress =
    helper !== undefined && few.length >= fewForHelper ? helper.place(few, settled, shared) : undefined;
  let at = 0;
  for (; at < few.length; at++) {
    if (progress !== undefined && at >= progress.placedFrom()) break;
    places[at] = placeFew(few[at] as ClusterState, settled.roots, settled.index, shared, shared.readings);
    progress?.calledTo(at + 1);
  }
  for (; at < few.length; at++) places[at] = (progress as FewHelp).placeOf(at);
  return places;
}

function addCounts(into: Map<string, number>, from: ReadonlyMap<string, number>, bound: number): void {
  for (const [item, count] of from) addCount(into, item, count, bound);
}

/** Adds an item's count: to its own, or as a new item while fewer than `bound` are counted. */
function addCount(into: Map<string, number>, item: string, count: number, bound: number): void {
  const known = into.get(item);
  if (known !== undefined) into.set(item, known + count);
  else if (into.size < bound) into.set(item, count);
}

/** Adds a cluster's members to another: counts summed, lists kept within their bounds. */
function absorb(into: ClusterState, from: ClusterState, keep: number, vocabulary: number): void {
  into.size += from.size;
  into.resolved += from.resolved;
  for (const [source, count] of from.recipients)
    into.recipients.set(source, (into.recipients.get(source) ?? 0) + count);
  restoreCounts(into);
  const words = droppedWords(from);
  if (words === undefined) {
    addCounts(into.words, wordCounts(from), vocabulary);
    addCounts(into.pairs, pairCounts(from), vocabulary);
  } else {
    // One member whose counts were dropped: each of its words and pairs once, in the order its counts
    // would list them, read without making the maps.
    for (const word of words) addCount(into.words, word, 1, vocabulary);
    const pairs = droppedPairs(from);
    for (let at = 0; at < pairs.length; at += 3) addCount(into.pairs, pairs[at] as string, 1, vocabulary);
  }
  for (const example of from.examples) if (into.examples.length < keep) into.examples.push(example);
  for (const sequence of from.sequences)
    if (into.sequences.length < maxSequences) into.sequences.push(sequence);
  for (const subject of from.subjects) if (into.subjects.length < keep) into.subjects.push(subject);
  for (const entry of from.identifiers.values()) addIdentifier(into, entry.kind, entry.shown, entry.count);
  into.merged.push(...from.merged);
}
