/**
 * Cleaning of values taken from records before they are placed in a message. Record fields can be
 * written by outsiders, so a value must not be able to hide text (bidi, zero-width), break out of its
 * line (header injection), or become a link or markup the recipient's client would act on.
 */

// C0/C1 controls except tab and newline, which are handled by the line rules below.
const controls = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
// Bidi embeddings, overrides, isolates and marks, zero-width characters, BOM, soft hyphen,
// interlinear annotations and Unicode tag characters: all can hide or reorder what a reader sees.
const invisible =
  /[\u00AD\u061C\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFEFF\uFFA0\uFFF9-\uFFFB\u{E0000}-\u{E007F}]|\u034F|[\uFE00-\uFE0F]/gu;
const lineBreaks = /\r\n|[\r\n\u0085\u2028\u2029]/g;
const spaceRuns = /[ \t\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]+/g;

// A scheme followed by ":" and something, or "www.", or a host with a well-known top-level domain.
const schemeUrl = /\b([a-z][a-z0-9+.-]{1,20}):(\/\/|(?=[^\s]))/gi;
const linkySchemes = new Set([
  "http",
  "https",
  "ftp",
  "ftps",
  "file",
  "mailto",
  "javascript",
  "vbscript",
  "data",
  "tel",
  "sms",
  "ws",
  "wss",
  "ssh",
  "sftp",
  "git",
  "irc",
  "news",
  "blob",
]);
export const topLevelDomains =
  "com|net|org|io|co|ai|app|dev|info|biz|me|ly|gl|gg|to|cc|tv|xyz|site|online|link|click|top|ru|cn|de|uk|fr|nl|es|it|pl|eu|us|ca|au|in|br|jp|kr|ch|se|no|dk|fi|be|at|cz|pt|ie|nz|sh|tk|ml|ga|cf|gq|zip|mov|page|store|shop|live|xn--[a-z0-9-]+";
// Hosts inside e-mail addresses are left alone: the scanner must still see (and flag) the address.
const hostLike = new RegExp(`(?<![@\\w.-])((?:[a-z0-9-]+\\.)+)(${topLevelDomains})\\b`, "gi");

/** Options of {@link sanitizeValue}. */
export interface SanitizeOptions {
  /** Keep line breaks (as "\n"). @default false */
  readonly multiline?: boolean;
  /** Defang URLs and host names and neutralise markup characters. @default true */
  readonly neutralize?: boolean;
}

/**
 * Folds compatibility characters (NFKC), strips control, bidi and zero-width characters, folds line breaks (single-line values become one line),
 * collapses runs of spaces, and neutralises URLs and markup so no client renders them as links or tags.
 */
export function sanitizeValue(raw: string, options: SanitizeOptions = {}): string {
  if (isPlain(raw)) return raw;
  // NFKC folds look-alikes a client may fold too ("evil．com", "eve＠evil.example") before they are checked.
  let value = raw.normalize("NFKC").replace(invisible, "").replace(controls, "");
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
 * The common case, checked in one loop: printable ASCII, no markup or link characters, single spaces,
 * no leading or trailing space. Such a value comes out of the full pipeline unchanged.
 */
function isPlain(value: string): boolean {
  let previousSpace = true;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code > 0x7e) return false;
    // < > [ ] ` : and "." (URLs and host names) go through the full pipeline.
    if (
      code === 0x3c ||
      code === 0x3e ||
      code === 0x5b ||
      code === 0x5d ||
      code === 0x60 ||
      code === 0x3a ||
      code === 0x2e
    ) {
      return false;
    }
    const space = code === 0x20;
    if (space && previousSpace) return false;
    previousSpace = space;
  }
  return !previousSpace || value.length === 0;
}

/** Defangs URLs ("hxxps://evil[.]com") and replaces markup brackets with look-alikes that no client parses. */
export function neutralize(value: string): string {
  if (!/[:.<>[\]`]/.test(value)) return value;
  return value
    .replace(schemeUrl, (match, scheme: string, slashes: string) =>
      linkySchemes.has(scheme.toLowerCase()) ? `${defangScheme(scheme)}[:]${slashes}` : match,
    )
    .replace(
      hostLike,
      (_match, labels: string, tld: string) => `${labels.slice(0, -1).replaceAll(".", "[.]")}[.]${tld}`,
    )
    .replace(/</g, "\u2039")
    .replace(/>/g, "\u203A")
    .replace(/\[(?!\.\]|:\])/g, "(")
    .replace(/(?<!\[[.:])\]/g, ")")
    .replace(/`/g, "'");
}

function defangScheme(scheme: string): string {
  const lower = scheme.toLowerCase();
  return lower.startsWith("http") ? `hxxp${lower.slice(4)}` : lower;
}
