import { type Alignment, align, alignedAtMost } from "./align.js";
import type { Alternatives } from "./alternatives.js";
import { isPlaceholder, numberToken } from "./tokens.js";

/**
 * A cluster's line as a merge pass compares it: the same on either thread of a merge (see
 * `MergeHelper`), which each compute what they ask of it.
 */
export interface Line {
  /** Its identity words in a member's order. */
  readonly line: readonly string[];
  /** How many times the line holds each token, once asked for (see {@link tokensOf}). */
  tokens?: ReadonlyMap<string, number>;
  /** Its line's number among the lines aligned, once aligned (see {@link Alignments}). */
  lineId?: number;
}

/** Most words on either side of the one place two clusters of one template may differ: a phrase. */
const maxPhrase = 6;
/**
 * Fewest tokens two clusters must agree on to merge, numbers not counted and a record's placeholder
 * counting as three (see `frameOf`): within a long frame a phrase that differs is another choice of one
 * template, while short lines differing by a phrase ("child init", "child in error state") or by a word
 * and a tail ("Receiving block" / "Received block … of size") are two messages.
 */
const minFrame = 10;
// A message or two may miss the optional sentences and add a tail of its own: half of the bigger
// cluster's line, in order, is enough when it is more than a few words.
const fewRootShare = 0.5;
const fewMatched = 6;
// Sentences one of two clusters holds and the other not (an optional one) leave a share well below one.
const rootShareNeeded = 0.4;
const ownShareNeeded = 0.5;

/** How many times a line holds each token: what the bounds and the frame of an alignment read. */
export function tokensOf(root: Line): ReadonlyMap<string, number> {
  if (root.tokens !== undefined) return root.tokens;
  const tokens = new Map<string, number>();
  for (const token of root.line) tokens.set(token, (tokens.get(token) ?? 0) + 1);
  root.tokens = tokens;
  return tokens;
}

/**
 * The alignments of one pass, kept for the next, by the two lines aligned: the second pass aligns many
 * of the first pass's lines again (clusters neither changed), and an alignment depends on the lines (and
 * the alternatives, the same in both passes) alone.
 */
export class Alignments {
  /** Each line aligned, by its tokens. */
  private readonly lines = new Map<string, number>();
  private readonly known = new Map<number, Alignment>();
  /** Whether alignments made are kept (the last pass's are not asked for again). */
  keep = true;

  of(own: Line, root: Line, alternatives: Alternatives): Alignment {
    const key = this.idOf(own) * 2 ** 26 + this.idOf(root);
    const known = this.known.get(key);
    if (known !== undefined) return known;
    const made = align(own.line, root.line, alternatives);
    if (this.keep) this.known.set(key, made);
    return made;
  }

  /** The number of a root's line, the same for lines of the same tokens. */
  private idOf(root: Line): number {
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
 * How well a cluster (`own`, of a message or two when `few`) joins a bigger one (`root`): the shares of
 * either line their alignment matches, summed, when the bigger one describes it (see `mergeClusters`),
 * else 0. A pure function of the two lines, `few` and the alternatives, so either thread of a merge may
 * tell it. Asked with `above` (the best score of another bigger cluster yet), it may instead tell a bound
 * of the score for a pair that could not score above that, found without aligning or checking it all:
 * as `-1 - bound` (see {@link boundOf}), a verdict below 0. Either way a pair is taken when its verdict
 * is above the best yet.
 */
export function joinScore(
  own: Line,
  root: Line,
  few: boolean,
  alternatives: Alternatives,
  alignments: Alignments,
  above = 0,
): number {
  const placeholders = sharedPlaceholders(tokensOf(own), tokensOf(root));
  // Aligning is quadratic: the tokens an alignment could match at most, in any order, rule out most
  // pairs, which could not join, nor score above the best yet (shares and frame grow with the tokens
  // matched).
  const most = alignedAtMost(tokensOf(own), root.line, alternatives);
  const [mostRootShare, mostOwnShare] = [most / root.line.length, most / own.line.length];
  if (
    mostRootShare < (few ? fewRootShare : rootShareNeeded) ||
    (!few && mostOwnShare < ownShareNeeded) ||
    frameOf(most, tokensOf(own), tokensOf(root), placeholders) < minFrame
  )
    return 0;
  if (mostRootShare + mostOwnShare <= above) return -1 - (mostRootShare + mostOwnShare);
  const { matched, substitutions, partial, widest, leading } = alignments.of(own, root, alternatives);
  const rootShare = matched / root.line.length;
  const ownShare = matched / own.line.length;
  // A few words the line of a recurring message about records opens with, the other not: a greeting
  // the mail reading left in the line, not a place of the template.
  const greeting = !few && leading > 0 && placeholders > 0;
  const places = substitutions + partial - (greeting ? 1 : 0);
  const frame = frameOf(matched, tokensOf(own), tokensOf(root), placeholders);
  const joins = few
    ? rootShare >= fewRootShare && frame >= minFrame && places <= 2
    : rootShare >= rootShareNeeded &&
      ownShare >= ownShareNeeded &&
      places <= 1 &&
      widest <= maxPhrase &&
      frame >= minFrame;
  const score = rootShare + ownShare;
  if (!joins) return 0;
  if (score <= above) return -1 - score;
  // The loose count the merge ruled pairs out by before (six tokens at least for a message or two)
  // still rules out a few more: asked only of a pair that would be the best yet.
  const needed = few
    ? Math.max(fewRootShare * root.line.length, fewMatched)
    : Math.max(rootShareNeeded * root.line.length, ownShareNeeded * own.line.length);
  if (mostMatched(tokensOf(own), tokensOf(root), alternatives) < needed) return 0;
  return score;
}

/** The bound of a score a verdict below 0 tells (see {@link joinScore}). */
export function boundOf(verdict: number): number {
  return -1 - verdict;
}

/** How many placeholders two lines both hold (each as often as both hold it), by their tokens' counts. */
function sharedPlaceholders(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
  let shared = 0;
  for (const [token, inB] of b) if (isPlaceholder(token)) shared += Math.min(a.get(token) ?? 0, inB);
  return shared;
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
