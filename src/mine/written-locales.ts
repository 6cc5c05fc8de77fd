import { englishLocales } from "./renderings.js";

/**
 * The languages a history writes its dates in, read from the month names of its first messages. A
 * company whose records name no locale still writes "3 marzo 2026" or "2. března 2026": without its
 * language, those dates would not be looked for, stay in the text, and a draft would lose them. Month
 * names come from Intl's data, so any language it formats is recognised, not a list of ours.
 */

/** Languages whose month names are looked for: those Intl writes with letters of their own words. */
const candidates = [
  "de",
  "fr",
  "es",
  "it",
  "pt",
  "nl",
  "ca",
  "gl",
  "eu",
  "sv",
  "da",
  "nb",
  "fi",
  "et",
  "lv",
  "lt",
  "pl",
  "cs",
  "sk",
  "sl",
  "hr",
  "sr-Latn",
  "ro",
  "hu",
  "tr",
  "el",
  "ru",
  "uk",
  "bg",
  "id",
  "ms",
  "ga",
  "cy",
];
/** Most languages added: each one multiplies the renderings of every date of every ticket. */
const maxLocales = 4;
/**
 * Fewest messages naming a language's months, as a share of those read, for it to count: a language
 * the business writes in, not one a minority of its customers read (records name those: a `locale`
 * field, or `locales` in the options). Masking a minority's dates too reshapes the clusters of the
 * messages around them.
 */
const minShare = 0.2;
const minMessages = 2;
/** A language counts only beside the most written one: a stray word is not a second language. */
const minOfTop = 0.25;

let monthLocales: Map<string, readonly string[]> | undefined;

/**
 * Month names (standalone and as a date writes them: "březen" and "března") in lower case, each with
 * the candidate languages that write it. English names are left out ("august", "april" are also German
 * and Dutch): English is always looked for, and they would add every language that shares them.
 */
function monthNames(): Map<string, readonly string[]> {
  if (monthLocales !== undefined) return monthLocales;
  const english = new Set<string>();
  for (const locale of englishLocales) for (const name of namesIn(locale)) english.add(name);
  const byName = new Map<string, string[]>();
  for (const locale of candidates) {
    if (Intl.DateTimeFormat.supportedLocalesOf(locale).length === 0) continue;
    for (const name of namesIn(locale)) {
      if (english.has(name) || name.length < 4) continue;
      const locales = byName.get(name) ?? [];
      if (!locales.includes(locale)) locales.push(locale);
      byName.set(name, locales);
    }
  }
  monthLocales = byName;
  return byName;
}

function namesIn(locale: string): Set<string> {
  const names = new Set<string>();
  const standalone = new Intl.DateTimeFormat(locale, { month: "long", timeZone: "UTC" });
  const inDate = new Intl.DateTimeFormat(locale, { day: "numeric", month: "long", timeZone: "UTC" });
  for (let month = 0; month < 12; month++) {
    const date = new Date(Date.UTC(2026, month, 15));
    names.add(standalone.format(date).toLowerCase().replace(/\.$/, ""));
    for (const part of inDate.formatToParts(date))
      if (part.type === "month") names.add(part.value.toLowerCase().replace(/\.$/, ""));
  }
  return names;
}

const wordPattern = /\p{L}+/gu;
const hanDate = /\d{1,2}\s?月\s?\d{1,2}\s?日/u;
const kana = /[\u3040-\u30ff]/u;
const hangulDate = /\d{1,2}\s?월\s?\d{1,2}\s?일/u;

/**
 * The locales, besides English, that `texts` (a history's first messages) write month names in: each
 * message's month words credit the languages that write them (shared by k languages, 1/k each); a
 * language counts when its credit reaches a fifth of the messages (at least two) and a quarter of the
 * most written one's. Dates written "3月2日" add Japanese or Chinese, "3월 2일" Korean. At most four, most
 * written first; deterministic for given texts.
 */
export function localesWritten(texts: readonly string[]): string[] {
  const names = monthNames();
  const credit = new Map<string, number>();
  const add = (locale: string, amount: number) => credit.set(locale, (credit.get(locale) ?? 0) + amount);
  for (const text of texts) {
    const named = new Map<string, number>();
    for (const [word] of text.toLowerCase().matchAll(wordPattern)) {
      const locales = names.get(word);
      if (locales === undefined) continue;
      for (const locale of locales) named.set(locale, Math.max(named.get(locale) ?? 0, 1 / locales.length));
    }
    for (const [locale, amount] of named) add(locale, amount);
    if (hanDate.test(text)) add(kana.test(text) ? "ja" : "zh", 1);
    if (hangulDate.test(text)) add("ko", 1);
  }
  const needed = Math.max(minMessages, minShare * texts.length);
  const ranked = [...credit]
    .filter(([, amount]) => amount >= needed)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const top = ranked[0]?.[1] ?? 0;
  return ranked
    .filter(([, amount]) => amount >= minOfTop * top)
    .slice(0, maxLocales)
    .map(([locale]) => locale);
}
