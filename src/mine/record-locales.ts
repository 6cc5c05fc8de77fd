/**
 * The languages a ticket's records name: a string value that is a BCP 47 tag ("de-DE", "fr", "pt_BR",
 * "zh-Hant-TW") whose language Intl can format dates in. A customer's `locale` or `language` field is the
 * usual source; any field holding such a tag counts, since records name it as they like.
 *
 * Only a language with an optional script and region is read (an extension such as "-u-ca-…" is
 * allowed and dropped). Variant subtags are not: they do not change how a date is written, and the
 * identifiers records hold take that shape ("POL-2023-660857" is Polish with two variants, "DE-123" German
 * in region 123), so reading them would add a language the ticket never named to every message, and
 * with it every rendering of every date in that language. A region must be one Intl has a name for.
 */

// Language (two or three letters), optional script (four letters), optional region (two letters or
// three digits), then optional extensions (a singleton and subtags of two to eight letters or digits).
// At most 35 characters, each repetition starting at a separator, so the test is linear.
const tagShape =
  /^([A-Za-z]{2,3})(?:-([A-Za-z]{4}))?(?:-([A-Za-z]{2}|\d{3}))?(?:-[0-9A-WYZa-wyz](?:-[A-Za-z0-9]{2,8})+)*(?:-[Xx](?:-[A-Za-z0-9]{1,8})+)?$/;
const known = new Map<string, string | null>();
const maxKnown = 1_000;
let regions: Intl.DisplayNames | null | undefined;

/** Whether Intl knows a region by that code ("DE", "419"); "123" or "XX" are no region. */
function knownRegion(region: string): boolean {
  if (regions === undefined) {
    try {
      regions = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });
    } catch {
      regions = null;
    }
  }
  try {
    return regions === null || regions.of(region) !== undefined;
  } catch {
    return false;
  }
}

/** The locale a value names, canonical ("de-DE"), or undefined when it names none Intl supports. */
export function localeTag(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length < 2 || value.length > 35 || !mayBeTag(value))
    return undefined;
  // The shape is tested before any look-up: most record values are not tags, and each is read once
  // per message, so the common case costs one regular expression and no allocation of a cache entry.
  const trimmed = value.trim();
  // replaceAll costs a search even where there is nothing to replace, as in most values read here.
  const tag = trimmed.includes("_") ? trimmed.replaceAll("_", "-") : trimmed;
  const shape = tagShape.exec(tag);
  if (shape === null) return undefined;
  let found = known.get(tag);
  if (found === undefined) {
    found = supported(tag, shape[3]);
    if (known.size >= maxKnown) known.clear();
    known.set(tag, found);
  }
  return found ?? undefined;
}

const isLetter = (code: number) => (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
/** Neither a letter nor a separator, but a character trimming may drop: the full test decides. */
const unsure = (code: number) => code <= 0x20 || code >= 0x80;

/**
 * Whether a value may be a tag by its first characters: two or three letters, then a separator or the
 * end. Most record values are not (a name, an amount, an identifier), and this rules them out without
 * a regular expression or a copy.
 */
function mayBeTag(value: string): boolean {
  const first = value.charCodeAt(0);
  if (unsure(first)) return true;
  if (!isLetter(first)) return false;
  const second = value.charCodeAt(1);
  if (unsure(second)) return true;
  if (!isLetter(second)) return false;
  for (const at of [2, 3]) {
    if (at >= value.length) return true;
    const code = value.charCodeAt(at);
    if (code === 0x2d || code === 0x5f || unsure(code)) return true;
    if (at === 3 || !isLetter(code)) return false;
  }
  return false;
}

function supported(tag: string, region: string | undefined): string | null {
  if (region !== undefined && !knownRegion(region.toUpperCase())) return null;
  try {
    // Extensions are dropped: a record names a language, and a "-u-ca-…" written into one would have
    // every date of the ticket looked for in another calendar.
    const base = new Intl.Locale(tag).baseName;
    // "lookup" falls back by subtags ("de-JP" is formatted as "de") and never to a default locale.
    return Intl.DateTimeFormat.supportedLocalesOf(base, { localeMatcher: "lookup" })[0] ?? null;
  } catch {
    return null;
  }
}

/** The language subtag of a locale: "de" of "de-DE", "sr" of "sr-Latn". */
export function languageOf(locale: string): string {
  const dash = locale.indexOf("-");
  return (dash === -1 ? locale : locale.slice(0, dash)).toLowerCase();
}
