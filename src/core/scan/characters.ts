/**
 * Character classes shared by the value cleaner and the outbound scan, so both draw token boundaries
 * the same way. Classes are Unicode properties, not lists: a digit, letter or dash of any script counts.
 */

import { Buffer } from "node:buffer";
import { domainToASCII } from "node:url";

/** A letter of any script (`\p{L}`). */
export const letter = 1;
/** A combining mark (`\p{M}`): part of the letter before it. */
export const mark = 2;
/**
 * A digit of any script or style (`\p{N}`): Arabic-Indic or Devanagari digits, and the circled and
 * dingbat digits (`⓿❶❷`, `➀➁`) that compatibility folding leaves as they are, are digits too.
 */
export const digit = 4;
/**
 * What a person may put between the digit groups of a phone number: any space, punctuation or symbol
 * but a currency sign and the colon of a time or ratio ("09:00–12:30").
 */
export const phoneSeparator = 8;
/**
 * A dot that separates the labels of a host name: those browsers accept (".", "。", "．", "｡") and the
 * look-alikes a reader takes for one: dot-shaped marks written at the line or at mid-height, whether
 * Unicode calls them punctuation, symbols, letters or digits: middle dots and bullets ("·", "‧", "∙", "⋅",
 * "・", "•", "⦁"), the full stops, raised and word-separator dots of other scripts ("⸱", "⸳", "᛫", "܁",
 * "܂", the Vai "꘎"), letters drawn as a dot (the Lisu "ꓸ", the Canadian syllabics "ᐧ", the Latin
 * sinological "ꞏ", the Hangul araea "ᆞ" Korean writes as a middle dot), and the digits drawn as a dot
 * (see {@link digitDot}). Unicode's confusables data maps each of them to "." or "·".
 */
export const hostDot = 16;
/** An opening bracket or quote of any script (`\p{Ps}`, `\p{Pi}`): "(", "[", "«", "「", "【", "‹", "❴"… */
export const opening = 32;
/** A closing bracket or quote of any script (`\p{Pe}`, `\p{Pf}`): ")", "]", "»", "」", "】", "›", "❵"… */
export const closing = 64;
/** A dash of any script (`\p{Pd}`) or the minus sign: "‐", "–", "—", "−"… an id reads the same with any of them. */
export const dash = 128;
/**
 * A digit that NFKC leaves drawn as a dot: the Arabic-Indic zero "٠" and the Persian zero "۰", the only
 * digits Unicode's confusables data maps to "." (the zeros of other scripts are drawn as rings). Between
 * labels it is a dot ("evil٠lol" reads "evil.lol"); after a digit of its own script it is the zero of a
 * number ("١٠" is ten). Such a digit is also a {@link hostDot} and a {@link digit}.
 */
export const digitDot = 256;
/**
 * A symbol that is part of a host label: a non-ASCII symbol (`\p{S}`: emoji, dingbats, arrows, signs)
 * that the WHATWG URL parser accepts in a domain (Node's `domainToASCII` turns it into punycode), as in
 * "💩.la" or "☃.net". The parser is the definition; `\p{S}` only picks which characters to ask it
 * about. Punctuation is left out: a reader takes it for the end of a word, and brackets and quotes
 * write out defanged dots ("evil「.」lol").
 */
export const hostSymbol = 512;
/** The characters of {@link hostDot}, for building regular expressions (all in the BMP: no "u" flag needed). */
export const hostDotCharacters =
  ".\\u3002\\uFF0E\\uFF61\\u00B7\\u2027\\u2219\\u22C5\\u30FB\\u2E31\\uA4F8\\u0701\\u0702" +
  "\\u2022\\u2981\\u2E33\\u16EB\\u1427\\uA78F\\u119E\\u318D\\uA60E\\u0660\\u06F0";
const digitDotCharacters = "\\u0660\\u06F0";

const letterPattern = /\p{L}/u;
const markPattern = /\p{M}/u;
const digitPattern = /\p{N}/u;
// Every space, punctuation mark (dashes, dots, commas, slashes, apostrophes, quotes, brackets of any
// script) and symbol ("|", "¦", "~", "+", "=", "→", "☎"…) but a currency sign, which closes an amount
// ("1.234,50 € 2.000,00 €"), and the colon, which writes times and ratios: a reader reads digit
// groups joined by any of these as one number.
const separatorPattern = /[\s\p{P}\p{Sm}\p{Sk}\p{So}]/u;
const notSeparator = ":";
const dashPattern = /[\p{Pd}\u2212]/u;
const openingPattern = /[\p{Ps}\p{Pi}]/u;
const closingPattern = /[\p{Pe}\p{Pf}]/u;
const hostDotPattern = new RegExp(`[${hostDotCharacters}]`, "u");
const digitDotPattern = new RegExp(`[${digitDotCharacters}]`, "u");
const symbolPattern = /\p{S}/u;

// Classes of the Basic Multilingual Plane, computed once per code unit on first use: the scanner
// looks at every character of a message, and a table read is far cheaper than a regular expression.
const known = 0x8000;
const table = new Uint16Array(0x10000);
// Beyond the BMP (emoji, other scripts' digits and letters): computed once per code point too.
const astral = new Map<number, number>();
const maxAstral = 4096;

function compute(char: string): number {
  let classes = 0;
  if (letterPattern.test(char)) classes |= letter;
  else if (markPattern.test(char)) classes |= mark;
  else if (digitPattern.test(char)) classes |= digit;
  if (separatorPattern.test(char) && char !== notSeparator) classes |= phoneSeparator;
  if (hostDotPattern.test(char)) classes |= hostDot;
  if (digitDotPattern.test(char)) classes |= digitDot;
  // Asked once per character (the result is kept in the table): whether the URL parser takes it in a host.
  if (
    (char.codePointAt(0) as number) >= 0x80 &&
    symbolPattern.test(char) &&
    (classes & hostDot) === 0 &&
    domainToASCII(char) !== ""
  )
    classes |= hostSymbol;
  if (dashPattern.test(char)) classes |= dash;
  if (openingPattern.test(char)) classes |= opening;
  else if (closingPattern.test(char)) classes |= closing;
  return classes;
}

/** The classes of the code point at `index` (a lone surrogate has none). */
export function classesAt(text: string, index: number): number {
  const code = text.charCodeAt(index);
  if (code >= 0xd800 && code <= 0xdbff) {
    const point = text.codePointAt(index) as number;
    if (point <= 0xffff) return 0;
    let classes = astral.get(point);
    if (classes === undefined) {
      // A text of many distinct code points keeps the map bounded; only speed depends on it.
      if (astral.size >= maxAstral) astral.clear();
      classes = compute(String.fromCodePoint(point));
      astral.set(point, classes);
    }
    return classes;
  }
  let entry = table[code] as number;
  if (entry === 0) {
    entry = compute(String.fromCharCode(code)) | known;
    table[code] = entry;
  }
  return entry & ~known;
}

/**
 * Whether every character is ASCII: then no look-alike, other-script digit or dot can be in it, and the
 * searches for them are skipped. Node counts UTF-8 bytes natively, far faster than any scan written here.
 */
export function isAscii(text: string): boolean {
  return Buffer.byteLength(text, "utf8") === text.length;
}

/** UTF-16 length of the code point at `index`: 2 for a surrogate pair, else 1. */
export function widthAt(text: string, index: number): number {
  const code = text.charCodeAt(index);
  if (code >= 0xd800 && code <= 0xdbff) {
    const next = text.charCodeAt(index + 1);
    if (next >= 0xdc00 && next <= 0xdfff) return 2;
  }
  return 1;
}

/** The start of the code point that ends just before `index` (steps back over a surrogate pair). */
export function previousStart(text: string, index: number): number {
  const code = text.charCodeAt(index - 1);
  if (code >= 0xdc00 && code <= 0xdfff && index >= 2) {
    const high = text.charCodeAt(index - 2);
    if (high >= 0xd800 && high <= 0xdbff) return index - 2;
  }
  return index - 1;
}

/**
 * A character of a host label: letter, mark or digit of any script, a symbol the URL parser takes in a
 * host (see {@link hostSymbol}), "-" or "_". A dot-shaped character is a dot, not a label character, but
 * for a digit drawn as a dot that follows a digit of its own script: that is a zero.
 */
export function isLabelAt(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  if (code < 0x80) {
    return (
      (code >= 0x61 && code <= 0x7a) ||
      (code >= 0x41 && code <= 0x5a) ||
      (code >= 0x30 && code <= 0x39) ||
      code === 0x2d ||
      code === 0x5f
    );
  }
  // A look-alike dot that is also a letter (the Lisu "ꓸ") joins labels rather than extending one.
  const classes = classesAt(text, index);
  if ((classes & digitDot) !== 0) return isZeroAt(text, index);
  return (classes & (letter | mark | digit | hostSymbol)) !== 0 && (classes & hostDot) === 0;
}

/**
 * Whether the digit drawn as a dot at `index` reads as a zero: it follows a digit of its own script
 * (Arabic-Indic U+0660–0669, or Extended Arabic-Indic U+06F0–06F9).
 */
export function isZeroAt(text: string, index: number): boolean {
  const previous = text.charCodeAt(index - 1);
  const zero = text.charCodeAt(index);
  return previous >= zero && previous <= zero + 9;
}
