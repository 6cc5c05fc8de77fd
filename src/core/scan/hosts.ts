/**
 * Host names by shape, with no list of top-level domains: a new or local domain is as reachable as a
 * well-known one. The value cleaner defangs what this finds and the outbound scan flags it, so both
 * agree on where a host starts and ends.
 *
 * A host is a chain of two or more labels joined by dots ("." or a dot browsers accept: "。", "．",
 * "｡", or a look-alike a reader takes for one: "·", "・", "ꓸ", "٠"…) whose last label is a
 * top-level-domain shape: two or more letters of any script (so a mixed-script "evil.сom" counts), or
 * punycode ("xn--p1ai"). A chain of four short numbers is an IPv4 address. A chain whose first label is
 * "www" is a host whatever follows. So "e.g.", "approx.3", "12.50" and "v2.1" are not hosts, while
 * "invoice.pdf" or "St.Louis" are (by shape they could be).
 * Labels are what the WHATWG URL parser takes in a host: letters, marks and digits of any script, "-"
 * and "_", and symbols and emoji ("💩.la", "☃.net"), which it turns into punycode. No registry delegates
 * a top-level domain of symbols, so the last label's shape is read up to its first symbol: "evil.lol🙂"
 * holds the host "evil.lol".
 */
import {
  classesAt,
  closing,
  digitDot,
  hostDot,
  hostDotCharacters,
  hostSymbol,
  isAscii,
  isLabelAt,
  isZeroAt,
  letter,
  mark,
  opening,
  previousStart,
  widthAt,
} from "./characters.js";

/** Where the label chain read by {@link readHost} ended, host or not. */
export interface ChainEnd {
  end: number;
}

/**
 * Reads the label chain starting at `start` and returns the end of the longest host it begins with,
 * or -1. `chain.end` is set to where the chain stopped. With `defanged`, dots written to dodge a
 * link ("[.]", "(dot)", " [.] ") join labels too: an address stays an address to a reader.
 */
export function readHost(text: string, start: number, defanged: boolean, chain: ChainEnd): number {
  chain.end = start;
  if (start >= text.length || !isLabelAt(text, start)) return -1;
  let index = start;
  let labels = 0;
  let shortNumbers = 0;
  let hostEnd = -1;
  let www = false;
  for (;;) {
    const labelStart = index;
    let lettersOnly = true;
    let digitsOnly = true;
    // Where a run of two or more letters that starts the label meets a symbol: "lol" in "lol🙂".
    let lettersEnd = -1;
    while (index < text.length && isLabelAt(text, index)) {
      const code = text.charCodeAt(index);
      if (code === 0x2d || code === 0x5f) {
        lettersOnly = false;
        digitsOnly = false;
      } else if (code >= 0x30 && code <= 0x39) {
        lettersOnly = false;
      } else if (code < 0x80) {
        digitsOnly = false;
      } else {
        digitsOnly = false;
        const classes = classesAt(text, index);
        if ((classes & (letter | mark)) === 0) {
          if (lettersOnly && (classes & hostSymbol) !== 0 && index - labelStart >= 2) lettersEnd = index;
          lettersOnly = false;
        }
      }
      index += widthAt(text, index);
    }
    const length = index - labelStart;
    labels++;
    if (labels === 1) www = length === 3 && text.slice(labelStart, index).toLowerCase() === "www";
    if (digitsOnly && length <= 3) shortNumbers++;
    if (labels >= 2) {
      const topShape = (lettersOnly && length >= 2) || isPunycode(text, labelStart, index);
      if (topShape || www) hostEnd = index;
      else if (lettersEnd !== -1) hostEnd = lettersEnd;
    }
    const dot = dotLength(text, index, defanged);
    if (dot === 0 || !(index + dot < text.length && isLabelAt(text, index + dot))) break;
    index += dot;
  }
  chain.end = index;
  if (hostEnd === -1 && labels === 4 && shortNumbers === 4) hostEnd = index;
  return hostEnd;
}

function isPunycode(text: string, start: number, end: number): boolean {
  return end - start > 4 && text.slice(start, start + 4).toLowerCase() === "xn--";
}

/** Length of the dot at `index` (0 when there is none): a real dot, or with `defanged` a written-out one. */
export function dotLength(text: string, index: number, defanged: boolean): number {
  if (index >= text.length) return 0;
  const classes = classesAt(text, index);
  if ((classes & hostDot) !== 0 && ((classes & digitDot) === 0 || !isZeroAt(text, index))) return 1;
  return defanged ? bracketedDot(text, index) : 0;
}

/**
 * Length of a dot written out between brackets at `index`: the word "dot" or any dot of
 * {@link hostDot} ("[.]", "(dot)", "«.»", "「dot」", "(·)", "(٠)"), with at most one space on either side;
 * 0 when there is none. A bracket is any opening and any closing bracket or quote of any script (so
 * also the look-alikes the cleaner puts for "<>{}").
 */
function bracketedDot(text: string, index: number): number {
  let at = index;
  if (text.charCodeAt(at) === 0x20) at++;
  if (at >= text.length || (classesAt(text, at) & opening) === 0) return 0;
  at += widthAt(text, at);
  if (text.charCodeAt(at) === 0x20) at++;
  let end = at;
  if (at < text.length && (classesAt(text, at) & hostDot) !== 0) end += widthAt(text, at);
  else if (text.slice(at, at + 3).toLowerCase() === "dot") end += 3;
  else return 0;
  if (text.charCodeAt(end) === 0x20) end++;
  if (end >= text.length || (classesAt(text, end) & closing) === 0) return 0;
  end += widthAt(text, end);
  if (text.charCodeAt(end) === 0x20) end++;
  return end - index;
}

/** Whether the character before `index` is an "@" (after NFKC, also what "＠" and "﹫" became). */
export function afterAt(text: string, index: number): boolean {
  const code = text.charCodeAt(index - 1);
  return code === 0x40 || code === 0xff20 || code === 0xfe6b;
}

/** Whether an "@" at `index` is followed by a host: the chain before it is then a local part. */
function beforeAddressHost(text: string, index: number, chain: ChainEnd): boolean {
  return afterAt(text, index + 1) && readHost(text, index + 1, false, chain) !== -1;
}

/**
 * Calls `found(start, end)` for every host in `text` that is not part of an e-mail address: neither
 * its domain nor its local part ("ada.lovelace@example.org"), which the scan reads whole as an
 * address. Linear: only chains around a dot are read, each at most twice.
 */
export function forEachHost(text: string, found: (start: number, end: number) => void): void {
  const chain: ChainEnd = { end: 0 };
  const other = !isAscii(text) && otherDots.test(text);
  let done = 0;
  for (let dot = nextDot(text, 0, other); dot !== -1; dot = nextDot(text, dot + 1, other)) {
    if (dot < done || dot === 0) continue;
    if (!isLabelAt(text, previousStart(text, dot)) || !isLabelAt(text, dot + 1)) continue;
    // A digit drawn as a dot after a digit of its script is a zero (only texts with other dots hold one).
    if (other && dotLength(text, dot, false) === 0) continue;
    // Back to where the chain holding this dot starts: over labels and the dots joining them.
    let start = dot;
    while (start > done) {
      const previous = previousStart(text, start);
      if (isLabelAt(text, previous)) start = previous;
      else if (
        previous > done &&
        dotLength(text, previous, false) === 1 &&
        isLabelAt(text, previousStart(text, previous))
      )
        start = previous;
      else break;
    }
    const hostEnd = readHost(text, start, false, chain);
    done = chain.end;
    if (hostEnd !== -1 && !afterAt(text, start) && !beforeAddressHost(text, done, chain))
      found(start, hostEnd);
  }
}

// Dots other than "." are rare: when a text has none, only "." is looked for, natively.
const otherDots = new RegExp(`[${hostDotCharacters.slice(1)}]`);

function nextDot(text: string, from: number, other: boolean): number {
  if (!other) return text.indexOf(".", from);
  for (let i = from; i < text.length; i++) if ((classesAt(text, i) & hostDot) !== 0) return i;
  return -1;
}
