import { align, alignedAtMost, type EndPlace } from "./align.js";
import type { Alternatives } from "./alternatives.js";
import type { ClusterState } from "./clusters.js";
import type { RootIndex } from "./merge-candidates.js";
import { identityOf, lineOf, type Readings, readingOf } from "./merge-readings.js";
import { isPlaceholder, numberToken, sentenceEnd } from "./tokens.js";

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

/** A cluster's line as the merge compares it: as a root (a bigger cluster others may join), or with roots. */
export interface Root {
  /** Its identity words in a member's order. */
  readonly line: readonly string[];
  /** How many times the line holds each token, once asked for (see {@link tokensOf}). */
  tokens?: ReadonlyMap<string, number>;
  /** The placeholders its line holds, each once, once asked for (see {@link placeholdersOf}). */
  placeholders?: readonly string[];
}

/** How many times a root's line holds each token: what the bounds and the frame of an alignment read. */
export function tokensOf(root: Root): ReadonlyMap<string, number> {
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

/** What placing a cluster among the roots of a pass reads: the merge's alternatives, the pass's boilerplate. */
export interface Placing {
  readonly alternatives: Alternatives;
  readonly boilerplate: ReadonlySet<string>;
}

/**
 * The root a cluster joins (see `mergeClusters` for when it does), by its number among `roots`, or -1:
 * of the bigger clusters sharing most of its identity, the one whose alignment scores best. `few`: the
 * cluster is a message or two.
 */
export function bestRoot(
  own: Root,
  identity: readonly string[],
  roots: readonly Root[],
  index: RootIndex,
  { alternatives, boilerplate }: Placing,
  few: boolean,
): number {
  if (identity.length === 0) return -1;
  let best = -1;
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
    const { matched, substitutions, partial, widest, leading, ends } = align(
      own.line,
      root.line,
      alternatives,
    );
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
    best = at;
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

/**
 * The root a message or two joins, by its number among `roots`, or -1. Once a pass has settled its roots
 * (clusters of three members or more, placed first), this depends on the cluster alone: its reading is
 * kept in `readings` as the pass keeps it, and it may be asked on any thread holding the same roots.
 */
export function placeFew(
  cluster: ClusterState,
  roots: readonly Root[],
  index: RootIndex,
  placing: Placing,
  readings: Readings,
): number {
  const reading = readingOf(cluster, readings);
  const own: Root = { line: lineOf(reading.sequences, placing.boilerplate) };
  return bestRoot(own, identityOf(cluster, reading, placing.boilerplate), roots, index, placing, true);
}
