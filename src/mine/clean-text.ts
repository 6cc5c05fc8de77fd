import { sanitizeValue } from "../core/message/sanitize.js";

// Printable ASCII, line breaks and tabs, accented Latin letters and the euro sign: cleaning leaves such
// text as it is (no hidden character, no compatibility form), so most texts skip it. The no-break spaces
// amounts are written with (U+00A0, U+202F) become spaces when cleaned, and every comparison and finder
// reads them as white space already.
const plainCharacter = /^[\t\n\r\x20-\x7e\u00a0\u00c0-\u00ff\u202f\u20ac]$/;

// Characters NFKC leaves as they are, that are not hidden, combine with nothing and are no white space
// but space and tab: Latin-1 and Latin Extended-A letters and signs, dashes, quotes and bullets, symbols,
// dingbats and the common emoji, and the two no-break spaces NFKC makes spaces. A text of only these is
// cleaned by folding its spaces and line breaks alone, with what the full cleaning would give.
const foldableCharacter =
  /^[\t\n\r\x20-\x7e\u00a0-\u00a7\u00a9\u00ab\u00ac\u00ae\u00b0\u00b1\u00b6\u00b7\u00bb\u00bf-\u0131\u0134-\u013e\u0141-\u0148\u014a-\u017e\u2010\u2012-\u2016\u2018-\u2023\u2027\u202f\u20ac\u2600-\u27bf\u{1f300}-\u{1f6d8}\u{1f900}-\u{1fa57}]$/u;

// Each UTF-16 unit below U+2800 (all plain and foldable ones but the emoji's surrogates) read once into
// a table from the two classes above, so a text is classified in one pass of look-ups.
const plain = 1;
const foldable = 2;
const kindOfUnit = new Uint8Array(0x2800);
for (let code = 0; code < kindOfUnit.length; code++) {
  const character = String.fromCharCode(code);
  kindOfUnit[code] =
    (plainCharacter.test(character) ? plain : 0) | (foldableCharacter.test(character) ? foldable : 0);
}

// A character that is not plain: most texts hold none, or only near their end (a signature's "·").
const notPlain = /[^\t\n\r\x20-\x7e\u00a0\u00c0-\u00ff\u202f\u20ac]/;

const longText = 64;

/** Whether every character of `text` is plain, or foldable (bits of the two), or neither (0). */
function kindOfText(text: string): number {
  // Plain characters are foldable too: a long text is read one unit at a time only from its first other
  // one, found natively (a short one, as record values are, is read whole: the search costs more).
  let kind = plain | foldable;
  let first = 0;
  if (text.length >= longText) {
    first = text.search(notPlain);
    if (first === -1) return kind;
    kind = foldable;
  }
  for (let at = first; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code < 0x2800) {
      kind &= kindOfUnit[code] as number;
      if (kind === 0) return 0;
      continue;
    }
    // An emoji: a surrogate pair, read as the one character it is.
    if (code < 0xd800 || code > 0xdbff || !foldableCharacter.test(text.slice(at, at + 2))) return 0;
    kind &= foldable;
    at += 1;
  }
  return kind;
}

// Something the folding would change: a no-break space, a tab or carriage return, a space beside another
// or at a line's end or start, three line breaks in a row, or a line break at either end.
const unfolded = /[\t\r\u00a0\u202f]| [ \n]|\n | $|^[ \n]|\n\n\n|\n$/;

/**
 * Text of the history and record values cleaned as the SDK cleans a value (hidden characters removed,
 * compatibility forms folded, line breaks kept), so both are compared as a reader sees them, and what is
 * masked and scanned is what is read: a zero-width space cannot keep an address from being one, nor
 * fullwidth letters a URL.
 */
export function cleanText(text: string): string {
  const kind = kindOfText(text);
  if ((kind & plain) !== 0) return text;
  if (kind === foldable) return foldedSpaces(text);
  return sanitizeValue(text, { multiline: true, neutralize: false });
}

/**
 * What cleaning makes of a text NFKC leaves alone and without hidden characters: no-break spaces as
 * spaces, every line break "\n", each line's runs of spaces and tabs one space and the line trimmed, at
 * most one empty line in a row, the whole trimmed. One pass, copying whole what needs no folding (a
 * single space between words, one or two line breaks between lines), so a text with a few double spaces
 * is copied in a few pieces.
 */
function foldedSpaces(text: string): string {
  if (!unfolded.test(text)) return text;
  let out = "";
  // Where the text not yet copied starts, where the last run of text read ends (-1 before the first),
  // and what stands between them and the next run: a space, or line breaks.
  let copied = -1;
  let runEnd = -1;
  let space = false;
  let breaks = 0;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    const blank = code === 0x20 || code === 0x09 || code === 0xa0 || code === 0x202f;
    const lineBreak = code === 0x0a || code === 0x0d;
    if (!blank && !lineBreak) {
      if (runEnd === -1) copied = at;
      else if (runEnd !== at) {
        // The gap before this run, folded: kept as written when it is already what folding makes.
        const gap = breaks > 1 ? "\n\n" : breaks === 1 ? "\n" : space ? " " : "";
        if (at - runEnd !== gap.length || text.slice(runEnd, at) !== gap) {
          out += text.slice(copied, runEnd) + gap;
          copied = at;
        }
      }
      // Read to the end of the run at once.
      let end = at + 1;
      while (end < text.length && !isFoldedAt(text.charCodeAt(end))) end++;
      runEnd = end;
      at = end - 1;
      space = false;
      breaks = 0;
      continue;
    }
    if (lineBreak) {
      // "\r\n" is one break.
      if (!(code === 0x0a && at > 0 && text.charCodeAt(at - 1) === 0x0d)) breaks += 1;
      space = false;
    } else if (breaks === 0) space = true;
  }
  return runEnd === -1 ? out : out + text.slice(copied, runEnd);
}

/** Whether a unit is one folding reads: a space, tab, no-break space or line break. */
function isFoldedAt(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0xa0 || code === 0x202f || code === 0x0a || code === 0x0d;
}
