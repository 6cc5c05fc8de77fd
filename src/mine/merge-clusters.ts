import { type Alignment, align, alignedAtMost, type EndPlace } from "./align.js";
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
import { RootIndex } from "./merge-candidates.js";
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
}

/** Bigger clusters aligned with each cluster, those sharing the most identity words first. */
const maxCompared = 6;
/** Most words on either side of the one place two clusters of one template may differ: a phrase. */
const maxPhrase = 6;
/**
 * Fewest tokens two clusters must agree on to merge, numbers not counted and a record's placeholder
 * counting as three (see `frameOf`): within a long frame a phrase that differs is another choice of one
 * template, while short lines differing by a phrase ("child init", "child in error state") or by a word
 * and a tail ("Receiving block" / "Received block … of size") are two messages.
 */
const minFrame = 10;

/**
 * How many placeholders two lines both hold (each as often as both hold it), by their tokens' counts and
 * the second's placeholders: a root's are read once, not from all of its tokens for each line compared.
 */
function sharedPlaceholders(
  a: ReadonlyMap<string, number>,
  b: ReadonlyMap<string, number>,
  inB: readonly string[],
): number {
  let shared = 0;
  for (const token of inB) shared += Math.min(a.get(token) ?? 0, b.get(token) ?? 0);
  return shared;
}

interface Root {
  readonly cluster: ClusterState;
  /** Its identity words in a member's order. */
  readonly line: readonly string[];
  /** How many times the line holds each token, once asked for (see {@link tokensOf}). */
  tokens?: ReadonlyMap<string, number>;
  /** Its line's number among the lines aligned, once aligned (see {@link Alignments}). */
  lineId?: number;
  /** The placeholders its line holds, each once, once asked for (see {@link placeholdersOf}). */
  placeholders?: readonly string[];
}

/** How many times a root's line holds each token: what the bounds and the frame of an alignment read. */
function tokensOf(root: Root): ReadonlyMap<string, number> {
  if (root.tokens !== undefined) return root.tokens;
  const tokens = new Map<string, number>();
  for (const token of root.line) tokens.set(token, (tokens.get(token) ?? 0) + 1);
  root.tokens = tokens;
  return tokens;
}

/** The placeholders a root's line holds, each once. */
function placeholdersOf(root: Root): readonly string[] {
  if (root.placeholders !== undefined) return root.placeholders;
  const placeholders: string[] = [];
  for (const token of tokensOf(root).keys()) if (isPlaceholder(token)) placeholders.push(token);
  root.placeholders = placeholders.length === 0 ? noPlaceholders : placeholders;
  return root.placeholders;
}

/** What most roots' lines hold of placeholders: one list for them all. */
const noPlaceholders: readonly string[] = [];

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

/** What the passes of one merge share: the alternatives learned, and what they read and aligned. */
interface Shared {
  readonly alternatives: Alternatives;
  /** The boilerplate of the pass running (see `boilerplateWords`). */
  boilerplate: ReadonlySet<string>;
  readonly readings: Readings;
  readonly alignments: Alignments;
}

/**
 * The alignments of one pass, kept for the next, by the two lines aligned: the second pass aligns many
 * of the first pass's lines again (clusters neither changed), and an alignment depends on the lines (and
 * the alternatives, the same in both passes) alone.
 */
class Alignments {
  /** Each line aligned, by its tokens. */
  private readonly lines = new Map<string, number>();
  private readonly known = new Map<number, Alignment>();
  /** Whether alignments made are kept (the last pass's are not asked for again). */
  keep = true;

  of(own: Root, root: Root, alternatives: Alternatives): Alignment {
    const key = this.idOf(own) * 2 ** 26 + this.idOf(root);
    const known = this.known.get(key);
    if (known !== undefined) return known;
    const made = align(own.line, root.line, alternatives);
    if (this.keep) this.known.set(key, made);
    return made;
  }

  /** The number of a root's line, the same for lines of the same tokens. */
  private idOf(root: Root): number {
    if (root.lineId !== undefined) return root.lineId;
    const key = root.line.join("\u0000");
    let id = this.lines.get(key);
    if (id === undefined) {
      id = this.lines.size;
      this.lines.set(key, id);
    }
    root.lineId = id;
    return id;
  }
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
 * Deterministic: the order and the result depend on sizes and ids only. Returns the clusters that remain,
 * each with the ids merged into it.
 */
export function mergeClusters(clusters: readonly ClusterState[], options: MergeOptions = {}): ClusterState[] {
  const minSize = options.minSize ?? 3;
  // A template the reading split into many clusters makes its own words look spread over many: once
  // the first pass has joined them, the boilerplate is told again and the clusters merged once more.
  // Learned from the clusters as read, before merging joins any two.
  const alternatives = learnedAlternatives(clusters, minSize);
  const shared: Shared = {
    alternatives,
    boilerplate: boilerplateWords(clusters, minSize),
    readings: new Map(),
    alignments: new Alignments(),
  };
  const once = mergePass(clusters, shared, options);
  shared.alignments.keep = false;
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

function mergePass(clusters: readonly ClusterState[], shared: Shared, options: MergeOptions): ClusterState[] {
  const { boilerplate } = shared;
  const minSize = options.minSize ?? 3;
  const keep = options.examples ?? 5;
  const vocabulary = options.vocabulary ?? 2000;
  const order = [...clusters].sort((a, b) => b.size - a.size || a.id - b.id);
  const roots: Root[] = [];
  const index = new RootIndex();
  const remaining: ClusterState[] = [];
  for (const cluster of order) {
    const reading = readingOf(cluster, shared.readings);
    const own: Root = { cluster, line: lineOf(reading.sequences, boilerplate) };
    // Asked for only until the root is indexed: roots do not keep it, so it is let go young.
    const identity = identityOf(cluster, reading, boilerplate);
    const few = cluster.size < minSize;
    const into = identity.length === 0 ? undefined : bestRoot(own, identity, roots, index, shared, few);
    if (into !== undefined) {
      absorb(into, cluster, keep, vocabulary);
      // Its reading is never asked for again; the cluster it joined is read anew (its size changed).
      shared.readings.delete(cluster);
      continue;
    }
    remaining.push(cluster);
    // A message or two is no root: only a recurring cluster is one that others join (see `bestRoot`).
    if (few) continue;
    roots.push(own);
    index.add(identity);
  }
  return remaining;
}

/**
 * A cluster's identity: the words and word pairs most members share (all of them for one member),
 * boilerplate left out (a pair is boilerplate when either word is). Its root's line holds its words in
 * the order of the member that holds most of them (see {@link lineOf}).
 */
function identityOf(cluster: ClusterState, reading: Reading, boilerplate: ReadonlySet<string>): string[] {
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

/**
 * What a root and its identity are read from (see {@link identityOf}), read again only when the
 * cluster changed (see below).
 */
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

function bestRoot(
  own: Root,
  identity: readonly string[],
  roots: readonly Root[],
  index: RootIndex,
  { alternatives, alignments, boilerplate }: Shared,
  few: boolean,
): ClusterState | undefined {
  let best: ClusterState | undefined;
  let bestScore = 0;
  for (const at of index.nearest(identity, maxCompared)) {
    const root = roots[at] as Root;
    const placeholders = sharedPlaceholders(tokensOf(own), tokensOf(root), placeholdersOf(root));
    // Aligning is quadratic: the tokens an alignment could match at most, in any order, rule out most
    // pairs, which could not join, nor score above the best yet (shares and frame grow with the tokens
    // matched).
    const most = alignedAtMost(tokensOf(own), root.line, alternatives);
    const [mostRootShare, mostOwnShare] = [most / root.line.length, most / own.line.length];
    if (
      mostRootShare < (few ? fewRootShare : rootShareNeeded) ||
      (!few && mostOwnShare < ownShareNeeded) ||
      frameOf(most, tokensOf(own), tokensOf(root), placeholders) < minFrame ||
      mostRootShare + mostOwnShare <= bestScore
    )
      continue;
    const { matched, substitutions, partial, widest, leading, ends } = alignments.of(own, root, alternatives);
    const rootShare = matched / root.line.length;
    const ownShare = matched / own.line.length;
    // A few words the line of a recurring message about records opens with, the other not: a greeting
    // the mail reading left in the line, not a place of the template.
    const greeting = !few && leading > 0 && placeholders > 0;
    // Between recurring clusters, a word in another's place at an end is a place too, but for a
    // greeting or a closing; a message or two may end with words of its own.
    const places = substitutions + partial - (greeting ? 1 : 0) + (few ? 0 : wordsInPlace(ends, boilerplate));
    const frame = frameOf(matched, tokensOf(own), tokensOf(root), placeholders);
    const joins = few
      ? rootShare >= fewRootShare && frame >= minFrame && places <= 2
      : rootShare >= rootShareNeeded &&
        ownShare >= ownShareNeeded &&
        places <= 1 &&
        widest <= maxPhrase &&
        frame >= minFrame;
    const score = rootShare + ownShare;
    if (!joins || score <= bestScore) continue;
    // The loose count the merge ruled pairs out by before (six tokens at least for a message or two)
    // still rules out a few more: asked only of a pair that would be the best yet.
    const needed = few
      ? Math.max(fewRootShare * root.line.length, fewMatched)
      : Math.max(rootShareNeeded * root.line.length, ownShareNeeded * own.line.length);
    if (mostMatched(tokensOf(own), tokensOf(root), alternatives) < needed) continue;
    best = root.cluster;
    bestScore = score;
  }
  return best;
}

/**
 * How many of the ends where two lines each hold words the other does not (see `Alignment.ends`) are
 * places where they differ: those where both sides write a word of their own, not only boilerplate (a
 * greeting, a closing, a name) or values (a date's tail masking did not take).
 */
function wordsInPlace(ends: readonly EndPlace[], boilerplate: ReadonlySet<string>): number {
  const own = (token: string) =>
    !boilerplate.has(token) && !isPlaceholder(token) && token !== numberToken && token !== sentenceEnd;
  let places = 0;
  for (const [first, second] of ends) if (first.some(own) && second.some(own)) places++;
  return places;
}

/**
 * How much of two lines agrees, of the `matched` tokens an alignment found: numbers left out (lines of
 * values agree on little but their shape: "<#> GET <#> status <#>" and "<#> POST <#> status <#>" are two
 * requests), each of the `placeholders` both write counting three (clusters writing the same record
 * fields share more than words).
 */
function frameOf(
  matched: number,
  a: ReadonlyMap<string, number>,
  b: ReadonlyMap<string, number>,
  placeholders: number,
): number {
  return matched - Math.min(a.get(numberToken) ?? 0, b.get(numberToken) ?? 0) + 2 * placeholders;
}

/**
 * At most how many tokens an alignment of two lines can match: the tokens both hold, plus, of the rest,
 * those that could still match another as a mistyped word, a value or an alternative (never more than
 * either side has).
 */
function mostMatched(
  a: ReadonlyMap<string, number>,
  b: ReadonlyMap<string, number>,
  alternatives: Alternatives,
): number {
  let common = 0;
  let restB = 0;
  for (const [token, inB] of b) {
    const both = Math.min(a.get(token) ?? 0, inB);
    common += both;
    if (inB > both && loosely(token, alternatives)) restB += inB - both;
  }
  let restA = 0;
  for (const [token, inA] of a) {
    const inB = b.get(token) ?? 0;
    if (inA > inB && loosely(token, alternatives)) restA += inA - inB;
  }
  return common + Math.min(restA, restB);
}

/**
 * Whether a token can match another that is not equal to it: a word long enough to be mistyped, a
 * value, or a word with alternatives.
 */
function loosely(token: string, alternatives: Alternatives): boolean {
  return token.length >= 5 || token === numberToken || isPlaceholder(token) || alternatives.has(token);
}

// A message or two may miss the optional sentences and add a tail of its own: half of the bigger
// cluster's line, in order, is enough when it is more than a few words.
const fewRootShare = 0.5;
const fewMatched = 6;
// Sentences one of two clusters holds and the other not (an optional one) leave a share well below one.
const rootShareNeeded = 0.4;
const ownShareNeeded = 0.5;

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
