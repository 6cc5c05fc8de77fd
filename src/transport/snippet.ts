// C0/C1 controls, bidi controls and zero-width characters: a provider's reply ends up in logs and
// terminals, where these could rewrite or hide what an operator reads.
const unprintable = /[\u0000-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]+/g;

/**
 * A provider's reply cut down for an error message: one line, printable, at most `max` characters.
 * Replies can be whole HTML error pages or echo what was sent, so they are never quoted in full.
 * Internal: not exported from the package.
 *
 * @example
 * import { snippet } from "./snippet.js";
 * snippet("<html>\n<h1>Bad Gateway</h1>…"); // "<html> <h1>Bad Gateway</h1>…"
 */
export function snippet(text: string, max = 200): string {
  const line = text.replace(unprintable, " ").replace(/\s+/g, " ").trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}
