/**
 * The whole words of a text, as hashes in a set of bits: what a value found there as a whole can be made
 * of. Masking finds a value only where neither end touches a letter or digit, so each run of letters and
 * digits in the value is then a whole word of the text; a value one of whose words the text lacks cannot
 * be found, and need not be rendered, indexed or looked for. Most of a ticket's values are such.
 */

// What each UTF-16 unit outside ASCII is, read once: 0 not yet read, 1 a letter or digit, 2 neither.
const unitKinds = new Uint8Array(0x10000);
const letterOrDigit = /[\p{L}\p{N}]/u;

/**
 * Whether a UTF-16 unit is a letter or a digit by itself (half of a surrogate pair is neither): a value
 * found in a text must not have one on either side.
 */
export function isWordUnit(unit: number): boolean {
  if (unit < 0x80)
    return (unit >= 0x61 && unit <= 0x7a) || (unit >= 0x30 && unit <= 0x39) || (unit >= 0x41 && unit <= 0x5a);
  let kind = unitKinds[unit] as number;
  if (kind === 0) {
    kind = letterOrDigit.test(String.fromCharCode(unit)) ? 1 : 2;
    unitKinds[unit] = kind;
  }
  return kind === 1;
}

// Words hashed into this many bits: a message's few hundred distinct words fill a small share of them.
const wordBits = 14;
const start = 0x811c9dc5;
const step = (hash: number, unit: number) => Math.imul(hash ^ unit, 0x01000193);
const bitOf = (hash: number) => Math.imul(hash, 0x9e3779b1) >>> (32 - wordBits);
// ASCII capitals as small letters: a record value is compared lower-cased.
const lower = (unit: number) => (unit >= 0x41 && unit <= 0x5a ? unit + 0x20 : unit);

// One set of bits, refilled for each text: it is read only while that text's index is built.
const wordSet = new Uint32Array((1 << wordBits) / 32);

// Which ASCII units are letters or digits, by code: a text is read a unit at a time.
const asciiWordUnits = Uint8Array.from({ length: 0x80 }, (_, unit) => (isWordUnit(unit) ? 1 : 0));

/** The words of a lower-cased text, as bits by their hash (valid until the next call). */
export function wholeWords(lowered: string): Uint32Array {
  return wordsAndDigits(lowered).words;
}

/** What {@link wordsAndDigits} reads of a text. */
export interface WordsAndDigits {
  /** The text's words, as bits by their hash (valid until the next call). */
  readonly words: Uint32Array;
  /** Its digits in order, everything else removed, when all of it is ASCII; else undefined. */
  readonly digits: string | undefined;
}

/**
 * The words of a lower-cased text (see {@link wholeWords}) and, read in the same pass, its digits when it
 * is all ASCII. Lower-casing and making white space single keep a text's digits, and the one character
 * outside ASCII whose small letter is ASCII (the Kelvin sign, "k") folds to a letter: such a text's
 * digits are those of the text it was lower-cased from (see `textDigits`).
 */
export function wordsAndDigits(lowered: string): WordsAndDigits {
  const bits = wordSet.fill(0);
  let hash = start;
  let inWord = false;
  let ascii = true;
  let digits = "";
  let run = -1;
  const length = lowered.length;
  for (let at = 0; at < length; at++) {
    const unit = lowered.charCodeAt(at);
    if (unit >= 0x30 && unit <= 0x39) {
      if (run === -1) run = at;
    } else if (run !== -1) {
      digits += lowered.slice(run, at);
      run = -1;
    }
    if (unit >= 0x80) ascii = false;
    if (unit < 0x80 ? asciiWordUnits[unit] === 1 : isWordUnit(unit)) {
      hash = step(hash, unit);
      inWord = true;
    } else if (inWord) {
      const bit = bitOf(hash);
      bits[bit >>> 5] = (bits[bit >>> 5] as number) | (1 << (bit & 31));
      hash = start;
      inWord = false;
    }
  }
  if (inWord) {
    const bit = bitOf(hash);
    bits[bit >>> 5] = (bits[bit >>> 5] as number) | (1 << (bit & 31));
  }
  if (run !== -1) digits += lowered.slice(run);
  return { words: bits, digits: ascii ? digits : undefined };
}

/**
 * Whether each word of `value` (ASCII capitals read as small letters) may be a word of the text whose
 * set `words` is: false only when one is certainly not.
 */
export function wordsMayBeIn(words: Uint32Array, value: string): boolean {
  let hash = start;
  let inWord = false;
  for (let at = 0; at <= value.length; at++) {
    const unit = at < value.length ? lower(value.charCodeAt(at)) : 0x20;
    if (isWordUnit(unit)) {
      hash = step(hash, unit);
      inWord = true;
    } else if (inWord) {
      const bit = bitOf(hash);
      if (((words[bit >>> 5] as number) & (1 << (bit & 31))) === 0) return false;
      hash = start;
      inWord = false;
    }
  }
  return true;
}

/**
 * The bits in a set of {@link wholeWords} of each word of `value` (ASCII capitals read as small letters),
 * read once for a value asked about for many texts: `wordsMayBeIn(words, value)` is whether all of them
 * are set in `words` (see {@link bitsIn}). Without `withDigits`, only of the words with no ASCII digit:
 * a text that lacks one of those lacks one of all.
 */
export function wordBitsOf(value: string, withDigits = true): Int32Array {
  const bits: number[] = [];
  let hash = start;
  let inWord = false;
  let digit = false;
  for (let at = 0; at <= value.length; at++) {
    const unit = at < value.length ? lower(value.charCodeAt(at)) : 0x20;
    if (isWordUnit(unit)) {
      hash = step(hash, unit);
      inWord = true;
      if (unit >= 0x30 && unit <= 0x39) digit = true;
    } else if (inWord) {
      if (withDigits || !digit) bits.push(bitOf(hash));
      hash = start;
      inWord = false;
      digit = false;
    }
  }
  return Int32Array.from(bits);
}

/** Whether every bit of {@link wordBitsOf} is set in a text's {@link wholeWords}. */
export function bitsIn(words: Uint32Array, bits: Int32Array): boolean {
  for (let at = 0; at < bits.length; at++) {
    const bit = bits[at] as number;
    if (((words[bit >>> 5] as number) & (1 << (bit & 31))) === 0) return false;
  }
  return true;
}

/**
 * Whether a string record value, as masking renders it (cleaned, lower-cased), may be found in the text
 * whose set `words` is. Read for printable ASCII, tabs and line breaks only, which cleaning leaves as
 * they are and lower-casing changes a letter at a time, so the value's words are the rendering's; any
 * other value may be found.
 */
export function plainWordsMayBeIn(words: Uint32Array, value: string): boolean {
  // One pass: words are hashed until one is certainly not the text's, then only the characters read.
  let hash = start;
  let inWord = false;
  let absent = false;
  for (let at = 0; at <= value.length; at++) {
    const unit = at < value.length ? value.charCodeAt(at) : 0x20;
    if (unit > 0x7e || (unit < 0x20 && unit !== 0x09 && unit !== 0x0a && unit !== 0x0d)) return true;
    if (absent) continue;
    const small = lower(unit);
    if (isWordUnit(small)) {
      hash = step(hash, small);
      inWord = true;
    } else if (inWord) {
      const bit = bitOf(hash);
      absent = ((words[bit >>> 5] as number) & (1 << (bit & 31))) === 0;
      hash = start;
      inWord = false;
    }
  }
  return !absent;
}

/**
 * Whether some word of `value` of `shortest` units or more (ASCII capitals read as small letters) may be
 * a word of the text whose set `words` is: false only when none certainly is. A value with a character
 * outside printable ASCII may be.
 */
export function someWordMayBeIn(words: Uint32Array, value: string, shortest: number): boolean {
  let hash = start;
  let length = 0;
  for (let at = 0; at <= value.length; at++) {
    const unit = at < value.length ? value.charCodeAt(at) : 0x20;
    if (unit > 0x7e) return true;
    const small = lower(unit);
    if (isWordUnit(small)) {
      hash = step(hash, small);
      length++;
    } else if (length > 0) {
      const bit = bitOf(hash);
      if (length >= shortest && ((words[bit >>> 5] as number) & (1 << (bit & 31))) !== 0) return true;
      hash = start;
      length = 0;
    }
  }
  return false;
}

/** Whether the position is outside the text or not a letter or digit: a value must match whole. */
export function isBoundary(text: string, at: number): boolean {
  return at < 0 || at >= text.length || !isWordUnit(text.charCodeAt(at));
}
