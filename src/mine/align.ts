import { isPlaceholder, isTypoOf, numberToken } from "./tokens.js";

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
  /** Places where only one sequence holds tokens: an optional sentence, a tail, a moved clause. */
  readonly insertions: number;
}

/** Longest sequence aligned: longer ones are cut, so an alignment costs at most this squared. */
const maxLength = 160;

/** What opening a place of difference costs against a token matched: among paths matching as many, the one with fewest places wins. */
const openCost = 0.3;

/**
 * Aligns two token sequences: as many tokens matched in order as possible (words equal or one mistyped),
 * and among such alignments the one with the fewest places of difference (a sentence only one side holds
 * is one place, not split around a small word both happen to hold). Quadratic in the lengths, which are
 * bounded.
 */
export function align(a: readonly string[], b: readonly string[]): Alignment {
  const n = Math.min(a.length, maxLength);
  const m = Math.min(b.length, maxLength);
  const width = m + 1;
  // best[state][i][j]: the best score of the suffixes a[i..], b[j..] after a step of `state`
  // (0 matched, 1 skipped a token of a, 2 of b).
  const best = [0, 1, 2].map(() => new Float64Array((n + 1) * width));
  const equal = new Uint8Array((n + 1) * width);
  for (let i = n; i >= 0; i--) {
    for (let j = m; j >= 0; j--) {
      const at = i * width + j;
      if (i === n && j === m) continue;
      const match = i < n && j < m && same(a[i] as string, b[j] as string);
      if (match) equal[at] = 1;
      const matched = match ? 1 + (best[0] as Float64Array)[at + width + 1]! : Number.NEGATIVE_INFINITY;
      const skippedA = i < n ? (best[1] as Float64Array)[at + width]! : Number.NEGATIVE_INFINITY;
      const skippedB = j < m ? (best[2] as Float64Array)[at + 1]! : Number.NEGATIVE_INFINITY;
      for (let state = 0; state < 3; state++) {
        (best[state] as Float64Array)[at] = Math.max(
          matched,
          skippedA - (state === 1 ? 0 : openCost),
          skippedB - (state === 2 ? 0 : openCost),
        );
      }
    }
  }
  // The path: 0 a token of both matched, 1 a token of `a` only, 2 a token of `b` only.
  const path: number[] = [];
  let i = 0;
  let j = 0;
  let state = 0;
  while (i < n || j < m) {
    const at = i * width + j;
    const here = (best[state] as Float64Array)[at]!;
    if (equal[at] === 1 && 1 + (best[0] as Float64Array)[at + width + 1]! === here) {
      state = 0;
      i++;
      j++;
    } else if (i < n && (best[1] as Float64Array)[at + width]! - (state === 1 ? 0 : openCost) === here) {
      state = 1;
      i++;
    } else {
      state = 2;
      j++;
    }
    path.push(state);
  }
  return describe(path);
}

/**
 * Reads a path as places of difference. A lone matched token inside a difference ("the" in two
 * different sentences) is part of it, not an anchor: it would make one difference look like two.
 */
function describe(path: readonly number[]): Alignment {
  let matched = 0;
  let substitutions = 0;
  let insertions = 0;
  let widest = 0;
  let skippedA = 0;
  let skippedB = 0;
  let anchored = false;
  const close = (inside: boolean) => {
    if (skippedA > 0 && skippedB > 0 && inside) {
      substitutions++;
      widest = Math.max(widest, skippedA, skippedB);
    } else if (skippedA > 0 || skippedB > 0) insertions++;
    skippedA = 0;
    skippedB = 0;
  };
  for (let at = 0; at < path.length; at++) {
    const step = path[at];
    if (step === 0) {
      const open = skippedA > 0 || skippedB > 0;
      const lone = open && path[at - 1] !== 0 && at + 1 < path.length && path[at + 1] !== 0;
      if (lone) {
        skippedA++;
        skippedB++;
        continue;
      }
      close(anchored);
      anchored = true;
      matched++;
    } else if (step === 1) skippedA++;
    else skippedB++;
  }
  // Differences before the first or after the last shared token are ends that differ, not a place inside.
  close(false);
  return { matched, substitutions, widest, insertions };
}

/**
 * Whether two tokens are one word: equal, one mistyped, or a value in both (a placeholder where the
 * other message wrote a number masking did not take for the record's value).
 */
function same(a: string, b: string): boolean {
  if (a === b) return true;
  if (a === numberToken) return isPlaceholder(b);
  if (b === numberToken) return isPlaceholder(a);
  return isTypoOf(a, b);
}
