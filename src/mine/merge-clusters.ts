import { align } from "./align.js";
import { type Alternatives, learnedAlternatives } from "./alternatives.js";
import { boilerplateWords } from "./boilerplate.js";
import {
  addIdentifier,
  type ClusterState,
  maxSequences,
  pairCounts,
  restoreCounts,
  sharedShare,
  wordCounts,
} from "./clusters.js";
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

/** Clusters one identity word leads to: past this, the word says too little to look through. */
const maxPostings = 256;
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

/** How many placeholders two lines both hold (each as often as both hold it). */
function sharedPlaceholders(a: readonly string[], b: readonly string[]): number {
  const inA = new Map<string, number>();
  for (const token of a) if (isPlaceholder(token)) inA.set(token, (inA.get(token) ?? 0) + 1);
  let shared = 0;
  for (const token of b) {
    const left = inA.get(token) ?? 0;
    if (left === 0) continue;
    inA.set(token, left - 1);
    shared++;
  }
  return shared;
}

interface Root {
  readonly cluster: ClusterState;
  /** Its identity words and pairs, each once. */
  readonly identity: readonly string[];
  /** Its identity words in a member's order. */
  readonly line: readonly string[];
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
  const once = mergePass(clusters, boilerplateWords(clusters, minSize), alternatives, options);
  const twice = mergePass(once, boilerplateWords(once, minSize), alternatives, options);
  return mergeVariablePlaces(twice, options);
}

/**
 * Clusters whose lines differ only by one word at one place, three or more of them (see
 * `variablePlaceGroups`), are merged into the biggest: the word is a value masking did not take.
 */
function mergeVariablePlaces(clusters: readonly ClusterState[], options: MergeOptions): ClusterState[] {
  const order = [...clusters].sort((a, b) => b.size - a.size || a.id - b.id);
  // Whole lines, words spread over many clusters and all: a template split at a value into many
  // clusters makes its own words look like boilerplate, and a line cut of its last words is too short
  // to tell.
  const none = new Set<string>();
  const groups = variablePlaceGroups(
    order.map((cluster) => rootOf(cluster, none).line),
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
  alternatives: Alternatives,
  options: MergeOptions,
): ClusterState[] {
  const minSize = options.minSize ?? 3;
  const keep = options.examples ?? 5;
  const vocabulary = options.vocabulary ?? 2000;
  const order = [...clusters].sort((a, b) => b.size - a.size || a.id - b.id);
  const roots: Root[] = [];
  const postings = new Map<string, number[]>();
  for (const cluster of order) {
    const own = rootOf(cluster, boilerplate);
    const into =
      own.identity.length === 0
        ? undefined
        : bestRoot(own, roots, postings, alternatives, cluster.size < minSize);
    if (into !== undefined) {
      absorb(into, cluster, keep, vocabulary);
      continue;
    }
    const at = roots.length;
    roots.push(own);
    for (const word of own.identity) {
      const list = postings.get(word);
      if (list === undefined) postings.set(word, [at]);
      else if (list.length <= maxPostings) list.push(at);
    }
  }
  return roots.map((root) => root.cluster);
}

/**
 * A cluster's identity: the words and word pairs most members share (all of them for one member),
 * boilerplate left out (a pair is boilerplate when either word is), and its words in the order of the
 * member that holds most of them.
 */
function rootOf(cluster: ClusterState, boilerplate: ReadonlySet<string>): Root {
  const floor = sharedShare * cluster.size;
  const core = new Set<string>();
  for (const [word, count] of wordCounts(cluster)) if (count >= floor) core.add(word);
  const shared = [...core].filter((word) => !boilerplate.has(word));
  const identity = [...shared];
  for (const [pair, count] of pairCounts(cluster)) {
    if (count < floor) continue;
    const [first = "", second = ""] = pair.split(" ");
    if (!boilerplate.has(first) && !boilerplate.has(second)) identity.push(pair);
  }
  // Boilerplate words stay in the line ("is due" and "was due" are two templates' words in one place),
  // but not at its end, where they are a closing or a team line the mail reading left.
  let line: string[] = [];
  for (const sequence of cluster.sequences) {
    // A run of numbers is one, words not shared between them aside: a time or a date masking did not
    // take ("12. Januar 2026, 10:25") reads as one to four of them.
    const kept: string[] = [];
    for (const read of sequence) {
      // A member that mistyped a shared word still holds it in its place.
      const word = core.has(read) || read === sentenceEnd ? read : typoOf(read, core);
      if (word === undefined) continue;
      if (word === numberToken && kept.at(-1) === numberToken) continue;
      kept.push(word);
    }
    let end = kept.length;
    while (end > 0 && trailing(kept[end - 1] as string, boilerplate)) end--;
    if (end > line.length) line = kept.slice(0, end);
  }
  return { cluster, identity: shared.length === 0 ? [] : identity, line };
}

/** The shared word a token is a mistyped form of, if any. */
function typoOf(token: string, core: ReadonlySet<string>): string | undefined {
  if (token.length < 5 || isPlaceholder(token)) return undefined;
  for (const word of core) if (isTypoOf(token, word)) return word;
  return undefined;
}

/** A closing's or a team line's token: boilerplate words and sentence ends, never a value. */
function trailing(token: string, boilerplate: ReadonlySet<string>): boolean {
  if (token === sentenceEnd) return true;
  return boilerplate.has(token) && !isPlaceholder(token) && token !== numberToken;
}

/** Per root, how many identity items the cluster being placed shares with it; zeroed after each use. */
let commonCounts = new Int32Array(256);

function bestRoot(
  own: Root,
  roots: readonly Root[],
  postings: ReadonlyMap<string, readonly number[]>,
  alternatives: Alternatives,
  few: boolean,
): ClusterState | undefined {
  if (commonCounts.length < roots.length) commonCounts = new Int32Array(roots.length * 2);
  const counts = commonCounts;
  const met: number[] = [];
  for (const word of own.identity) {
    const list = postings.get(word);
    if (list === undefined || list.length > maxPostings) continue;
    for (const at of list) {
      if (counts[at] === 0) met.push(at);
      counts[at] = (counts[at] as number) + 1;
    }
  }
  // A bigger cluster sharing under a fifth of its identity cannot hold half of its line: not aligned.
  const ranked = met
    .filter((at) => (counts[at] as number) >= 0.2 * (roots[at] as Root).identity.length)
    .map((at) => [at, counts[at] as number] as const)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, maxCompared);
  for (const at of met) counts[at] = 0;
  let best: ClusterState | undefined;
  let bestScore = 0;
  for (const [at] of ranked) {
    const root = roots[at] as Root;
    // Aligning is quadratic; the tokens the two lines could match at most, in any order, rule most out.
    const needed = few
      ? Math.max(fewRootShare * root.line.length, fewMatched)
      : Math.max(rootShareNeeded * root.line.length, ownShareNeeded * own.line.length);
    if (mostMatched(own.line, root.line, alternatives) < needed) continue;
    const { matched, substitutions, partial, widest, leading } = align(own.line, root.line, alternatives);
    const rootShare = matched / root.line.length;
    const ownShare = matched / own.line.length;
    // A few words the line of a recurring message about records opens with, the other not: a greeting
    // the mail reading left in the line, not a place of the template.
    const placeholders = sharedPlaceholders(own.line, root.line);
    const greeting = !few && leading > 0 && placeholders > 0;
    const places = substitutions + partial - (greeting ? 1 : 0);
    const frame = frameOf(matched, own.line, root.line, placeholders);
    const joins = few
      ? rootShare >= fewRootShare && frame >= minFrame && places <= 2
      : rootShare >= rootShareNeeded &&
        ownShare >= ownShareNeeded &&
        places <= 1 &&
        widest <= maxPhrase &&
        frame >= minFrame;
    if (!joins) continue;
    const score = rootShare + ownShare;
    if (score > bestScore) {
      best = root.cluster;
      bestScore = score;
    }
  }
  return best;
}

/**
 * How much of two lines agrees, of the `matched` tokens an alignment found: numbers left out (lines of
 * values agree on little but their shape: "<#> GET <#> status <#>" and "<#> POST <#> status <#>" are two
 * requests), each of the `placeholders` both write counting three (clusters writing the same record
 * fields share more than words).
 */
function frameOf(matched: number, a: readonly string[], b: readonly string[], placeholders: number): number {
  const numbers = (line: readonly string[]) => line.filter((token) => token === numberToken).length;
  return matched - Math.min(numbers(a), numbers(b)) + 2 * placeholders;
}

/**
 * At most how many tokens an alignment of two lines can match: the tokens both hold, plus, of the rest,
 * those that could still match another as a mistyped word, a value or an alternative (never more than
 * either side has).
 */
function mostMatched(a: readonly string[], b: readonly string[], alternatives: Alternatives): number {
  const loosely = (token: string) => looseToken(token) || alternatives.has(token);
  const inA = new Map<string, number>();
  for (const token of a) inA.set(token, (inA.get(token) ?? 0) + 1);
  let common = 0;
  let restB = 0;
  for (const token of b) {
    const left = inA.get(token) ?? 0;
    if (left > 0) {
      inA.set(token, left - 1);
      common++;
    } else if (loosely(token)) restB++;
  }
  let restA = 0;
  for (const [token, left] of inA) if (left > 0 && loosely(token)) restA += left;
  return common + Math.min(restA, restB);
}

/** Whether a token can match another that is not equal to it: a word long enough to be mistyped, or a value. */
function looseToken(token: string): boolean {
  return token.length >= 5 || token === numberToken || isPlaceholder(token);
}

// A message or two may miss the optional sentences and add a tail of its own: half of the bigger
// cluster's line, in order, is enough when it is more than a few words.
const fewRootShare = 0.5;
const fewMatched = 6;
// Sentences one of two clusters holds and the other not (an optional one) leave a share well below one.
const rootShareNeeded = 0.4;
const ownShareNeeded = 0.5;

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
