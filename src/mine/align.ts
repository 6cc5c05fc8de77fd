import type { Alternatives } from "./alternatives.js";
import { isPlaceholder, isTypoOf, numberToken, sentenceEnd } from "./tokens.js";

/** How two token sequences line up: what they share in order, and where they differ. */
export interface Alignment {
  /** Tokens matched in order (a mistyped word matching the word). */
  readonly matched: number;
  /**
   * Places where both sequences hold tokens the other does not, between two matched tokens: another
   * word or phrase in the same place (a choice, a synonym, or another template's words).
   */
  readonly substitutions: number;
  /** The longest run of unmatched tokens on either side of a substitution. */
  readonly widest: number;
  /** Places where only one sequence holds tokens, whole sentences: an optional sentence, a tail, a moved one. */
  readonly insertions: number;
  /** Places inside a sentence where only one sequence holds tokens: a sentence changed, not left out. */
  readonly partial: number;
  /**
   * Tokens (a few, else 0) one sequence opens with before anything the two share, the other opening
   * with what they share, when they are one of the `partial` places: a greeting left in a line, or a
   * clause.
   */
  readonly leading: number;
  /**
   * The ends where each sequence holds words the other does not in its place, within the sentence
   * both write there (before anything they share, or after it), when each side's run is too short to
   * count as a changed sentence: each side's words. Each run alone is one of the `insertions`; a word
   * in another's place at an end is still a place where the two differ, unless it is a greeting or a
   * closing, which the reader of the alignment tells (see `mergeClusters`).
   */
  readonly ends: readonly EndPlace[];
}

/** What each of two sequences holds at one of their ends in place of the other's words. */
export type EndPlace = readonly [readonly string[], readonly string[]];

const noEnds: readonly EndPlace[] = [];

/** Longest sequence aligned: longer ones are cut, so an alignment costs at most this squared. */
const maxLength = 160;
// The score tables, reused by every alignment (one runs at a time): allocating them per call dominated.
const tableSize = (maxLength + 1) * (maxLength + 1);
const afterMatch = new Float64Array(tableSize);
const afterA = new Float64Array(tableSize);
const afterB = new Float64Array(tableSize);
const equal = new Uint8Array(tableSize);
/** The steps of the path an alignment found (see {@link align}), reused as the tables are. */
const steps = new Uint8Array(2 * maxLength);

/** Most words of a greeting: one side's opening words past these are a clause. */
const maxGreeting = 4;

/** What opening a place of difference costs against a token matched: among paths matching as many, the one with fewest places wins. */
const openCost = 0.3;

/** The alternatives of the alignment running (one runs at a time), read by {@link same}. */
let alike: Alternatives = new Map();

/**
 * Aligns two token sequences: as many tokens matched in order as possible (words equal, one mistyped,
 * or one of the other's `alternatives`), and among such alignments the one with the fewest places of
 * difference (a sentence only one side holds is one place, not split around a small word both happen to
 * hold). Sentences both hold in another order are read in `b`'s order: a template's sentences may be
 * written in any. Quadratic in the lengths, which are bounded.
 */
export function align(
  first: readonly string[],
  b: readonly string[],
  alternatives: Alternatives = new Map(),
): Alignment {
  alike = alternatives;
  const a = inOrderOf(first, b);
  const n = Math.min(a.length, maxLength);
  const m = Math.min(b.length, maxLength);
  const width = m + 1;
  markSame(a, n, b, m, width);
  // Only the cells this alignment reads are written before they are read: no clearing needed.
  fillScores(n, m, width);
  // The path, in the steps buffer: 0 a token of both matched, 1 a token of `a` only, 2 a token of `b`
  // only. Each table holds the best score of the suffixes a[i..], b[j..] after a step of its state.
  const path = steps;
  let length = 0;
  let i = 0;
  let j = 0;
  let state = 0;
  while (i < n || j < m) {
    const at = i * width + j;
    const here = (state === 0 ? afterMatch[at] : state === 1 ? afterA[at] : afterB[at]) as number;
    if (equal[at] === 1 && 1 + (afterMatch[at + width + 1] as number) === here) {
      state = 0;
      i++;
      j++;
    } else if (i < n && (afterA[at + width] as number) - (state === 1 ? 0 : openCost) === here) {
      state = 1;
      i++;
    } else {
      state = 2;
      j++;
    }
    path[length++] = state;
  }
  return describe(path, length, n === a.length ? a : a.slice(0, n), m === b.length ? b : b.slice(0, m));
}

/**
 * Fills the score tables for `n` tokens of one side and `m` of the other, from the ends back (see
 * {@link align}); `equal` is marked.
 */
function fillScores(n: number, m: number, width: number): void {
  // Read through locals (not a destructured array): the loop runs for every cell of every alignment.
  const matchedAfter = afterMatch;
  const skippedAfterA = afterA;
  const skippedAfterB = afterB;
  const same = equal;
  const end = n * width + m;
  matchedAfter[end] = 0;
  skippedAfterA[end] = 0;
  skippedAfterB[end] = 0;
  // The last row and column: only one side has tokens left, each skipped at a cost to open.
  for (let j = m - 1; j >= 0; j--) {
    const at = n * width + j;
    const skippedB = skippedAfterB[at + 1] as number;
    matchedAfter[at] = skippedB - openCost;
    skippedAfterA[at] = skippedB - openCost;
    skippedAfterB[at] = skippedB;
  }
  for (let i = n - 1; i >= 0; i--) {
    const rowStart = i * width;
    const rowEnd = rowStart + m;
    const lastSkippedA = skippedAfterA[rowEnd + width] as number;
    matchedAfter[rowEnd] = lastSkippedA - openCost;
    skippedAfterA[rowEnd] = lastSkippedA;
    skippedAfterB[rowEnd] = lastSkippedA - openCost;
    // The score after skipping a token of `b`, in the cell just filled to the right.
    let skippedB = lastSkippedA - openCost;
    // A cell with no match, most of them, takes the shorter branch.
    for (let at = rowEnd - 1; at >= rowStart; at--) {
      const skippedA = skippedAfterA[at + width] as number;
      // Opening a place of difference costs; going on with one does not.
      const openA = skippedA - openCost;
      const openB = skippedB - openCost;
      if (same[at] === 1) {
        const matched = 1 + (matchedAfter[at + width + 1] as number);
        matchedAfter[at] = larger(matched, larger(openA, openB));
        skippedAfterA[at] = larger(matched, larger(skippedA, openB));
        skippedB = larger(matched, larger(openA, skippedB));
      } else {
        matchedAfter[at] = larger(openA, openB);
        skippedAfterA[at] = larger(skippedA, openB);
        skippedB = larger(openA, skippedB);
      }
      skippedAfterB[at] = skippedB;
    }
  }
}

/**
 * The larger of two scores. Math.max minds NaN and -0, which scores never are, and cost a sixth of
 * {@link fillScores}, which runs for every cell of every alignment.
 */
function larger(x: number, y: number): number {
  // biome-ignore lint/complexity/useMathMinMax: see above.
  return x > y ? x : y;
}

/** Where a sequence holds each of its tokens, as {@link markSame} looks them up. */
interface Places {
  /** The places of each distinct token. */
  readonly where: ReadonlyMap<string, readonly number[]>;
  /** Its distinct words that could be mistyped (see `isTypoOf`). */
  readonly words: readonly string[];
  /** Its distinct placeholders. */
  readonly placeholders: readonly string[];
  /** The {@link Typos} its words were last filed in. */
  filedIn?: Typos;
  /** Its distinct tokens by their numbers in {@link filedIn}, with how often it holds each, once asked for. */
  numbered?: NumberedTokens | undefined;
}

/** A sequence's distinct tokens by number (see `Typos.numberOf`), each with how often it holds it. */
interface NumberedTokens {
  readonly tokens: Int32Array;
  readonly counts: Int32Array;
  /** Per token, its places. */
  readonly lists: readonly (readonly number[])[];
}

/**
 * The places of the sequences aligned, by sequence (kept while it is, and read-only: a sequence aligned
 * is not changed after): a merge aligns each cluster's line with several bigger ones, and each bigger
 * one with many.
 */
const placesOf = new WeakMap<readonly string[], Places>();

/** Where the first `m` tokens of `b` hold each token. */
function placesIn(b: readonly string[], m: number): Places {
  const known = placesOf.get(b);
  if (known !== undefined && b.length === m) return known;
  const where = new Map<string, number[]>();
  for (let j = 0; j < m; j++) {
    const token = b[j] as string;
    const list = where.get(token);
    if (list === undefined) where.set(token, [j]);
    else list.push(j);
  }
  const words: string[] = [];
  const placeholders: string[] = [];
  for (const token of where.keys()) {
    if (isPlaceholder(token)) placeholders.push(token);
    else if (token.length >= minTypoLength) words.push(token);
  }
  const places = { where, words, placeholders };
  if (b.length === m) placesOf.set(b, places);
  return places;
}

/**
 * Marks in `equal` the cells whose tokens are one word (see {@link same}), for the first `n` tokens of
 * `a` and `m` of `b`: each distinct token of `a` is looked for once, among the few tokens of `b` it could
 * be one word with (itself, its alternatives, a value's tokens, words of about its length), rather than
 * compared with every token.
 */
function markSame(a: readonly string[], n: number, b: readonly string[], m: number, width: number): void {
  equal.fill(0, 0, (n + 1) * width);
  const mistyped = typosWith(alike);
  const { numbers, kinds, alternatives, found } = rowsOf(a, mistyped);
  const places = filedPlacesIn(b, m);
  const { where, placeholders } = places;
  // `b`'s places by token number, found without hashing `a`'s tokens again for each line aligned.
  const { lists } = markHeld(numberedIn(places, mistyped), mistyped.numbered);
  for (let i = 0; i < n; i++) {
    const row = i * width;
    const number = numbers[i] as number;
    if (heldMark[number] === comparison) mark(row, lists[heldAt[number] as number]);
    const others = alternatives[i];
    if (others !== undefined) for (const alternative of others) mark(row, where.get(alternative));
    const kind = kinds[i];
    if (kind === valueKind) for (const placeholder of placeholders) mark(row, where.get(placeholder));
    else if (kind === placeholderKind) mark(row, where.get(numberToken));
    else if (kind === wordKind)
      for (const typo of mistyped.read(found[i] as Found)) mark(row, where.get(typo));
  }
}

/** What {@link markSame} reads of each token of a first line (see {@link rowsOf}). */
interface Rows {
  readonly line: readonly string[];
  /** The {@link Typos} its tokens are numbered and its words looked up in. */
  readonly typos: Typos;
  readonly numbers: Int32Array;
  /** Per token, {@link valueKind}, {@link placeholderKind}, {@link wordKind} or 0 (none of them). */
  readonly kinds: Uint8Array;
  readonly alternatives: readonly (ReadonlySet<string> | undefined)[];
  /** Per word that could be mistyped, its entry in the {@link Typos}. */
  readonly found: readonly (Found | undefined)[];
}

/** A number masking did not take, which a placeholder of the other line may stand for. */
const valueKind = 1;
const placeholderKind = 2;
/** A word long enough to be mistyped (see `isTypoOf`). */
const wordKind = 3;

/**
 * The first line {@link rowsOf} read last: a merge aligns each cluster's line with a few others in a
 * row, and one is as much as is worth keeping.
 */
let lastRows: Rows | undefined;

/** What {@link markSame} reads of each token of a first line, read once while it is aligned in a row. */
function rowsOf(line: readonly string[], typos: Typos): Rows {
  if (lastRows !== undefined && lastRows.line === line && lastRows.typos === typos) return lastRows;
  const numbers = new Int32Array(line.length);
  const kinds = new Uint8Array(line.length);
  const alternatives: (ReadonlySet<string> | undefined)[] = [];
  const found: (Found | undefined)[] = [];
  for (let at = 0; at < line.length; at++) {
    const token = line[at] as string;
    numbers[at] = typos.numberOf(token);
    alternatives.push(alike.get(token));
    const kind =
      token === numberToken
        ? valueKind
        : isPlaceholder(token)
          ? placeholderKind
          : token.length >= minTypoLength
            ? wordKind
            : 0;
    kinds[at] = kind;
    found.push(kind === wordKind ? typos.entry(token) : undefined);
  }
  lastRows = { line, typos, numbers, kinds, alternatives, found };
  return lastRows;
}

/** Marks in `equal` the places of `b` a row's token is one word with. */
function mark(row: number, places: readonly number[] | undefined): void {
  if (places !== undefined) for (let k = 0; k < places.length; k++) equal[row + (places[k] as number)] = 1;
}

/** {@link placesIn}, its words filed among the mistyped words of the alignments running. */
function filedPlacesIn(b: readonly string[], m: number): Places {
  const places = placesIn(b, m);
  const mistyped = typosWith(alike);
  if (places.filedIn !== mistyped) {
    mistyped.file(places.words);
    places.filedIn = mistyped;
    places.numbered = undefined;
  }
  return places;
}

/** The distinct tokens of filed places by their numbers in the {@link Typos} they were filed in. */
function numberedIn(places: Places, numbers: Typos): NumberedTokens {
  if (places.numbered !== undefined) return places.numbered;
  const tokens = new Int32Array(places.where.size);
  const counts = new Int32Array(places.where.size);
  const lists: (readonly number[])[] = [];
  places.where.forEach((list, token) => {
    tokens[lists.length] = numbers.numberOf(token);
    counts[lists.length] = list.length;
    lists.push(list);
  });
  places.numbered = { tokens, counts, lists };
  return places.numbered;
}

/**
 * How often the line {@link alignedAtMost} compares with (or {@link markSame} aligns with) holds each
 * token, and where its places are among the line's (see `NumberedTokens.lists`), by the token's number:
 * read when {@link heldMark} holds the mark of the comparison running, else the line holds none. Marked
 * per comparison rather than cleared, and grown as tokens are numbered.
 */
let heldIn = new Int32Array(1024);
let heldAt = new Int32Array(1024);
let heldMark = new Int32Array(1024);
let comparison = 0;

/** Marks the held counts and places of a line's numbered tokens for a new comparison. */
function markHeld(numbered: NumberedTokens, size: number): NumberedTokens {
  const { tokens, counts } = numbered;
  if (size > heldIn.length) {
    const grown = Math.max(size, heldIn.length * 2);
    heldIn = new Int32Array(grown);
    heldAt = new Int32Array(grown);
    heldMark = new Int32Array(grown);
    comparison = 0;
  }
  if (comparison === 0x3fffffff) {
    heldMark.fill(0);
    comparison = 0;
  }
  comparison++;
  for (let k = 0; k < tokens.length; k++) {
    const token = tokens[k] as number;
    heldIn[token] = counts[k] as number;
    heldAt[token] = k;
    heldMark[token] = comparison;
  }
  return numbered;
}

/**
 * At most how many tokens {@link align} matches in two sequences, whatever their order: every token an
 * alignment counts is a token of `a` paired with its own token of `b` that it is one word with (on the
 * path, in a clause moved, a value both write), but for the sentence ends of a clause moved, counted
 * with no partner. So at most `a`'s sentence ends, and each other token of `a` as often as both `a`
 * holds it and `b` holds tokens it is one word with. Far cheaper than aligning, it rules out lines that
 * share words in no order or at no place. `a` is given as how many times it holds each token: a merge
 * has those of every line it compares, and the places of a line asked about once are not worth keeping
 * (kept for every line of a merge, they were a tenth of its memory). What it reads of `a` is kept until
 * it is asked about another line (see {@link FirstLine}): `a` must not change in between.
 */
export function alignedAtMost(
  a: ReadonlyMap<string, number>,
  b: readonly string[],
  alternatives: Alternatives,
): number {
  alike = alternatives;
  const places = filedPlacesIn(b, b.length);
  const mistyped = typosWith(alternatives);
  const { tokens, numbers, held, others, mistypable, found, ends } = firstLineOf(a, alternatives);
  const { where, placeholders } = places;
  // `b`'s counts by token number, read without hashing `a`'s tokens again for each line compared.
  markHeld(numberedIn(places, mistyped), mistyped.numbered);
  // Each sentence end counts; each other token as often as `a` holds it and `b` holds tokens it is one
  // word with, counted up to that.
  let most = ends;
  for (let at = 0; at < tokens.length; at++) {
    const token = tokens[at] as string;
    const enough = held[at] as number;
    const number = numbers[at] as number;
    let count = heldMark[number] === comparison ? (heldIn[number] as number) : 0;
    if (count >= enough) {
      most += enough;
      continue;
    }
    const alternativesOf = others[at];
    if (alternativesOf !== undefined)
      for (const other of alternativesOf) count += where.get(other)?.length ?? 0;
    let kin: readonly string[] = noTokens;
    if (token === numberToken) kin = placeholders;
    else if (mistypable[at] === true) {
      let word = found[at];
      if (word === undefined) {
        word = mistyped.entry(token);
        found[at] = word;
      }
      kin = mistyped.read(word);
    } else if (isPlaceholder(token)) kin = numberOnly;
    for (let k = 0; k < kin.length && count < enough; k++) count += where.get(kin[k] as string)?.length ?? 0;
    most += Math.min(count, enough);
  }
  return most;
}

/**
 * A first line of {@link alignedAtMost} as it reads it, once for all the lines it is compared with in a
 * row (a merge compares each with a few, one after the other): its tokens (sentence ends aside) with how
 * often it holds each, each token's alternatives, and for a word that could be mistyped, its entry in the
 * {@link Typos} of the alignments running once needed. Each was looked up in a map per token and per
 * line compared.
 */
interface FirstLine {
  /** The line's counts. */
  readonly a: ReadonlyMap<string, number>;
  /** The alternatives it was read with, whose {@link Typos} its words' entries are in. */
  readonly alternatives: Alternatives;
  readonly tokens: readonly string[];
  /** Its tokens' numbers in the {@link Typos} of its alternatives (see `Typos.numberOf`). */
  readonly numbers: Int32Array;
  readonly held: readonly number[];
  readonly others: readonly (ReadonlySet<string> | undefined)[];
  /** Per token, whether it is a word that could be mistyped (see `isTypoOf`). */
  readonly mistypable: readonly boolean[];
  /** Per such word, its entry in the {@link Typos}, once looked up. */
  readonly found: (Found | undefined)[];
  /** How many sentence ends it holds: each may be matched with no partner (see above). */
  readonly ends: number;
}

/**
 * The line last read by {@link firstLineOf}: only one is kept, since kept for every line of a merge they
 * would add to its memory at its peak what the places of its lines did.
 */
let lastFirstLine: FirstLine | undefined;

/** {@link FirstLine} of a line given as its tokens' counts. */
function firstLineOf(a: ReadonlyMap<string, number>, alternatives: Alternatives): FirstLine {
  const known = lastFirstLine;
  if (known !== undefined && known.a === a && known.alternatives === alternatives) return known;
  const tokens: string[] = [];
  const held: number[] = [];
  const others: (ReadonlySet<string> | undefined)[] = [];
  const mistypable: boolean[] = [];
  let ends = 0;
  // Read by forEach: iterating the entries made an array for each.
  a.forEach((count, token) => {
    if (token === sentenceEnd) {
      ends += count;
      return;
    }
    tokens.push(token);
    held.push(count);
    others.push(alternatives.get(token));
    mistypable.push(token !== numberToken && !isPlaceholder(token) && token.length >= minTypoLength);
  });
  const found = new Array<Found | undefined>(tokens.length).fill(undefined);
  const mistyped = typosWith(alternatives);
  const numbers = new Int32Array(tokens.length);
  for (let at = 0; at < tokens.length; at++) numbers[at] = mistyped.numberOf(tokens[at] as string);
  lastFirstLine = { a, alternatives, tokens, numbers, held, others, mistypable, found, ends };
  return lastFirstLine;
}

const noTokens: readonly string[] = [];
const numberOnly: readonly string[] = [numberToken];

/**
 * The words that could be mistyped (see `isTypoOf`) of the sequences aligned, each filed once, and for
 * each word looked up, which of them it is a mistyped form of: the lines of a merge write a few hundred
 * such words, so each word is compared with them once, not in every alignment. Filed by length and
 * first letter, and again by length and last letter (see {@link fileKey}): a mistyped word keeps one.
 * It numbers the lines' tokens too, for {@link alignedAtMost}: what the alignments of one merge share.
 */
class Typos {
  private readonly filed = new Map<number, string[]>();
  /** Each token of the lines compared, by its number (0, 1, 2… in the order first asked for). */
  private readonly numbers = new Map<string, number>();
  private readonly known = new Set<string>();
  private readonly found = new Map<string, Found>();

  /** The number of a token among those of the lines compared: one per distinct token. */
  numberOf(token: string): number {
    let number = this.numbers.get(token);
    if (number === undefined) {
      number = this.numbers.size;
      this.numbers.set(token, number);
    }
    return number;
  }

  /** How many tokens were numbered. */
  get numbered(): number {
    return this.numbers.size;
  }

  /** Files words, each once. */
  file(words: readonly string[]): void {
    for (const word of words) {
      if (this.known.has(word)) continue;
      this.known.add(word);
      this.add(fileKey(word.length, word.charCodeAt(0), false), word);
      this.add(fileKey(word.length, word.charCodeAt(word.length - 1), true), word);
    }
  }

  /** The words filed that a word is a mistyped form of, the word itself aside. */
  of(word: string): readonly string[] {
    return this.read(this.entry(word));
  }

  /** What is found of a word, read up to date by {@link read}. */
  entry(word: string): Found {
    let found = this.found.get(word);
    if (found === undefined) {
      found = { word, typos: [], read: [0, 0, 0, 0, 0, 0], filed: -1 };
      this.found.set(word, found);
    }
    return found;
  }

  /** The words filed that a word found is a mistyped form of, the files read to their ends. */
  read(found: Found): readonly string[] {
    const { word, typos, read } = found;
    if (found.filed === this.known.size) return typos;
    found.filed = this.known.size;
    const first = word.charCodeAt(0);
    const last = word.charCodeAt(word.length - 1);
    let file = 0;
    for (let length = word.length - 1; length <= word.length + 1; length++)
      for (const byLast of [false, true]) {
        const words = this.filed.get(fileKey(length, byLast ? last : first, byLast)) ?? noTokens;
        for (let at = read[file] as number; at < words.length; at++) {
          const other = words[at] as string;
          // One keeping both letters is read by its first.
          if (byLast && other.charCodeAt(0) === first) continue;
          if (other !== word && isTypoOf(word, other)) typos.push(other);
        }
        read[file++] = words.length;
      }
    return typos;
  }

  private add(key: number, word: string): void {
    const words = this.filed.get(key);
    if (words === undefined) this.filed.set(key, [word]);
    else words.push(word);
  }
}

/** What {@link Typos} found of a word looked up. */
interface Found {
  readonly word: string;
  /** Its mistyped forms among the words filed. */
  readonly typos: string[];
  /** How far each of the six files it is looked for in was read. */
  readonly read: number[];
  /** How many words were filed when it was last looked up: the files were read to their ends. */
  filed: number;
}

/** Where {@link Typos} files a word of a length by its first letter, or by its last. */
function fileKey(length: number, letter: number, byLast: boolean): number {
  return (length * 0x10000 + letter) * 2 + (byLast ? 1 : 0);
}

/** The {@link Typos} of the alignments with one set of alternatives: a merge's. */
const typosOf = new WeakMap<Alternatives, Typos>();

function typosWith(alternatives: Alternatives): Typos {
  let typos = typosOf.get(alternatives);
  if (typos === undefined) {
    typos = new Typos();
    typosOf.set(alternatives, typos);
  }
  return typos;
}

/** Shortest word {@link isTypoOf} reads as mistyped. */
const minTypoLength = 5;

/**
 * Reads a path as places of difference. A lone matched token inside a difference ("the" in two
 * different sentences) is part of it, not an anchor: it would make one difference look like two. A
 * place only one side holds is whole sentences when it starts where a sentence starts and ends where one
 * ends ({@link sentenceEnd}, or the sequence's own start and end).
 */
function describe(path: Uint8Array, length: number, a: readonly string[], b: readonly string[]): Alignment {
  let matched = 0;
  let substitutions = 0;
  let widest = 0;
  let i = 0;
  let j = 0;
  let fromA = 0;
  let fromB = 0;
  let anchored = false;
  // Places only one side holds, kept until the end: one side's run equal to the other's elsewhere is a
  // clause moved, not a difference.
  const onlyA: { from: number; to: number }[] = [];
  const onlyB: { from: number; to: number }[] = [];
  const close = (inside: boolean) => {
    const skippedA = i - fromA;
    const skippedB = j - fromB;
    if (skippedA > 0 && skippedB > 0 && inside) {
      substitutions++;
      widest = Math.max(widest, skippedA, skippedB);
      return;
    }
    if (skippedA > 0) onlyA.push({ from: fromA, to: i });
    if (skippedB > 0) onlyB.push({ from: fromB, to: j });
  };
  for (let at = 0; at < length; at++) {
    const step = path[at];
    if (step === 0) {
      const open = i > fromA || j > fromB;
      // Before anything matched, a few words only one side opens with (a greeting) are no difference to
      // be in.
      const greeting =
        !anchored && ((i === fromA && j - fromB <= maxGreeting) || (j === fromB && i - fromA <= maxGreeting));
      const lone =
        open && !greeting && (at === 0 || path[at - 1] !== 0) && at + 1 < length && path[at + 1] !== 0;
      if (!lone) {
        close(anchored);
        anchored = true;
        matched++;
        fromA = i + 1;
        fromB = j + 1;
      }
      i++;
      j++;
    } else if (step === 1) i++;
    else j++;
  }
  // Differences before the first or after the last shared token are ends that differ, not a place inside.
  close(false);
  let insertions = 0;
  let partial = 0;
  let leading = 0;
  const moved = new Set<{ from: number; to: number }>();
  for (const run of onlyA) {
    const twin = onlyB.find((other) => !moved.has(other) && sameRun(a, run, b, other));
    if (twin === undefined) continue;
    moved.add(run);
    moved.add(twin);
    matched += run.to - run.from;
  }
  // A slot one side writes in another clause ("first noticed on {{date}}" / "since {{date}}"): the
  // clause moved and was reworded around the value, which is the same.
  for (const run of onlyA) {
    if (moved.has(run)) continue;
    const twin = onlyB.find((other) => !moved.has(other) && sharesPlaceholder(a, run, b, other));
    if (twin === undefined) continue;
    moved.add(run);
    moved.add(twin);
    matched += 1;
  }
  // A clause one side writes elsewhere, opening with the same words and going on with others
  // ("because the part is back-ordered" / "because the paint shop is booked"): moved, and another
  // phrase in it, one place like a substitution.
  for (const run of onlyA) {
    if (moved.has(run)) continue;
    let opening = 0;
    const twin = onlyB.find((other) => {
      // Whole sentences on both sides are sentences left out or added, which cost no place.
      if (
        moved.has(other) ||
        (wholeSentences(a, run.from, run.to) && wholeSentences(b, other.from, other.to))
      )
        return false;
      opening = sharedOpening(a, run, b, other);
      return opening > 0;
    });
    if (twin === undefined) continue;
    moved.add(run);
    moved.add(twin);
    matched += opening;
    substitutions++;
    widest = Math.max(widest, run.to - run.from - opening, twin.to - twin.from - opening);
  }
  const ends = endPlaces(a, onlyA, b, onlyB, moved);
  for (const [tokens, runs] of [
    [a, onlyA],
    [b, onlyB],
  ] as const) {
    for (const run of runs) {
      if (moved.has(run)) continue;
      if (wholeSentences(tokens, run.from, run.to)) insertions++;
      // One word more inside a sentence ("at", a time masking did not take) is not a changed sentence,
      // nor when whole sentences follow or precede it.
      else if (changesSentence(tokens, run)) {
        partial++;
        const oneSide = !(onlyA[0]?.from === 0 && onlyB[0]?.from === 0);
        if (run.from === 0 && run.to <= maxGreeting && oneSide) leading = run.to;
      } else insertions++;
    }
  }
  return { matched, substitutions, widest, insertions, partial, leading, ends };
}

type Run = { from: number; to: number };

/**
 * The ends (see `Alignment.ends`) where both sequences hold a run the other does not, neither moved
 * and each inside the sentence both write there (neither whole sentences nor holding a sentence's
 * end) and too short to be a changed sentence (see `changesSentence`, which would count it as a place
 * already): a word in another's place at the line's opening ("your shipment …" / "sorry, shipment …")
 * or at its close, which read side by side are two words each side alone holds, no place at all.
 */
function endPlaces(
  a: readonly string[],
  onlyA: readonly Run[],
  b: readonly string[],
  onlyB: readonly Run[],
  moved: ReadonlySet<Run>,
): readonly EndPlace[] {
  const inSentence = (tokens: readonly string[], run: Run | undefined): run is Run =>
    run !== undefined &&
    !moved.has(run) &&
    !wholeSentences(tokens, run.from, run.to) &&
    !changesSentence(tokens, run) &&
    !holds(tokens, run, sentenceEnd);
  const ends: EndPlace[] = [];
  const [firstA, firstB, lastA, lastB] = [onlyA[0], onlyB[0], onlyA.at(-1), onlyB.at(-1)];
  if (firstA?.from === 0 && firstB?.from === 0 && inSentence(a, firstA) && inSentence(b, firstB))
    ends.push([a.slice(0, firstA.to), b.slice(0, firstB.to)]);
  if (
    lastA?.to === a.length &&
    lastB?.to === b.length &&
    lastA.from > 0 &&
    lastB.from > 0 &&
    inSentence(a, lastA) &&
    inSentence(b, lastB)
  )
    ends.push([a.slice(lastA.from), b.slice(lastB.from)]);
  return ends.length === 0 ? noEnds : ends;
}

/**
 * Whether a run only one side holds, not whole sentences, changes a sentence: two words or more of it
 * inside the sentence it starts in or the one it ends in.
 */
function changesSentence(tokens: readonly string[], run: { from: number; to: number }): boolean {
  const first = tokens.indexOf(sentenceEnd, run.from);
  if (first === -1 || first >= run.to) return run.to - run.from > 1;
  const last = tokens.lastIndexOf(sentenceEnd, run.to - 1);
  const head = run.from === 0 || tokens[run.from - 1] === sentenceEnd ? 0 : first - run.from;
  const tail = run.to === tokens.length || tokens[run.to] === sentenceEnd ? 0 : run.to - last - 1;
  return head > 1 || tail > 1;
}

/** Whether a run of tokens starts where a sentence starts and ends where one ends. */
function wholeSentences(tokens: readonly string[], from: number, to: number): boolean {
  const starts = from === 0 || tokens[from - 1] === sentenceEnd || tokens[from] === sentenceEnd;
  const ends = to === tokens.length || tokens[to - 1] === sentenceEnd || tokens[to] === sentenceEnd;
  return starts && ends;
}

/** Whether two runs hold the same tokens, sentence ends aside. */
function sameRun(
  a: readonly string[],
  runA: { from: number; to: number },
  b: readonly string[],
  runB: { from: number; to: number },
): boolean {
  const length = wordsIn(a, runA);
  if (length === 0 || length !== wordsIn(b, runB)) return false;
  // Read side by side, sentence ends skipped (no copies: runs are compared pair by pair).
  let i = runA.from;
  let j = runB.from;
  for (let k = 0; k < length; k++, i++, j++) {
    while (a[i] === sentenceEnd) i++;
    while (b[j] === sentenceEnd) j++;
    if (!same(a[i] as string, b[j] as string)) return false;
  }
  return true;
}

/** How many tokens of a run are not sentence ends. */
function wordsIn(tokens: readonly string[], run: { from: number; to: number }): number {
  let words = 0;
  for (let at = run.from; at < run.to; at++) if (tokens[at] !== sentenceEnd) words++;
  return words;
}

/**
 * How many words two runs of two words or more open with alike, when they are words (a clause's
 * opening, not a value), sentence ends aside; 0 when their first words differ.
 */
function sharedOpening(
  a: readonly string[],
  runA: { from: number; to: number },
  b: readonly string[],
  runB: { from: number; to: number },
): number {
  const left = wordsIn(a, runA);
  const right = wordsIn(b, runB);
  if (left < 2 || right < 2) return 0;
  let opening = 0;
  let i = runA.from;
  let j = runB.from;
  for (; opening < left - 1 && opening < right - 1; opening++, i++, j++) {
    while (a[i] === sentenceEnd) i++;
    while (b[j] === sentenceEnd) j++;
    const word = a[i] as string;
    if (word !== b[j] || isPlaceholder(word) || word === numberToken) break;
  }
  return opening;
}

/**
 * Whether two runs hold one value in common: a placeholder both write, or one a side writes and the
 * other never does, writing a number in its run instead (the value, which masking did not take there).
 */
function sharesPlaceholder(
  a: readonly string[],
  runA: { from: number; to: number },
  b: readonly string[],
  runB: { from: number; to: number },
): boolean {
  for (let at = runA.from; at < runA.to; at++) {
    const token = a[at] as string;
    if (isPlaceholder(token) && (holds(b, runB, token) || unmasked(b, runB, token))) return true;
  }
  for (let at = runB.from; at < runB.to; at++) {
    const token = b[at] as string;
    if (isPlaceholder(token) && unmasked(a, runA, token)) return true;
  }
  return false;
}

/** Whether a run holds a token. */
function holds(tokens: readonly string[], run: { from: number; to: number }, token: string): boolean {
  for (let at = run.from; at < run.to; at++) if (tokens[at] === token) return true;
  return false;
}

/** Whether a run writes a number where its line never writes a placeholder: the value, not masked. */
function unmasked(line: readonly string[], run: { from: number; to: number }, placeholder: string): boolean {
  return holds(line, run, numberToken) && !line.includes(placeholder);
}

/**
 * Whether two tokens are one word: equal, alternatives, one mistyped, or a value in both (a placeholder
 * where the other message wrote a number masking did not take for the record's value).
 */
function same(a: string, b: string): boolean {
  return sameWith(a, alike.get(a), b);
}

/** {@link same}, given the alternatives of `a`. */
function sameWith(a: string, alternatives: ReadonlySet<string> | undefined, b: string): boolean {
  if (a === b) return true;
  if (alternatives?.has(b) === true) return true;
  if (a === numberToken) return isPlaceholder(b);
  if (b === numberToken) return isPlaceholder(a);
  return isTypoOf(a, b);
}

/**
 * `a` with the sentences it shares with `b` (the same tokens, sentence ends aside) put in `b`'s order,
 * each where one of them was; `a` itself when they already are in it. Sentences are read as where they
 * start in their sequence: most lines compared share none, or share them in order, and need no copy.
 */
function inOrderOf(a: readonly string[], b: readonly string[]): readonly string[] {
  if (!a.includes(sentenceEnd) || !b.includes(sentenceEnd)) return a;
  const mine = sentenceStarts(a);
  const theirs = sentenceStarts(b);
  // Per sentence of `a`, the sentence of `b` it is, if any.
  const used = new Uint8Array(theirs.length);
  const twin: number[] = [];
  for (let index = 0; index + 1 < mine.length; index++) {
    const from = mine[index] as number;
    const length = (mine[index + 1] as number) - 1 - from;
    let at = -1;
    if (length >= 2)
      for (let other = 0; other + 1 < theirs.length; other++) {
        const otherFrom = theirs[other] as number;
        if (used[other] === 1 || (theirs[other + 1] as number) - 1 - otherFrom !== length) continue;
        let k = 0;
        while (k < length && same(a[from + k] as string, b[otherFrom + k] as string)) k++;
        if (k === length) {
          at = other;
          break;
        }
      }
    if (at !== -1) used[at] = 1;
    twin.push(at);
  }
  const shared = twin.flatMap((at, index) => (at === -1 ? [] : [index]));
  const ordered = [...shared].sort((x, y) => (twin[x] as number) - (twin[y] as number));
  if (ordered.every((index, k) => index === shared[k])) return a;
  const mineSentences = sentencesOf(a);
  const placed = [...mineSentences];
  for (const [k, index] of shared.entries()) placed[index] = mineSentences[ordered[k] as number] as string[];
  return placed.flatMap((sentence, index) => (index === 0 ? sentence : [sentenceEnd, ...sentence]));
}

/**
 * Where each sentence of a sequence starts (see {@link sentencesOf}), and past them one more: the
 * sequence's length plus one, so sentence `k` runs from `starts[k]` to `starts[k + 1] - 1`.
 */
function sentenceStarts(tokens: readonly string[]): number[] {
  const starts = [0];
  for (let at = 0; at < tokens.length; at++) if (tokens[at] === sentenceEnd) starts.push(at + 1);
  starts.push(tokens.length + 1);
  return starts;
}

/** The sentences of a sequence: the runs between its sentence ends, empty ones included. */
function sentencesOf(tokens: readonly string[]): string[][] {
  const sentences: string[][] = [[]];
  for (const token of tokens) {
    if (token === sentenceEnd) sentences.push([]);
    else (sentences.at(-1) as string[]).push(token);
  }
  return sentences;
}
