import {
  forEachAddress,
  forEachId,
  forEachLink,
  forEachPhoneNumber,
  isDigitAt,
  isIdCharacterAt,
  isIdDashAt,
} from "./identifiers.js";

/** What the scanner found that it could not account for. */
export interface Finding {
  readonly kind: "email" | "phone" | "url" | "id";
}

/** What a message may legitimately contain: template text and the values resolved for it. */
export interface ScanAllowance {
  /** All literal template text. */
  readonly literal: string;
  /** Values built by code (dates, money, phones, e-mails, numbers, choice labels): tokens inside them are fine. */
  readonly formatted: readonly string[];
  /**
   * Text values taken from records: a number or id is fine only when the value is that one code (no
   * spaces; a number's digit groups joined by dashes or underscores only).
   */
  readonly whole: readonly string[];
}

type Kind = Finding["kind"];

/**
 * Defence in depth after rendering: every e-mail address, phone-like number or URL in the rendered
 * text, and every id-shaped token in a record's text value, must be a whole token of template text or
 * of a value built by code — found by the same finder, so "shop@lumen.co" is not accepted because
 * "shop@lumen.com" is. A number or id may also be a record text value that is wholly that one code.
 * Anything else means a record smuggled one in. Linear in the length of the text and values.
 */
export function scanMessage(text: string, allowance: ScanAllowance): Finding | undefined {
  const allowed = new Allowed(allowance);
  let finding: Kind | undefined;
  forEachAddress(text, (start, end) => {
    if (!allowed.has("email", text.slice(start, end))) finding = "email";
    return finding !== undefined;
  });
  if (finding === undefined) {
    forEachPhoneNumber(text, (start, end, international) => {
      const token = text.slice(start, end);
      // A bare digit run may be a text value that is one code (an order, tracking or reference number);
      // a "+number", or digits inside a sentence, may not.
      if (
        !allowed.has("phone", token) &&
        (international || !allowed.isCode("phone", token)) &&
        !digitsAccountedFor(text, start, end, allowance)
      )
        finding = "phone";
      return finding !== undefined;
    });
  }
  if (finding === undefined) {
    forEachLink(text, (start, end) => {
      if (!allowed.has("url", text.slice(start, end))) finding = "url";
      return finding !== undefined;
    });
  }
  // Id-shaped tokens can only come from record text values: look there, not through all template text.
  for (const value of allowance.whole) {
    if (finding !== undefined) break;
    if (!hasLongRun(value)) continue;
    forEachId(value, (start, end) => {
      const token = value.slice(start, end);
      if (token.length !== value.length && !allowed.has("id", token)) finding = "id";
      return finding !== undefined;
    });
  }
  return finding === undefined ? undefined : { kind: finding };
}

const finders: Record<Kind, (text: string, found: (start: number, end: number) => boolean) => void> = {
  email: forEachAddress,
  phone: forEachPhoneNumber,
  url: forEachLink,
  id: forEachId,
};

/** Addresses and host names compare without case; numbers and ids as written. */
const caseless = (kind: Kind): boolean => kind === "email" || kind === "url";

/** The tokens of `kind` in `source`, each as compared (lower-cased for addresses and URLs). */
function tokensOf(kind: Kind, source: string): Set<string> {
  const text = caseless(kind) ? source.toLowerCase() : source;
  const tokens = new Set<string>();
  finders[kind](text, (start, end) => {
    tokens.add(text.slice(start, end));
    return false;
  });
  return tokens;
}

// Template text is the same string for every message of a template: it is lower-cased and its tokens
// found once, not per message.
interface LiteralEntry {
  readonly lower: string;
  readonly tokens: Map<Kind, Set<string>>;
}
const literals = new Map<string, LiteralEntry>();
const maxCachedLiterals = 1024;

function literalEntry(literal: string): LiteralEntry {
  let entry = literals.get(literal);
  if (entry === undefined) {
    if (literals.size >= maxCachedLiterals) literals.clear();
    entry = { lower: literal.toLowerCase(), tokens: new Map() };
    literals.set(literal, entry);
  }
  return entry;
}

function tokensOfLiteral(kind: Kind, literal: string, entry: LiteralEntry): Set<string> {
  let tokens = entry.tokens.get(kind);
  if (tokens === undefined) {
    tokens = tokensOf(kind, literal);
    entry.tokens.set(kind, tokens);
  }
  return tokens;
}

/** Whole-token look-ups against one message's allowance; sources are tokenised only when a token could match. */
class Allowed {
  readonly #allowance: ScanAllowance;
  #codes: Map<string, Set<string>> | undefined;

  constructor(allowance: ScanAllowance) {
    this.#allowance = allowance;
  }

  /** Whether `token` is a whole token of the template text or of a value built by code. */
  has(kind: Kind, token: string): boolean {
    const key = caseless(kind) ? token.toLowerCase() : token;
    const literal = this.#allowance.literal;
    const entry = literalEntry(literal);
    const searched = caseless(kind) ? entry.lower : literal;
    if (searched.includes(key) && tokensOfLiteral(kind, literal, entry).has(key)) return true;
    for (const value of this.#allowance.formatted)
      if (contains(value, key, kind) && tokensOf(kind, value).has(key)) return true;
    return false;
  }

  /**
   * Whether `token` is a code: a number of at most two digit groups joined by a dash or an underscore
   * ("4471-2290", as ids join their parts), that is a whole token of a record text
   * value with no spaces, so no sentence. Digit groups joined by anything else ("0151 2345 6789",
   * "(0151) 2345", "0151.2345.6789") are a phone number even when they are the whole value.
   */
  isCode(kind: Kind, token: string): boolean {
    if (!isCodeShaped(token)) return false;
    for (const value of this.#allowance.whole) {
      // The common case: the value is the number itself, then it is one whole token.
      if (value === token) return true;
      if (!value.includes(token) || /\s/.test(value)) continue;
      // The same code often shows twice (subject and body): its tokens are found once per message.
      const cacheKey = `${kind}\u0000${value}`;
      this.#codes ??= new Map();
      let tokens = this.#codes.get(cacheKey);
      if (tokens === undefined) {
        tokens = tokensOf(kind, value);
        this.#codes.set(cacheKey, tokens);
      }
      if (tokens.has(token)) return true;
    }
    return false;
  }
}

/**
 * Whether every digit of the number at [start, end) lies in a value that stands whole in the text (not
 * cutting a group of digits), each value once: values built by code side by side, as a date and then an
 * amount in "14. März 2026 (1.234,50 €)", and at most one record code among them, as a reference and
 * then a weight in "FWD-88003 (139 kg)". Such numbers are read as one but carry nothing a record wrote
 * beyond what the code alone may show. Two record codes side by side stay a number: together they could
 * spell one no single code may. Each value is looked for only around the number, so a text of many
 * numbers stays linear.
 */
function digitsAccountedFor(text: string, start: number, end: number, allowance: ScanAllowance): boolean {
  const covered = new Uint8Array(end - start);
  for (const value of allowance.formatted) {
    const spans = wholeSpans(text, start, end, value);
    // One value twice in one number is a pattern a record can write ("12 34 12 34" from "12" and
    // "34"): only distinct values side by side are what code put there.
    if (spans.length > 1) return false;
    cover(covered, start, end, spans);
  }
  let codes = 0;
  // A value listed twice (as written and folded onto one line) is one value.
  for (const value of new Set(allowance.whole)) {
    if (hasWhiteSpace(value)) continue;
    const spans = wholeSpans(text, start, end, value);
    if (spans.length === 0) continue;
    // The code's part of the number must be a code's shape ("88003", "4471-2290"), not a phone
    // number's ("0151.2345.6789"), and only one code may share a number.
    const [first, last] = spans[0] as readonly [number, number];
    const part = text.slice(Math.max(first, start), Math.min(last, end));
    if (!hasDigit(part)) continue;
    codes += spans.length;
    if (codes > 1 || !isCodeShaped(part)) return false;
    cover(covered, start, end, spans);
  }
  for (let i = start; i < end; i++) if (covered[i - start] === 0 && isDigitAt(text, i)) return false;
  return true;
}

/** Where `value` (not empty) stands whole, no digit just before or after it, around [start, end). */
function wholeSpans(text: string, start: number, end: number, value: string): (readonly [number, number])[] {
  if (value === "") return [];
  const spans: (readonly [number, number])[] = [];
  const from = Math.max(0, start - value.length + 1);
  const around = text.slice(from, Math.min(text.length, end + value.length - 1));
  for (let at = around.indexOf(value); at !== -1; at = around.indexOf(value, at + 1)) {
    const first = from + at;
    const last = first + value.length;
    if (!isDigitAt(text, first - 1) && !isDigitAt(text, last)) spans.push([first, last]);
  }
  return spans;
}

function cover(
  covered: Uint8Array,
  start: number,
  end: number,
  spans: readonly (readonly [number, number])[],
) {
  for (const [first, last] of spans)
    for (let i = Math.max(first, start); i < Math.min(last, end); i++) covered[i - start] = 1;
}

const whiteSpace = /\s/;
const hasWhiteSpace = (value: string): boolean => whiteSpace.test(value);
const hasDigit = (text: string): boolean => {
  for (let i = 0; i < text.length; i++) if (isDigitAt(text, i)) return true;
  return false;
};

/**
 * Whether `number` (as the phone finder found it) is one or two groups of digits, joined by a dash (of
 * any script) or "_": an order or reference number ("4471-2290"). Three groups or more are how phone
 * numbers ("0151-2345-6789", "202-555-0143") and card numbers are written, whatever joins them.
 */
function isCodeShaped(number: string): boolean {
  let joins = 0;
  for (let i = 0; i < number.length; i++) {
    const code = number.charCodeAt(i);
    if (code >= 0x30 && code <= 0x39) continue;
    if (code !== 0x5f && !isIdDashAt(number, i)) return false;
    if (++joins > 1) return false;
  }
  return true;
}

/** A cheap test before tokenising: a whole token is a substring first. */
function contains(source: string, key: string, kind: Kind): boolean {
  return (caseless(kind) ? source.toLowerCase() : source).includes(key);
}

/** True when the value holds 20 or more id characters in a row (see {@link isIdCharacterAt}). */
function hasLongRun(value: string): boolean {
  if (value.length < 20) return false;
  let run = 0;
  for (let i = 0; i < value.length; i++) {
    run = isIdCharacterAt(value, i) ? run + 1 : 0;
    if (run >= 20) return true;
  }
  return false;
}
