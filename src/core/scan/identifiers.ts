/**
 * The identifiers the outbound scan looks for: e-mail addresses, phone numbers, URLs and id-shaped
 * tokens. Each finder is a hand-written loop that reads every character a bounded number of times, so
 * a long or hostile value is scanned in linear time (no regular expression can backtrack on it).
 * Each calls `found(start, end)` per token, in order, and stops as soon as `found` returns true.
 */
import {
  classesAt,
  dash,
  digit,
  hostDot,
  isLabelAt,
  letter,
  mark,
  phoneSeparator,
  previousStart,
  widthAt,
} from "./characters.js";
import { type ChainEnd, forEachHost, readHost } from "./hosts.js";

/** Called per token found; returning true stops the search. */
export type TokenFound = (start: number, end: number) => boolean;

// ---- e-mail addresses -----------------------------------------------------------------------------

// An "@" (also fullwidth or small), or a bracketed "(at)", "[@]", "{ at }", "«at»", "【at】": any opening
// and closing bracket or quote of any script, the look-alikes the cleaner puts for brackets among them.
// A reader still writes to "eve [at] evil [dot] com".
const atSign = /[@\uFF20\uFE6B]|[\p{Ps}\p{Pi}] ?(?:at|@) ?[\p{Pe}\p{Pf}]/giu;
const bracketedAt = /[\p{Ps}\p{Pi}] ?at ?[\p{Pe}\p{Pf}]/iu;

/** A quick, native test for what {@link atSign} matches: an "@", or "at" in brackets. */
function mayHoldAtSign(text: string): boolean {
  if (text.indexOf("@") !== -1 || text.indexOf("\uFF20") !== -1 || text.indexOf("\uFE6B") !== -1) return true;
  return bracketedAt.test(text);
}

/**
 * E-mail addresses: an at-sign (see above) followed by a host (see hosts.ts), its dots possibly
 * written out ("[.]", "(dot)"), with the local part before it (letters, digits and `._%+-'!#$&*=?^~`,
 * starting with a letter or digit). The local part may be empty: "@host" is flagged too.
 */
export function forEachAddress(text: string, found: TokenFound): void {
  if (!mayHoldAtSign(text)) return;
  const chain: ChainEnd = { end: 0 };
  // matchAll works on a copy of the pattern: `found` may itself scan another text for addresses.
  for (const match of text.matchAll(atSign)) {
    let atStart = match.index;
    let atEnd = atStart + match[0].length;
    // A space on either side belongs to the at-sign, bare or bracketed: "eve @ evil.lol" is an address.
    if (text.charCodeAt(atStart - 1) === 0x20) atStart--;
    if (text.charCodeAt(atEnd) === 0x20) atEnd++;
    if (atEnd >= text.length || !isLabelAt(text, atEnd)) continue;
    const hostEnd = readHost(text, atEnd, true, chain);
    if (hostEnd !== -1 && found(localStart(text, atStart), hostEnd)) return;
  }
}

// The punctuation an address's local part may hold, indexed by character code.
const localPunctuation = new Uint8Array(0x80);
for (const char of "._%+-'!#$&*=?^~") localPunctuation[char.charCodeAt(0)] = 1;

function isLocalAt(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  if (code < 0x80) {
    return (
      (code >= 0x61 && code <= 0x7a) ||
      (code >= 0x41 && code <= 0x5a) ||
      (code >= 0x30 && code <= 0x39) ||
      localPunctuation[code] === 1
    );
  }
  return (classesAt(text, index) & (letter | mark | digit | hostDot)) !== 0;
}

/** Where the local part ending at `atStart` begins: back over local characters, then to the first letter or digit. */
function localStart(text: string, atStart: number): number {
  let start = atStart;
  while (start > 0) {
    const previous = previousStart(text, start);
    if (!isLocalAt(text, previous)) break;
    start = previous;
  }
  while (start < atStart && localPunctuation[text.charCodeAt(start)] === 1) start++;
  return start;
}

// ---- phone numbers --------------------------------------------------------------------------------

/** Whether the character at `index` is a digit of any script or style (false outside the text). */
export const isDigitAt = (text: string, index: number): boolean => {
  const code = text.charCodeAt(index);
  if (code >= 0x30 && code <= 0x39) return true;
  return code >= 0x80 && (classesAt(text, index) & digit) !== 0;
};
const digitOrOther = /[0-9\u0080-\uFFFF]/g;
const isSeparatorAt = (text: string, index: number): boolean =>
  (classesAt(text, index) & phoneSeparator) !== 0;
const isMarkAt = (text: string, index: number): boolean =>
  text.charCodeAt(index) >= 0x300 && (classesAt(text, index) & mark) !== 0;

/**
 * Phone-like numbers: groups of digits (of any script) joined by runs of separators of any length
 * (spaces and line breaks, every dash, dots, commas, underscores, slashes, apostrophes and brackets),
 * with 8 or more digits, or 7 or more after a "+". Combining marks on a digit or a separator are part
 * of it (keycaps "1⃣", underlines "1̲"). Letters glued to a number hide none of its digits: an
 * extension ("555-0143x5"), a trailing or leading letter ("+12025550143a") or a code's letters
 * ("1ZLBAWYN0869556164") end the number, they do not remove a group from it.
 * `found` also learns whether the number starts with "+".
 */
export function forEachPhoneNumber(
  text: string,
  found: (start: number, end: number, international: boolean) => boolean,
): void {
  let index = 0;
  while (index < text.length) {
    // The regular expression skips, natively, to the next ASCII digit or non-ASCII character (which
    // may be a digit of another script). lastIndex is set before each use: `found` may scan too.
    digitOrOther.lastIndex = index;
    if (digitOrOther.exec(text) === null) return;
    index = digitOrOther.lastIndex - 1;
    if (!isDigitAt(text, index)) {
      index++;
      continue;
    }
    const firstStart = index;
    let digits = 0;
    let end = index;
    for (;;) {
      while (index < text.length && isDigitAt(text, index)) {
        digits++;
        index += widthAt(text, index);
        // Combining marks on a digit are part of it: a keycap "1⃣", an underlined "1̲".
        while (index < text.length && isMarkAt(text, index)) index += widthAt(text, index);
      }
      end = index;
      let next = index;
      while (next < text.length && (isSeparatorAt(text, next) || isMarkAt(text, next)))
        next += widthAt(text, next);
      if (next === index || next >= text.length || !isDigitAt(text, next)) break;
      index = next;
    }
    const plus = text.charCodeAt(firstStart - 1);
    const international = plus === 0x2b || plus === 0xff0b;
    if (digits < (international ? 7 : 8)) continue;
    if (found(international ? firstStart - 1 : firstStart, end, international)) return;
  }
}

// ---- URLs -----------------------------------------------------------------------------------------

/** Schemes a client acts on even without "//": mail, calls, scripts, inline data. */
export const actionSchemes = [
  "http",
  "https",
  "ftp",
  "ftps",
  "sftp",
  "file",
  "mailto",
  "javascript",
  "vbscript",
  "data",
  "blob",
  "tel",
  "sms",
  "callto",
  "facetime",
  "skype",
  "ws",
  "wss",
  "ssh",
  "git",
  "irc",
  "news",
  "intent",
  "market",
];
const maxScheme = 32;

const isSchemeAt = (code: number): boolean =>
  (code >= 0x61 && code <= 0x7a) ||
  (code >= 0x41 && code <= 0x5a) ||
  (code >= 0x30 && code <= 0x39) ||
  code === 0x2b ||
  code === 0x2e ||
  code === 0x2d;
const isAsciiLetter = (code: number): boolean => (code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a;

/**
 * The scheme ending at the ":" at `colon`: `{ start, name }` when a client would act on it, either any
 * scheme followed by "//" or an action scheme (see {@link actionSchemes}) followed by anything but a
 * space. `name` is the part a client reads: "https" in "x.https://". Undefined otherwise.
 */
export function schemeAt(text: string, colon: number): { start: number; name: string } | undefined {
  let start = colon;
  while (start > 0 && colon - start < maxScheme && isSchemeAt(text.charCodeAt(start - 1))) start--;
  if (start === colon || colon + 1 >= text.length || isSpace(text.charCodeAt(colon + 1))) return undefined;
  const run = text.slice(start, colon).toLowerCase();
  let best = "";
  for (const scheme of actionSchemes) if (scheme.length > best.length && run.endsWith(scheme)) best = scheme;
  if (best !== "") return { start: colon - best.length, name: best };
  if (text.startsWith("//", colon + 1)) {
    let first = 0;
    while (first < run.length && !isAsciiLetter(run.charCodeAt(first))) first++;
    if (first < run.length) return { start: start + first, name: run.slice(first) };
  }
  return undefined;
}

const isSpace = (code: number): boolean =>
  code === 0x20 || (code >= 0x09 && code <= 0x0d) || (code >= 0x80 && /\s/.test(String.fromCharCode(code)));

/** Where a URL's path stops: a space, a quote, a markup bracket or its look-alike. */
const isUrlStop = (code: number): boolean =>
  isSpace(code) ||
  code === 0x3c ||
  code === 0x3e ||
  code === 0x22 ||
  code === 0x27 ||
  code === 0x60 ||
  code === 0x2039 ||
  code === 0x203a;
const trailing = ".,;:!?)]}'\u3002";

/** The end of a URL's path, query and fragment from `from`: up to a stop, less trailing punctuation. */
function pathEnd(text: string, from: number): number {
  let end = from;
  while (end < text.length && !isUrlStop(text.charCodeAt(end))) end++;
  while (end > from && trailing.includes(text.charAt(end - 1))) end--;
  return end;
}

/**
 * URLs: a scheme URL (see {@link schemeAt}) to the end of its path, and every host (see hosts.ts) that
 * is not an e-mail domain, with the port, path, query or fragment right after it.
 */
export function forEachLink(text: string, found: TokenFound): void {
  for (let colon = text.indexOf(":"); colon !== -1; colon = text.indexOf(":", colon + 1)) {
    const scheme = schemeAt(text, colon);
    if (scheme !== undefined && found(scheme.start, Math.max(colon + 1, pathEnd(text, colon + 1)))) return;
  }
  let stopped = false;
  forEachHost(text, (start, hostEnd) => {
    if (stopped) return;
    const next = text.charAt(hostEnd);
    const end = next !== "" && ":/?#".includes(next) ? Math.max(hostEnd, pathEnd(text, hostEnd)) : hostEnd;
    stopped = found(start, end);
  });
}

// ---- id-shaped tokens -----------------------------------------------------------------------------

// The base64 and base64url alphabets: letters, digits, "-", "_", "+", "/" and "=".
const idCharacters = new Uint8Array(0x80);
for (let code = 0x30; code <= 0x39; code++) idCharacters[code] = 1;
for (let code = 0x41; code <= 0x5a; code++) idCharacters[code] = 1;
for (let code = 0x61; code <= 0x7a; code++) idCharacters[code] = 1;
for (const char of "-_+/=") idCharacters[char.charCodeAt(0)] = 1;

/** Whether the character at `index` is a dash of another script than ASCII's "-" (see characters.ts). */
const isOtherDashAt = (text: string, index: number): boolean =>
  text.charCodeAt(index) >= 0x80 && (classesAt(text, index) & dash) !== 0;

/** Whether the character at `index` is "-" or a dash of any other script. */
export const isIdDashAt = (text: string, index: number): boolean =>
  text.charCodeAt(index) === 0x2d || isOtherDashAt(text, index);

/**
 * Whether the character at `index` belongs to an id: the base64 and base64url alphabets
 * (`A-Z a-z 0-9 - _ + / =`), with a dash of any script for "-".
 */
export const isIdCharacterAt = (text: string, index: number): boolean => {
  const code = text.charCodeAt(index);
  return code < 0x80 ? idCharacters[code] === 1 : isOtherDashAt(text, index);
};

/** "+", "/" and "=": base64's own characters, which prose also writes between words ("and/or", "1+1=2"). */
const isProseJoiner = (code: number): boolean => code === 0x2b || code === 0x2f || code === 0x3d;

/**
 * Id-shaped tokens (API keys, secrets, session tokens, internal ids): runs of the base64 and base64url
 * alphabets (see {@link isIdCharacterAt}) of 20 or more characters in which a piece between separators
 * holds both a letter and a digit ("7EXA", "K7MDENG"), so that words and numbers joined by dashes
 * ("COVID-19-booster-2026", "02-Mar-2026–09-Mar-2026") are not ids. A run that holds "+", "/" or "="
 * is an id when a part between those is one by that rule, or when the whole run also mixes upper-
 * and lower-case letters, as base64 of random bytes does ("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"):
 * "and/or", "km/h" and "40W/60W/100W" are not. UUIDs (8-4-4-4-12 hexadecimal digits) are ids inside
 * any run. A dash of any script ("‐", "–", "−") stands for "-": a reader copies the id the same.
 */
export function forEachId(text: string, found: TokenFound): void {
  let index = 0;
  while (index < text.length) {
    if (!isIdCharacterAt(text, index)) {
      index++;
      continue;
    }
    const start = index;
    let upper = false;
    let lower = false;
    // A piece lies between any two separators; a part between two of "+", "/" and "=".
    let pieceLetter = false;
    let pieceDigit = false;
    let partStart = index;
    let partMixes = false;
    let mixes = false;
    let id = false;
    for (; index < text.length && isIdCharacterAt(text, index); index++) {
      const code = text.charCodeAt(index);
      if (code >= 0x30 && code <= 0x39) pieceDigit = true;
      else if (code >= 0x41 && code <= 0x5a) pieceLetter = upper = true;
      else if (code >= 0x61 && code <= 0x7a) pieceLetter = lower = true;
      else {
        if (pieceLetter && pieceDigit) partMixes = true;
        pieceLetter = pieceDigit = false;
        if (isProseJoiner(code)) {
          if (partMixes && index - partStart >= 20) id = true;
          mixes ||= partMixes;
          partMixes = false;
          partStart = index + 1;
        }
      }
    }
    if (pieceLetter && pieceDigit) partMixes = true;
    if (partMixes && index - partStart >= 20) id = true;
    mixes ||= partMixes;
    if (id || (index - start >= 20 && mixes && upper && lower)) {
      if (found(start, index)) return;
      continue;
    }
    const uuid = index - start >= 36 ? uuidIn(text, start, index) : -1;
    if (uuid !== -1 && found(uuid, uuid + 36)) return;
  }
}

const uuidGroups = [8, 4, 4, 4, 12];

interface Segment {
  readonly start: number;
  readonly length: number;
  readonly hex: boolean;
  /** Whether a dash (of any script) follows it. */
  readonly dashAfter: boolean;
}

const isHex = (code: number): boolean =>
  (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x66);
const isAlphanumeric = (code: number): boolean =>
  (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a);

/**
 * Start of the first UUID inside the run [start, end), or -1: five segments of 8, 4, 4, 4 and 12
 * hexadecimal digits joined by dashes, whatever separator stands before or after them. Each segment is
 * read once.
 */
function uuidIn(text: string, start: number, end: number): number {
  const segments: Segment[] = [];
  let segmentStart = start;
  let hex = true;
  for (let i = start; i <= end; i++) {
    const code = i < end ? text.charCodeAt(i) : -1;
    if (i < end && isAlphanumeric(code)) {
      if (!isHex(code)) hex = false;
      continue;
    }
    const dashAfter = i < end && isIdDashAt(text, i);
    segments.push({ start: segmentStart, length: i - segmentStart, hex, dashAfter });
    segmentStart = i + 1;
    hex = true;
  }
  for (let first = 0; first + uuidGroups.length <= segments.length; first++) {
    let fits = true;
    for (let k = 0; k < uuidGroups.length && fits; k++) {
      const segment = segments[first + k] as Segment;
      fits =
        segment.hex && segment.length === uuidGroups[k] && (k === uuidGroups.length - 1 || segment.dashAfter);
    }
    if (fits) return (segments[first] as Segment).start;
  }
  return -1;
}
