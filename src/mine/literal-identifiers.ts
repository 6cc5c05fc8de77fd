/**
 * Identifiers in written text: the e-mail addresses, phone and other long numbers, URLs and hosts, and
 * id-shaped tokens the outbound scan looks for, found by the scan's own finders in text that also holds
 * the places of values (a template's tags, a mined message's masked record values). Text written in a
 * template is never scanned when a message is sent, so an identifier there goes out to every recipient
 * unchecked: mining keeps them out of drafts, and `formletter check` names those a catalog holds.
 */
import { sanitizeValue } from "../core/message/sanitize.js";
import {
  forEachAddress,
  forEachId,
  forEachLink,
  forEachPhoneNumber,
  isIdCharacterAt,
  type TokenFound,
} from "../core/scan/identifiers.js";
import { scanMessage } from "../core/scan/scan.js";
import { asciiDigits } from "./ascii-digits.js";

/** The kinds of identifier the outbound scan looks for. */
export type IdentifierKind = "email" | "phone" | "url" | "id";

/** A piece of a text: words as written, or the place of a value, with how it is written there. */
export type TextPiece = { readonly text: string } | { readonly value: string };

/** An identifier found in written text, by where it is in the pieces joined. */
export interface LiteralIdentifier {
  readonly kind: IdentifierKind;
  readonly start: number;
  readonly end: number;
}

const finders: readonly (readonly [IdentifierKind, (text: string, found: TokenFound) => void])[] = [
  ["email", forEachAddress],
  ["url", forEachLink],
  ["phone", forEachPhoneNumber],
  ["id", forEachId],
];

// An id is a run of at least this many characters of its alphabet (see `forEachId`).
const shortestId = 20;

/**
 * Whether the unit at `at` may be part of an id: one of the id finder's characters, or any other non-ASCII
 * unit (another script's digit, which the finder reads as ASCII).
 */
function mayBeInId(text: string, at: number): boolean {
  return text.charCodeAt(at) >= 0x80 || isIdCharacterAt(text, at);
}

/**
 * Whether `text` may hold an id: a run of {@link shortestId} characters that may be part of one. Most
 * texts hold none, which this tells reading about one word in twenty characters rather than each: such a
 * run holds every twentieth place of the text it spans, so only the run around such a place is read.
 */
function mayHoldId(text: string): boolean {
  for (let at = shortestId - 1; at < text.length; ) {
    if (!mayBeInId(text, at)) {
      at += shortestId;
      continue;
    }
    let start = at;
    while (start > 0 && mayBeInId(text, start - 1)) start--;
    let end = at + 1;
    while (end < text.length && mayBeInId(text, end)) end++;
    if (end - start >= shortestId) return true;
    // A longer run starts after `end`, which is not part of one.
    at = end + shortestId;
  }
  return false;
}

const wordCharacter = /[\p{L}\p{N}]/u;
const runsOn = /[\p{L}\p{M}\p{N}]/u;
const space = /\s/;

/** Whether the unit at `at` is white space as `\s` reads it (ASCII read without a regular expression). */
function isSpaceAt(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (code < 0x80) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  return space.test(text.charAt(at));
}

/** Whether the unit at `at` is an ASCII letter or digit; undefined when it is not ASCII. */
function asciiWordAt(text: string, at: number): boolean | undefined {
  const code = text.charCodeAt(at);
  if (code >= 0x80) return undefined;
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

/**
 * Whether an identifier could run from the character at `at` into a value's place beside it (`side`
 * is -1 before the place, 1 after): a letter or digit can; white space cannot; punctuation only with
 * more than white space beyond it ("{{x}}, then" ends a phrase; "{{x}}.example" and "{{x}}://" go on).
 */
function continues(text: string, at: number, side: -1 | 1): boolean {
  if (at < 0 || at >= text.length || isSpaceAt(text, at)) return false;
  if (asciiWordAt(text, at) ?? runsOn.test(text.charAt(at))) return true;
  const beyond = at + side;
  return beyond >= 0 && beyond < text.length && !isSpaceAt(text, beyond);
}

/** Whether the character at `at` is a letter or digit (a lone low surrogate is neither). */
function isWordCharacterAt(text: string, at: number): boolean {
  return asciiWordAt(text, at) ?? wordCharacter.test(String.fromCodePoint(text.codePointAt(at) as number));
}

/**
 * The identifiers in `pieces` that hold at least one letter or digit written in the text (not only
 * values). A value's place is read twice, as a word and as a gap, since either is what a value can be
 * once rendered: "https://{{shop.host}}/help" is a URL written around a value, and "+49 {{x}} 0100 200"
 * may read as one number. Overlapping finds are merged; the kind is the longest one's (a phone number
 * inside a URL is part of the URL), and a find that cuts a value's place is widened to hold it whole.
 * Each finder reads each view once, in linear time.
 */
export function literalIdentifiers(pieces: readonly TextPiece[]): {
  readonly text: string;
  readonly found: readonly LiteralIdentifier[];
} {
  let text = "";
  const places: number[] = [];
  for (const piece of pieces) {
    if ("text" in piece) text += piece.text;
    else {
      places.push(text.length, text.length + piece.value.length);
      text += piece.value;
    }
  }
  return { text, found: identifiersAround(text, places) };
}

/**
 * {@link literalIdentifiers} of `text` whose values stand at `places` (the start and end of each, in
 * order): all else is written text.
 */
function identifiersAround(text: string, places: readonly number[]): LiteralIdentifier[] {
  // The text with each place as a gap, and (read only when an identifier could run into a place) as a
  // word: same lengths as written, so a find's place is its place in `text`.
  let asGap = text;
  let asWord: string | undefined;
  if (places.length > 0) {
    let runsIntoPlace = false;
    for (let p = 0; p < places.length && !runsIntoPlace; p += 2)
      runsIntoPlace =
        continues(text, (places[p] as number) - 1, -1) || continues(text, places[p + 1] as number, 1);
    asGap = filled(text, places, spaces);
    if (runsIntoPlace) asWord = filled(text, places, letters);
  }
  const spans: LiteralIdentifier[] = [];
  // One callback for every finder, told which finder reads through `kind`.
  let kind: IdentifierKind = "email";
  const found = (start: number, end: number): boolean => {
    if (!holdsWritten(text, places, start, end)) return false;
    // A value's place is never cut: a find holds it whole or not at all.
    let from = start;
    let to = end;
    for (let p = 0; p < places.length; p += 2) {
      const placeStart = places[p] as number;
      const placeEnd = places[p + 1] as number;
      if (placeStart < to && placeEnd > from) {
        from = Math.min(from, placeStart);
        to = Math.max(to, placeEnd);
      }
    }
    spans.push({ kind, start: from, end: to });
    return false;
  };
  for (let v = 0; v < (asWord === undefined ? 1 : 2); v++) {
    const view = v === 0 ? asGap : (asWord as string);
    for (const [finder, find] of finders) {
      if (finder === "id" && !mayHoldId(view)) continue;
      kind = finder;
      // The id finder reads ASCII digits only; an id written with Arabic-Indic digits is still an id. The
      // others read digits of any script as they are (an Arabic-Indic zero may also be a host's dot).
      find(finder === "id" ? asciiDigits(view) : view, found);
    }
  }
  return spans.length === 0 ? spans : merged(spans);
}

// What a place is filled with in each view: cut from one long run, not repeated for each place.
const spaces = " ".repeat(256);
const letters = "x".repeat(256);

/** `text` with each place filled with the character `fill` repeats, keeping its length. */
function filled(text: string, places: readonly number[], fill: string): string {
  let out = text.slice(0, places[0]);
  for (let p = 0; p < places.length; p += 2) {
    const length = (places[p + 1] as number) - (places[p] as number);
    out += length <= fill.length ? fill.slice(0, length) : (fill.charAt(0) as string).repeat(length);
    out += text.slice(places[p + 1] as number, p + 2 < places.length ? places[p + 2] : text.length);
  }
  return out;
}

/** Whether `start`..`end` of `text` holds a letter or digit outside the places of values. */
function holdsWritten(text: string, places: readonly number[], start: number, end: number): boolean {
  let at = start;
  for (let p = 0; p <= places.length; p += 2) {
    // Written text runs from the end of one place to the start of the next.
    const to = Math.min(p < places.length ? (places[p] as number) : text.length, end);
    for (; at < to; at++) if (isWordCharacterAt(text, at)) return true;
    if (p < places.length) at = Math.max(at, places[p + 1] as number);
    if (at >= end) return false;
  }
  return false;
}

/** Where the `{{tag}}`s of a text stand: the start and end of each, in order. */
function tagPlaces(text: string): number[] {
  const places: number[] = [];
  for (let at = text.indexOf("{{"); at !== -1; ) {
    // As `tag` reads one: a letter or "_", then letters, digits, "_" and ".", then "}}".
    let end = at + 2;
    if (isTagStart(text.charCodeAt(end)))
      do end++;
      while (isTagStart(text.charCodeAt(end)) || isDigitOrDot(text.charCodeAt(end)));
    if (end > at + 2 && text.charCodeAt(end) === 0x7d && text.charCodeAt(end + 1) === 0x7d) {
      places.push(at, end + 2);
      at = text.indexOf("{{", end + 2);
    } else at = text.indexOf("{{", at + 1);
  }
  return places;
}

const isTagStart = (code: number) =>
  (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || code === 0x5f;
const isDigitOrDot = (code: number) => (code >= 0x30 && code <= 0x39) || code === 0x2e;

const tag = /\{\{[a-z_][\w.]*\}\}/gi;

/** A template text or a skeleton as written text and the places of values: its `{{tag}}`s. */
export function piecesOf(text: string): TextPiece[] {
  const pieces: TextPiece[] = [];
  let from = 0;
  for (const match of text.matchAll(tag)) {
    if (match.index > from) pieces.push({ text: text.slice(from, match.index) });
    pieces.push({ value: match[0] });
    from = match.index + match[0].length;
  }
  if (from < text.length) pieces.push({ text: text.slice(from) });
  return pieces;
}

/** An identifier found by {@link replaceIdentifiers}: its kind, as written, and the tags inside it. */
export interface IdentifierFound {
  readonly kind: IdentifierKind;
  readonly token: string;
  readonly tags: readonly string[];
}

/**
 * `text` (written text and `{{tag}}`s) with each identifier of {@link literalIdentifiers} replaced by what
 * `replace` gives for it; white space collapsed when anything was replaced.
 */
export function replaceIdentifiers(
  text: string,
  replace: (found: IdentifierFound) => string,
  found: readonly LiteralIdentifier[] = identifiersIn(text),
): string {
  if (found.length === 0) return text;
  let out = "";
  let from = 0;
  for (const { kind, start, end } of found) {
    const token = text.slice(start, end);
    out += text.slice(from, start) + replace({ kind, token, tags: token.match(tag) ?? [] });
    from = end;
  }
  return `${out}${text.slice(from)}`.replace(/\s+/g, " ").trim();
}

// Skeletons repeat (a greeting, a subject, a template's body with its values masked): their identifiers
// are found once. Bounded in entries and length, so a long history of long texts keeps little.
const foundByText = new Map<string, readonly LiteralIdentifier[]>();
const maxRemembered = 2048;
const longestRemembered = 2000;

/** {@link literalIdentifiers} of a template text or skeleton, found once for a text seen before. */
export function identifiersIn(text: string): readonly LiteralIdentifier[] {
  // A long text is never remembered, so not looked up: reading its hash costs a pass over it.
  const remembered = text.length <= longestRemembered;
  const known = remembered ? foundByText.get(text) : undefined;
  if (known !== undefined) return known;
  const found = identifiersAround(text, tagPlaces(text));
  if (remembered) {
    if (foundByText.size >= maxRemembered) foundByText.clear();
    foundByText.set(text, found);
  }
  return found;
}

/** Overlapping spans as one, of the kind of the longest among them; in order of place. */
function merged(spans: LiteralIdentifier[]): LiteralIdentifier[] {
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: LiteralIdentifier[] = [];
  let current: { kind: IdentifierKind; start: number; end: number; longest: number } | undefined;
  for (const span of spans) {
    if (current !== undefined && span.start < current.end) {
      if (span.end - span.start > current.longest) {
        current.kind = span.kind;
        current.longest = span.end - span.start;
      }
      current.end = Math.max(current.end, span.end);
      continue;
    }
    if (current !== undefined) out.push({ kind: current.kind, start: current.start, end: current.end });
    current = { kind: span.kind, start: span.start, end: span.end, longest: span.end - span.start };
  }
  if (current !== undefined) out.push({ kind: current.kind, start: current.start, end: current.end });
  return out;
}

/**
 * What the outbound scan itself finds in written text, with nothing allowed: the kind of the first
 * identifier, or undefined. A second opinion after {@link literalIdentifiers}, so an identifier the scan
 * learns to find later is never taken for plain text here. The text is also given as a record's text
 * value, for the scan reads ids only there; padded with spaces, so no identifier is the whole of it.
 */
export function scanFinds(text: string): string | undefined {
  return scanMessage(text, { literal: "", formatted: [], whole: [` ${text} `] })?.kind;
}

const kindNames: Readonly<Record<string, string>> = {
  email: "e-mail address",
  phone: "phone or other long number",
  url: "URL or host name",
  id: "id-shaped token",
};

/** A kind as a reader reads it: "URL or host name". */
export function kindName(kind: string): string {
  return Object.hasOwn(kindNames, kind) ? (kindNames[kind] as string) : `${kind} identifier`;
}

const atSigns = /[@\uFF20\uFE6B]/g;
const longestShown = 80;

/**
 * An identifier as a report shows it: hidden characters removed, URLs, hosts and the at-sign defanged
 * (`hxxps[:]//acme[.]example`, `help(@)acme[.]example`), markup and template brackets neutralised, so
 * no terminal, mail client or browser makes it a link again. An id-shaped token (a key, a session
 * token) and a number longer than any phone number (15 digits: a card or account number) only by their
 * ends. Cut to 80 characters.
 */
export function shownIdentifier(kind: string, token: string): string {
  const clean = sanitizeValue(token.replace(atSigns, "[@]"));
  const secret = kind === "id" || (kind === "phone" && asciiDigits(clean).replace(/\D+/g, "").length > 15);
  if (secret && clean.length > 12) return `${clean.slice(0, 4)}…${clean.slice(-4)}`;
  return clean.length > longestShown ? `${clean.slice(0, longestShown - 1)}…` : clean;
}
