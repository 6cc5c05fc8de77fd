/**
 * The words of a line as the mail conventions compare them: split at white space (no-break spaces
 * included), lower-cased, with punctuation and symbols trimmed from both ends, each with where it is in
 * the line, so a matched phrase can be cut from the text as written. One pass, no regular expression
 * that could backtrack: a 20,000-character line of ">" or "." costs its length.
 */
export interface Word {
  /** Lower-cased, punctuation and symbols trimmed from both ends ("Lune," → "lune"); may be "". */
  readonly text: string;
  /** Where the word as written starts and ends in the line. */
  readonly start: number;
  readonly end: number;
  /** The last character of the word as written ("," of "Lune,"). */
  readonly last: string;
}

const letterOrDigit = /[\p{L}\p{N}]/u;
const space = /\s/;

/** Whether the UTF-16 unit at `at` is white space as `\s` reads it (ASCII read without a regular expression). */
function isSpaceAt(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (code < 128) return code === 32 || (code >= 9 && code <= 13);
  return space.test(text.charAt(at));
}

/** Where the run of non-space characters from `at` ends. */
function runEnd(line: string, at: number): number {
  let end = at;
  while (end < line.length && !isSpaceAt(line, end)) end++;
  return end;
}

/** Where the next non-space character at or after `at` is (`line.length` when none). */
function runStart(line: string, at: number): number {
  let start = at;
  while (start < line.length && isSpaceAt(line, start)) start++;
  return start;
}

/** The words of `line`, at most `limit` of them (greetings and closings are short). */
export function wordsOf(line: string, limit = 16): Word[] {
  const words: Word[] = [];
  // Each character read once, and no match object made per word.
  for (let start = runStart(line, 0); start < line.length && words.length < limit; ) {
    const end = runEnd(line, start);
    words.push({ text: trimmed(line, start, end), start, end, last: line.charAt(end - 1) });
    start = runStart(line, end);
  }
  return words;
}

/** How many words {@link wordsOf} reads in `line`, counted up to `limit`, without making them. */
export function wordCount(line: string, limit: number): number {
  let count = 0;
  for (let start = runStart(line, 0); start < line.length && count < limit; count++)
    start = runStart(line, runEnd(line, start));
  return count;
}

/**
 * The first word of `line` as {@link wordsOf} reads it ("" when the line is blank): enough to tell that
 * no phrase of a list starts the line, as most lines show, before its words are read.
 */
export function firstWordOf(line: string): string {
  const start = runStart(line, 0);
  return start === line.length ? "" : trimmed(line, start, runEnd(line, start));
}

/** Whether the character at `at` is a letter or a digit (ASCII read without a regular expression). */
function isWordCharacter(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (code < 128)
    return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
  return letterOrDigit.test(text.charAt(at));
}

/** The word of `line` from `start` to `end` without the punctuation and symbols at its ends, lower-cased. */
function trimmed(line: string, start: number, end: number): string {
  let from = start;
  let to = end;
  while (from < to && !isWordCharacter(line, from)) from++;
  while (to > from && !isWordCharacter(line, to - 1)) to--;
  return line.slice(from, to).toLowerCase();
}

/**
 * A word as a phrase is compared with it: German writes both genders in one word ("Liebe/r",
 * "Sehr geehrte*r", "Kolleg:innen"), which is compared by the part before the mark.
 */
function stem(word: string): string {
  // The marks are "/", "*", ":" and "_", read without a regular expression.
  for (let at = 0; at < word.length; at++) {
    const code = word.charCodeAt(at);
    if (code === 0x2f || code === 0x2a || code === 0x3a || code === 0x5f)
      return at > 0 ? word.slice(0, at) : word;
  }
  return word;
}

/** A closed list of phrases, each a sequence of words, found at the start of a list of words. */
export class Phrases {
  readonly #byFirst = new Map<string, string[][]>();

  constructor(phrases: readonly string[]) {
    for (const phrase of phrases) {
      const words = phrase.split(" ");
      const first = words[0] as string;
      const list = this.#byFirst.get(first) ?? [];
      list.push(words);
      // Longest first: "best regards" before "best".
      list.sort((a, b) => b.length - a.length);
      this.#byFirst.set(first, list);
    }
  }

  /** How many of `words` (from `from`) the longest phrase that starts them covers; 0 when none does. */
  prefixOf(words: readonly Word[], from = 0): number {
    const candidates = this.#byFirst.get(stem(words[from]?.text ?? ""));
    if (candidates === undefined) return 0;
    for (const phrase of candidates) {
      if (phrase.every((word, i) => stem(words[from + i]?.text ?? "") === word)) return phrase.length;
    }
    return 0;
  }

  /** Whether a phrase starts with `word` (as {@link firstWordOf} gives it): else `prefixOf` is 0. */
  opens(word: string): boolean {
    return this.#byFirst.has(stem(word));
  }

  /** Whether `word` is one of the phrases of one word. */
  has(word: string): boolean {
    return this.#byFirst.get(word)?.some((phrase) => phrase.length === 1) ?? false;
  }
}
