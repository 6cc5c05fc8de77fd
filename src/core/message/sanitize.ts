/**
 * Cleaning of values taken from records before they are placed in a message. Record fields can be
 * written by outsiders, so a value must not be able to hide text (bidi, zero-width), break out of its
 * line (header injection), or become a link or markup the recipient's client would act on.
 */

import { hostDotCharacters } from "../scan/characters.js";
import { forEachHost } from "../scan/hosts.js";
import { schemeAt } from "../scan/identifiers.js";

// Hidden characters, by Unicode property rather than by list: every format character (Cf: bidi
// controls, zero-width characters, BOM, invisible operators, interlinear annotations, tags), every
// Default_Ignorable_Code_Point (also variation selectors U+FE00–FE0F and U+E0100–E01EF, Hangul
// fillers, the combining grapheme joiner and code points reserved as ignorable), lone surrogates,
// noncharacters, and C0/C1 controls but tab, LF and CR (the line rules below handle those). The
// zero-width joiner goes too: an emoji sequence shows as its parts, which is the price of safety.
const hidden =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\p{Cf}\p{Default_Ignorable_Code_Point}\p{Cs}\p{Noncharacter_Code_Point}]/gu;
const lineBreaks = /\r\n|[\r\n\u2028\u2029]/g;
// Spaces NFKC keeps: tab, the Ogham space mark and the blank Braille pattern, which reads as a space.
const spaceRuns = /[ \t\u1680\u2800]+/g;

/** Options of {@link sanitizeValue}. */
export interface SanitizeOptions {
  /** Keep line breaks (as "\n"). @default false */
  readonly multiline?: boolean;
  /** Defang URLs and host names and neutralise markup characters. @default true */
  readonly neutralize?: boolean;
}

/**
 * Strips hidden characters (controls, format characters, default-ignorable code points), folds
 * compatibility characters (NFKC), folds line breaks (single-line values become one line), collapses
 * runs of spaces, and neutralises URLs, host names, markup and template brackets so no client renders
 * them as links or tags and no merge-tag engine evaluates them. Idempotent and linear in the length
 * of the value.
 */
export function sanitizeValue(raw: string, options: SanitizeOptions = {}): string {
  if (isPlain(raw)) return raw;
  // NFKC folds look-alikes a client may fold too ("evil．com", "eve＠evil.example") before they are checked.
  // Hidden characters go before NFKC, so they cannot keep a letter and its accent apart, and after it,
  // for the few it makes (a halfwidth Hangul filler becomes a full one).
  let value = raw.replace(hidden, "").normalize("NFKC").replace(hidden, "");
  if (options.multiline === true) {
    value = value
      .replace(lineBreaks, "\n")
      .split("\n")
      .map((line) => line.replace(spaceRuns, " ").trim())
      .join("\n")
      .replace(/\n{3,}/g, "\n\n");
  } else {
    value = value.replace(lineBreaks, " ").replace(spaceRuns, " ");
  }
  value = value.trim();
  return options.neutralize === false ? value : neutralize(value);
}

/**
 * The common case, checked in one loop: printable ASCII, no markup, link or template characters,
 * single spaces, no leading or trailing space. Such a value comes out of the full pipeline unchanged.
 */
function isPlain(value: string): boolean {
  let previousSpace = true;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code > 0x7e || special[code] === 1) return false;
    const space = code === 0x20;
    if (space && previousSpace) return false;
    previousSpace = space;
  }
  return !previousSpace || value.length === 0;
}

// What neutralize() may change: markup and template brackets, backtick, pipe, and ":" and "." (URLs,
// host names). Anything else ASCII passes as it is.
const special = new Uint8Array(0x80);
for (const char of "<>[]`{}|:.") special[char.charCodeAt(0)] = 1;

/**
 * Defangs URLs ("hxxps[:]//evil[.]com") and every host name by shape (see hosts.ts), but the domain
 * of an e-mail address, which the scan must see whole; replaces markup and template brackets with
 * look-alikes no client or merge-tag engine parses: "<" ">" become "‹" "›", "{" "}" become "❴" "❵"
 * (so "{{", "{%", "${", "%}", "{#" die, and with "<" also "<%"), "[" "]" become "(" ")", "|" becomes
 * "¦" (so "*|TAG|*" dies), "`" becomes "'". Linear in the length of the value.
 */
export function neutralize(value: string): string {
  if (!mayNeedNeutralizing.test(value)) return value;
  return replaceCharacters(defangHosts(defangSchemes(value)));
}

const mayNeedNeutralizing = new RegExp(`[:<>[\\]\`{}|${hostDotCharacters}]`);

function defangSchemes(value: string): string {
  const parts: string[] = [];
  let copied = 0;
  for (let colon = value.indexOf(":"); colon !== -1; colon = value.indexOf(":", colon + 1)) {
    const scheme = schemeAt(value, colon);
    if (scheme === undefined) continue;
    parts.push(value.slice(copied, scheme.start), defangScheme(scheme.name), "[:]");
    copied = colon + 1;
  }
  if (copied === 0) return value;
  parts.push(value.slice(copied));
  return parts.join("");
}

function defangScheme(scheme: string): string {
  return scheme.startsWith("http") ? `hxxp${scheme.slice(4)}` : scheme;
}

// The dots characters.ts counts as host dots.
const hostDots = new RegExp(`[${hostDotCharacters}]`, "g");

function defangHosts(value: string): string {
  const parts: string[] = [];
  let copied = 0;
  forEachHost(value, (start, end) => {
    parts.push(value.slice(copied, start), value.slice(start, end).replace(hostDots, "[.]"));
    copied = end;
  });
  if (copied === 0) return value;
  parts.push(value.slice(copied));
  return parts.join("");
}

// Indexed by character code: what each markup, template or code character becomes.
const replacements: (string | undefined)[] = [];
replacements[0x3c] = "\u2039"; // <
replacements[0x3e] = "\u203A"; // >
replacements[0x7b] = "\u2774"; // {
replacements[0x7d] = "\u2775"; // }
replacements[0x5b] = "("; // [
replacements[0x5d] = ")"; // ]
replacements[0x7c] = "\u00A6"; // |
replacements[0x60] = "'"; // `

function replaceCharacters(value: string): string {
  const parts: string[] = [];
  let copied = 0;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    const replacement = code < 0x80 ? replacements[code] : undefined;
    if (replacement === undefined) continue;
    // "[.]" and "[:]" are the defanged forms themselves: kept, so cleaning twice changes nothing.
    if (code === 0x5b && (value.startsWith(".]", i + 1) || value.startsWith(":]", i + 1))) {
      i += 2;
      continue;
    }
    parts.push(value.slice(copied, i), replacement);
    copied = i + 1;
  }
  if (copied === 0) return value;
  parts.push(value.slice(copied));
  return parts.join("");
}

// Below: text from outside cut or escaped for the people who read it — in error details, logs and the
// terminal — rather than cleaned for a message. All of formletter's text cleaning is in this file.

/** Cuts text from outside (keys, paths) to a safe length for a detail message: printable ASCII only. */
export function clip(text: string, max = 40): string {
  const clean = text.replace(/[^\x20-\x7E]/g, "?");
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

// C0/C1 controls, bidi controls and zero-width characters: a provider's reply ends up in logs and
// terminals, where these could rewrite or hide what an operator reads.
const unprintable = /[\u0000-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]+/g;

/**
 * A provider's reply cut down for an error message: one line, printable, at most `max` characters.
 * Replies can be whole HTML error pages or echo what was sent, so they are never quoted in full.
 *
 * @example
 * import { snippet } from "../../../sanitize.js";
 * snippet("<html>\n<h1>Bad Gateway</h1>…"); // "<html> <h1>Bad Gateway</h1>…"
 */
export function snippet(text: string, max = 200): string {
  const line = text.replace(unprintable, " ").replace(/\s+/g, " ").trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

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
