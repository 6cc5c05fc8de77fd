import { topLevelDomains } from "./sanitize.js";

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
  /** Text values taken from records: a number or id is fine only inside a value that is one code (no spaces). */
  readonly whole: readonly string[];
}

// Letters of any script: an address spelled with look-alike letters (a Cyrillic "е" or "о") still reaches
// someone. Only text holding an "@" is searched.
const email = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/gu;
const url = new RegExp(
  `\\b[a-z][a-z0-9+.-]{1,20}:\\/\\/[^\\s<>"']+|\\bwww\\.[^\\s<>"']+|(?<![@\\w.-])(?:[a-z0-9-]+\\.)+(?:${topLevelDomains})\\b(?:\\/[^\\s<>"']*)?`,
  "gi",
);
// Digit runs with separators between the groups; 8+ digits, or 7+ after a "+", look like a phone or
// account number. Separators are spaces, brackets, dots, slashes and every dash, minus or middle dot
// (NFKC leaves "‑", "–", "−" and "·" as they are), up to three together (" - ").
// Runs glued to letters are part of a code (a parcel number such as "1ZLBAWYN0869556164"), not a number.
const separator = "[\\s()./\\-\\u00B7\\u2010-\\u2015\\u2027\\u2212\\u30FB]{0,3}";
const phone = new RegExp(`(?<![A-Za-z0-9])\\+?\\d(?:${separator}\\d){6,}(?![A-Za-z0-9])`, "g");
// Digits of any script count: a number written in Arabic-Indic or Devanagari digits is still a number.
// These slower patterns run only on text that holds such digits.
const anyScriptPhone = new RegExp(
  `(?<![\\p{L}\\p{Nd}])\\+?\\p{Nd}(?:${separator}\\p{Nd}){6,}(?![\\p{L}\\p{Nd}])`,
  "gu",
);
const otherDigit = /[^\P{Nd}0-9]/u;
const uuid = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
// Long tokens mixing letters and digits: API keys, session tokens, internal ids.
const longToken = /\b(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{20,}\b/g;

/**
 * Defence in depth after rendering: every e-mail address, phone-like number or URL in the rendered
 * text, and every id-shaped token in a record's text value, must be template text or a resolved value.
 * Anything else means a record smuggled one in.
 */
export function scanMessage(text: string, allowance: ScanAllowance): Finding | undefined {
  if (text.indexOf("@") !== -1) {
    for (const token of matches(email, text)) {
      // Addresses only ever come from e-mail fields or template text: a text field holding one is a leak.
      if (!byCode(token, allowance) && !byCode(token.toLowerCase(), allowance)) return { kind: "email" };
    }
  }
  const otherScripts = otherDigit.test(text);
  if ((otherScripts ? anyScriptSevenDigits : sevenDigits).test(text)) {
    for (const token of matches(otherScripts ? anyScriptPhone : phone, text)) {
      const international = token.charCodeAt(0) === 0x2b;
      if (countDigits(token) < (international ? 7 : 8)) continue;
      // A bare digit run may come from a text value that is one code (an order, tracking or
      // reference number, a UUID); a "+number", or digits inside a sentence, may not.
      if ((international || !insideCode(token, allowance.whole)) && !byCode(token, allowance)) {
        return { kind: "phone" };
      }
    }
  }
  if (mayHoldHost(text)) {
    for (const token of matches(url, text)) if (!byCode(token, allowance)) return { kind: "url" };
  }
  // Id-shaped tokens can only come from record text values: look there, not through all template text.
  for (const value of allowance.whole) {
    if (!hasLongRun(value)) continue;
    for (const pattern of [uuid, longToken]) {
      for (const token of matches(pattern, value))
        if (token !== value && !byCode(token, allowance)) return { kind: "id" };
    }
  }
  return undefined;
}

/** Whether the token lies inside a text value that is a single code: no spaces, so no sentence. */
function insideCode(token: string, values: readonly string[]): boolean {
  for (const value of values) if (value.includes(token) && !/\s/.test(value)) return true;
  return false;
}

function byCode(token: string, allowance: ScanAllowance): boolean {
  for (const value of allowance.formatted) if (value.includes(token)) return true;
  return allowance.literal.includes(token);
}

function matches(pattern: RegExp, text: string): string[] {
  const found: string[] = [];
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) found.push(match[0]);
  return found;
}

function countDigits(token: string): number {
  let count = 0;
  for (let i = 0; i < token.length; i++) {
    const code = token.charCodeAt(i);
    if (code >= 48 && code <= 57) count++;
  }
  // Digits of other scripts, counted only when there are any.
  return count === 0 || otherDigit.test(token) ? token.replace(/\P{Nd}/gu, "").length : count;
}

const sevenDigits = /(?:\d\D*){7}/;
const anyScriptSevenDigits = /(?:\p{Nd}\P{Nd}*){7}/u;
/** A "." followed by a letter, or ":/": where a host name or a URL may start. indexOf beats a regex here. */
function mayHoldHost(text: string): boolean {
  for (let i = text.indexOf("."); i !== -1; i = text.indexOf(".", i + 1)) {
    const next = text.charCodeAt(i + 1) | 0x20;
    if (next >= 0x61 && next <= 0x7a) return true;
  }
  return text.includes(":/");
}

/** True when the value holds 20 or more token characters in a row (letters, digits, "-", "_"). */
function hasLongRun(value: string): boolean {
  let run = 0;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    const token =
      (code >= 48 && code <= 57) ||
      (code >= 65 && code <= 90) ||
      (code >= 97 && code <= 122) ||
      code === 45 ||
      code === 95;
    run = token ? run + 1 : 0;
    if (run >= 20) return true;
  }
  return false;
}
