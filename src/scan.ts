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
  /** Text values taken from records: a number or id is fine only when it is the whole value. */
  readonly whole: readonly string[];
}

const email = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
const url = new RegExp(
  `\\b[a-z][a-z0-9+.-]{1,20}:\\/\\/[^\\s<>"']+|\\bwww\\.[^\\s<>"']+|(?<![@\\w.-])(?:[a-z0-9-]+\\.)+(?:${topLevelDomains})\\b(?:\\/[^\\s<>"']*)?`,
  "gi",
);
// Digit runs with the usual separators; 8+ digits, or 7+ after a "+", look like a phone or account number.
const phone = /\+?\d(?:[ ().-]{0,2}\d){6,18}/g;
const uuid = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
// Long tokens mixing letters and digits: API keys, session tokens, internal ids.
const longToken = /\b(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{20,}\b/g;

/**
 * Defence in depth after rendering: every e-mail address, phone-like number, URL or id-shaped token in
 * the text must be template text or a resolved value. Anything else means a record smuggled one in.
 */
export function scanMessage(text: string, allowance: ScanAllowance): Finding | undefined {
  const byCode = (token: string): boolean =>
    allowance.literal.includes(token) || allowance.formatted.some((value) => value.includes(token));
  const whole = (token: string): boolean => allowance.whole.includes(token);
  if (text.includes("@")) {
    for (const match of text.matchAll(email)) {
      // Addresses only ever come from e-mail fields or template text: a text field holding one is a leak.
      if (!byCode(match[0]) && !byCode(match[0].toLowerCase())) return { kind: "email" };
    }
  }
  if (/\d/.test(text)) {
    for (const match of text.matchAll(phone)) {
      const token = match[0];
      const international = token.startsWith("+");
      if (token.replace(/\D/g, "").length < (international ? 7 : 8)) continue;
      // A bare digit run may be a whole text value (an order or tracking number); a "+number" may not.
      if (!byCode(token) && (international || !whole(token))) return { kind: "phone" };
    }
    for (const match of text.matchAll(uuid)) if (!byCode(match[0]) && !whole(match[0])) return { kind: "id" };
    for (const match of text.matchAll(longToken))
      if (!byCode(match[0]) && !whole(match[0])) return { kind: "id" };
  }
  if (text.includes(".") || text.includes(":")) {
    for (const match of text.matchAll(url)) if (!byCode(match[0])) return { kind: "url" };
  }
  return undefined;
}
