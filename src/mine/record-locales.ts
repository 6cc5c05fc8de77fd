/**
 * The languages a ticket's records name: a string value that is a BCP 47 tag ("de-DE", "fr", "pt_BR")
 * whose language Intl can format dates in. A customer's `locale` or `language` field is the usual
 * source; any field holding such a tag counts, since records name it as they like.
 */

// A language subtag of two or three letters, then subtags of one to eight letters or digits: at most
// 35 characters, each repetition starting at a separator, so the test is linear.
const tagShape = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8}){0,6}$/;
const known = new Map<string, string | null>();
const maxKnown = 1_000;

/** The locale a value names, canonical ("de-DE"), or undefined when it names none Intl supports. */
export function localeTag(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length < 2 || value.length > 35) return undefined;
  const tag = value.trim().replaceAll("_", "-");
  if (!tagShape.test(tag)) return undefined;
  let found = known.get(tag);
  if (found === undefined) {
    try {
      // Extensions are dropped: a record names a language, and a "-u-ca-…" written into one would have
      // every date of the ticket looked for in another calendar.
      const base = new Intl.Locale(tag).baseName;
      // "lookup" falls back by subtags ("de-XX" → "de") and never to a default locale.
      found = Intl.DateTimeFormat.supportedLocalesOf(base, { localeMatcher: "lookup" })[0] ?? null;
    } catch {
      found = null;
    }
    if (known.size >= maxKnown) known.clear();
    known.set(tag, found);
  }
  return found ?? undefined;
}
