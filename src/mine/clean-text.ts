import { sanitizeValue } from "../core/message/sanitize.js";

// Printable ASCII, line breaks and tabs, accented Latin letters and the euro sign: cleaning leaves such
// text as it is (no hidden character, no compatibility form), so most texts skip it. The no-break spaces
// amounts are written with (U+00A0, U+202F) become spaces when cleaned, and every comparison and finder
// reads them as white space already.
const plainText = /^[\t\n\r\x20-\x7e\u00a0\u00c0-\u00ff\u202f\u20ac]*$/;

/**
 * Text of the history and record values cleaned as the SDK cleans a value (hidden characters removed,
 * compatibility forms folded, line breaks kept), so both are compared as a reader sees them, and what is
 * masked and scanned is what is read: a zero-width space cannot keep an address from being one, nor
 * fullwidth letters a URL.
 */
export function cleanText(text: string): string {
  return plainText.test(text) ? text : sanitizeValue(text, { multiline: true, neutralize: false });
}
