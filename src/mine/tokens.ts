/**
 * How mining reads a skeleton: as words (lower-cased), placeholders (as declared) and number-shaped
 * words made one token, so a count, a time or a code another message wrote differently is the same word.
 */

const wordPattern = /\{\{[a-z_][\w.|]*\}\}|[\p{L}\p{N}]+/giu;
/** The token every word holding a digit becomes: a value, never template identity. */
export const numberToken = "<#>";

/** The tokens of a skeleton, in order. */
export function tokensOf(skeleton: string): string[] {
  return (skeleton.match(wordPattern) ?? []).map(wordKey);
}

/** How a word is compared: placeholders as declared, words with a digit as one token, others lower-cased. */
export function wordKey(word: string): string {
  if (word.startsWith("{{")) return word;
  return /\p{N}/u.test(word) ? numberToken : word.toLowerCase();
}

/** Whether a token stands for a record value: a placeholder. */
export function isPlaceholder(token: string): boolean {
  return token.startsWith("{{");
}

/**
 * Whether two words are one word mistyped: at most one letter inserted, dropped, replaced, or two
 * neighbours swapped, in words of five letters or more (shorter words differ in meaning by one letter).
 */
export function isTypoOf(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.length < 5 || b.length < 5 || Math.abs(a.length - b.length) > 1) return false;
  if (isPlaceholder(a) || isPlaceholder(b)) return false;
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const restA = endA - start;
  const restB = endB - start;
  if (restA <= 1 && restB <= 1) return true;
  // Two neighbours swapped: "recieve" / "receive".
  return restA === 2 && restB === 2 && a[start] === b[start + 1] && a[start + 1] === b[start];
}
