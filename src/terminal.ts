// Everything a terminal could act on or that hides what follows: control characters (C0, DEL and C1,
// among them ESC, CSI U+009B and OSC U+009D, which start escape sequences), format characters (bidi
// overrides and isolates, zero-width characters, the byte order mark, tag characters), line and
// paragraph separators, and lone surrogates. Newlines and tabs are kept by `printable`: layouts use them.
const unsafe = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]|\p{Cs}/gu;

/** A character written as JSON and JavaScript write it: `\u` and four hex digits per UTF-16 unit. */
function escaped(char: string): string {
  let text = "";
  for (let index = 0; index < char.length; index++)
    text += `\\u${char.charCodeAt(index).toString(16).padStart(4, "0")}`;
  return text;
}

/**
 * Text as a terminal may show it: every control, format and separator character written out as
 * `\uXXXX` (never executed, never hiding what follows), newlines and tabs kept. The escapes are JSON's,
 * so JSON stays valid JSON with the same value once passed through.
 */
export function printable(text: string): string {
  return text.replace(unsafe, (char) => (char === "\n" || char === "\t" ? char : escaped(char)));
}

/**
 * {@link printable} for a value shown on one line (an id, a name, a note in a heading): newlines and
 * tabs are written out too, so a value cannot start a line of its own that looks like the tool's.
 */
export function printableLine(text: string): string {
  return text.replace(unsafe, escaped);
}
