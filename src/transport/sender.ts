import { normalizeEmail } from "../core/message/format.js";

/** A transport's sender, checked once at creation: an optional display name and one address. */
export interface Sender {
  readonly name: string;
  readonly address: string;
}

// A display name is free text in a header: no brackets, quotes or separators that could start a
// second address, and no line breaks that could start a second header.
const fromPattern = /^\s*(?:([^<>"\\,;:@\u0000-\u001F\u007F]{1,100}?)\s*<([^<>\s]+)>|([^<>\s]+))\s*$/;

/**
 * The sender in `from` (`"support@example.com"` or `"Example Support <support@example.com>"`), the
 * address normalised, or undefined when it is not exactly one such sender.
 */
export function parseSender(from: unknown): Sender | undefined {
  const match = typeof from === "string" ? fromPattern.exec(from) : null;
  if (match === null) return undefined;
  const address = normalizeEmail(match[2] ?? match[3]);
  return address.ok ? { name: (match[1] ?? "").trim(), address: address.value } : undefined;
}

/**
 * The same sender as one header value. The display name is always quoted: a name such as
 * "Example Inc." holds a character RFC 5322 allows bare only in obsolete syntax, and the pattern
 * above admits no quote or backslash, so quoting never needs an escape.
 */
export function formatSender(sender: Sender): string {
  return sender.name === "" ? sender.address : `"${sender.name}" <${sender.address}>`;
}
