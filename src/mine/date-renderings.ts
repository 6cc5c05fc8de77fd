// From its own file: date-fns's root module re-exports all of date-fns.
import { isValid } from "date-fns/isValid";
import { normalize } from "./normalize.js";
import { type HeldDigits, textDigits } from "./text-digits.js";
import { bitsIn, wordBitsOf } from "./whole-words.js";

/**
 * A date as people write it in each of a few languages: numeric forms of every order, the forms the
 * locale's own conventions give (Intl.DateTimeFormat: long and short month names, with and without
 * weekday and year, numeric day-first or month-first as the locale orders them), and for an instant,
 * the date with its time of day ("03.03.2026, 10:00", "Mar 3, 2026, 10:00 AM", "5. März 2026 um 09:30").
 * No month name or connecting word is written here: all come from the runtime's locale data, so a
 * language Intl supports needs no table.
 *
 * Cost: a history repeats its days and its times of day far more than its instants, so a day's forms
 * are formatted once per locale and day, a time's once per locale and minute, and how a locale joins a
 * date and a time is learnt once per locale from one formatted example; an instant's forms are then
 * joined from those.
 */

/**
 * A date a record value names: a calendar day (an ISO date), a wall-clock time (an ISO timestamp with no
 * zone: the day and time as written, in any zone), or an instant (a timestamp with a zone, a Date).
 */
export type DateValue =
  | { readonly kind: "day"; readonly year: number; readonly month: number; readonly day: number }
  | {
      readonly kind: "wall";
      readonly year: number;
      readonly month: number;
      readonly day: number;
      readonly hour: number;
      readonly minute: number;
    }
  | {
      readonly kind: "instant";
      readonly at: Date;
      /**
       * The day and time as written, at the value's own offset ("2026-03-03T00:30:00+01:00" is 3 March,
       * 00:30): the wall clock its writer's system kept, which people write. Undefined for UTC and Dates.
       */
      readonly written?: WallTime;
    };

/** A day and a time of day, in some zone. */
interface WallTime {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
}

const isoDate =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::\d{2}(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

// The dates strings hold, by string: a history's records repeat their days and times. Bounded: a flood
// of distinct timestamps only empties it.
const readDates = new Map<string, DateValue | null>();
const maxReadDates = 20_000;

/** The date a value holds (an ISO date, an ISO timestamp or a valid Date), or undefined. */
export function dateValue(value: unknown): DateValue | undefined {
  if (value instanceof Date) return isValid(value) ? { kind: "instant", at: value } : undefined;
  // An ISO date has its first dash fifth: most strings fail here, before the expression.
  if (typeof value !== "string" || value.length > 40 || value.charCodeAt(4) !== 0x2d) return undefined;
  if (value === lastRead) return lastDate;
  lastRead = value;
  lastDate = readString(value);
  return lastDate;
}

// The string read last and its date: masking asks about a record value twice in a row (whether a text
// may hold it, then its renderings).
let lastRead: string | undefined;
let lastDate: DateValue | undefined;

function readString(value: string): DateValue | undefined {
  const usual = usualDate(value);
  if (usual !== undefined) return usual;
  let read = readDates.get(value);
  if (read === undefined) {
    read = readDate(value) ?? null;
    if (readDates.size >= maxReadDates) readDates.clear();
    readDates.set(value, read);
  }
  return read ?? undefined;
}

/**
 * The date of the two shapes records hold most, read by hand: a day ("2026-03-05") and an instant in UTC
 * to the second ("2026-03-05T09:30:00Z"). Undefined for any other string, or one not a valid date: the
 * expression decides those.
 */
function usualDate(value: string): DateValue | undefined {
  const length = value.length;
  if (length !== 10 && length !== 20) return undefined;
  const year = digitsAt(value, 0, 4);
  const month = digitsAt(value, 5, 2);
  const day = digitsAt(value, 8, 2);
  if (year === -1 || month === -1 || day === -1 || value[7] !== "-") return undefined;
  if (!isCalendarDay(year, month, day)) return undefined;
  if (length === 10) return { kind: "day", year, month, day };
  if (value[10] !== "T" || value[13] !== ":" || value[16] !== ":" || value[19] !== "Z") return undefined;
  const hour = digitsAt(value, 11, 2);
  const minute = digitsAt(value, 14, 2);
  const second = digitsAt(value, 17, 2);
  // A leap second or an hour past 23 is left to the expression and Date, as any other string.
  if (hour === -1 || minute === -1 || second === -1 || hour > 23 || minute > 59 || second > 59)
    return undefined;
  return { kind: "instant", at: new Date(Date.UTC(year, month - 1, day, hour, minute, second)) };
}

/** The number `count` ASCII digits from `at` write, or -1 where one is no digit. */
function digitsAt(value: string, at: number, count: number): number {
  let number = 0;
  for (let unit = at; unit < at + count; unit++) {
    const digit = value.charCodeAt(unit) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    number = number * 10 + digit;
  }
  return number;
}

/**
 * Whether a year (1000 or later: Date reads a year below 100 as 19xx), month and day name a day in the
 * Gregorian calendar, as Date counts them: 2026-02-31 does not (Date would roll it over to 3 March).
 */
function isCalendarDay(year: number, month: number, day: number): boolean {
  if (year < 1000 || month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 ? (leap ? 29 : 28) : (monthDays[month - 1] as number));
}

const monthDays = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function readDate(value: string): DateValue | undefined {
  const match = isoDate.exec(value);
  if (match === null) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (!isCalendarDay(year, month, day)) return undefined;
  if (match[4] === undefined) return { kind: "day", year, month, day };
  const [hour, minute] = [Number(match[4]), Number(match[5])];
  if (hour > 23 || minute > 59) return undefined;
  if (match[6] === undefined) return { kind: "wall", year, month, day, hour, minute };
  const at = new Date(value);
  if (!isValid(at)) return undefined;
  // An offset other than UTC's names the zone the value was written in.
  return /^[Zz]$|^[+-]00:?00$/.test(match[6])
    ? { kind: "instant", at }
    : { kind: "instant", at, written: { year, month, day, hour, minute } };
}

type Style = Intl.DateTimeFormatOptions;

// The forms a day is written in, each as the locale lays it out (order, words, punctuation).
const dayStyles: readonly Style[] = [
  { dateStyle: "full" },
  { dateStyle: "long" },
  { dateStyle: "medium" },
  { dateStyle: "short" },
  { day: "numeric", month: "long", year: "numeric" },
  { day: "2-digit", month: "long", year: "numeric" },
  { day: "numeric", month: "short", year: "numeric" },
  { weekday: "long", day: "numeric", month: "long", year: "numeric" },
  { weekday: "short", day: "numeric", month: "long", year: "numeric" },
  { weekday: "short", day: "numeric", month: "short", year: "numeric" },
  { day: "numeric", month: "long" },
  { day: "numeric", month: "short" },
  { weekday: "long", day: "numeric", month: "long" },
  { weekday: "short", day: "numeric", month: "short" },
  { day: "2-digit", month: "2-digit", year: "numeric" },
  { day: "numeric", month: "numeric", year: "numeric" },
  { day: "2-digit", month: "2-digit", year: "2-digit" },
  { day: "2-digit", month: "2-digit" },
];
/** Whether a style writes the day with digits only (no month or weekday name): every text may hold it. */
const numeric = (style: Style) =>
  style.weekday === undefined &&
  (style.month === undefined || style.month === "numeric" || style.month === "2-digit") &&
  (style.dateStyle === undefined || style.dateStyle === "short");
const numericDays = dayStyles.map(numeric);

// Times of day: the locale's short time (12- or 24-hour as it writes them), and the 24-hour clock.
const timeStyles: readonly Style[] = [
  { timeStyle: "short" },
  { hour: "numeric", minute: "2-digit" },
  { hour: "2-digit", minute: "2-digit" },
  { hour: "2-digit", minute: "2-digit", hourCycle: "h23" },
];
// A date and a time as the locale joins them (by index into the lists above): "3. März 2026 um 09:30".
const joined: readonly (readonly [day: number, time: number])[] = [
  [0, 0],
  [1, 0],
  [2, 0],
  [3, 0],
  [8, 1],
  [8, 2],
  [9, 1],
];
// A date and a time as people join them by hand, with ", " or " ": "05.03.2026, 09:30".
const byHand: readonly (readonly [day: number, time: number])[] = [
  [14, 0],
  [14, 3],
  [4, 0],
  [4, 3],
  [6, 0],
  [6, 3],
];

const formatters = new Map<string, Intl.DateTimeFormat | null>();
/**
 * What is learnt of one locale, kept between tickets: its days', months' and times' forms by number
 * (a ticket looks each of its dates up in each of its locales, so the look-up builds no string key).
 */
interface LocaleCache {
  readonly days: Map<number, readonly Written[]>;
  readonly forms: Map<number, readonly Group[]>;
  readonly months: Map<number, readonly string[]>;
  readonly times: Map<number, readonly Written[]>;
  joiners?: readonly (Joiner | undefined)[];
}
const localeCaches = new Map<string, LocaleCache>();
// Bounds on what is kept between tickets: a history names few locales and zones, and many days.
const maxCached = 20_000;
const maxLocales = 200;

function cacheOf(locale: string): LocaleCache {
  let found = localeCaches.get(locale);
  if (found === undefined) {
    found = { days: new Map(), forms: new Map(), months: new Map(), times: new Map() };
    if (localeCaches.size >= maxLocales) localeCaches.clear();
    localeCaches.set(locale, found);
  }
  return found;
}

/** A calendar day as one number, a key of the caches. */
const dayKey = (year: number, month: number, day: number) => (year * 13 + month) * 32 + day;

function formatter(
  locale: string,
  timeZone: string,
  style: Style | "parts",
): Intl.DateTimeFormat | undefined {
  const key = `${locale}\u0000${timeZone}\u0000${style === "parts" ? style : JSON.stringify(style)}`;
  let found = formatters.get(key);
  if (found === undefined) {
    try {
      found = new Intl.DateTimeFormat(
        locale,
        style === "parts"
          ? {
              timeZone,
              year: "numeric",
              month: "numeric",
              day: "numeric",
              hour: "numeric",
              minute: "numeric",
              hourCycle: "h23",
            }
          : { ...style, timeZone },
      );
    } catch {
      // An unknown zone or locale: no rendering, never an error.
      found = null;
    }
    if (formatters.size >= maxCached) formatters.clear();
    formatters.set(key, found);
  }
  return found ?? undefined;
}

function remember<T>(cache: Map<number, T>, key: number, make: () => T): T {
  const hit = cache.get(key);
  return hit !== undefined ? hit : kept(cache, key, make());
}

/** `made` kept in a bounded cache under `key`. */
function kept<T>(cache: Map<number, T>, key: number, made: T): T {
  if (cache.size >= maxCached) cache.clear();
  cache.set(key, made);
  return made;
}

const text = (format: Intl.DateTimeFormat | undefined, at: Date): string =>
  format === undefined
    ? ""
    : format
        .formatToParts(at)
        .map((part) => part.value)
        .join("");

/** A local time on a calendar day, read as if in UTC: the instant whose UTC fields are those numbers. */
const utc = (year: number, month: number, day: number, hour = 12, minute = 0) =>
  new Date(Date.UTC(year, month - 1, day, hour, minute));

/** What is written around a date and a time when a locale joins them: before, between, after, and order. */
interface Joiner {
  readonly timeFirst: boolean;
  readonly before: string;
  readonly between: string;
  readonly after: string;
  /** The digits of before, between and after (none in the locales known, but a locale could write some). */
  readonly digits: readonly [before: string, between: string, after: string];
}

/**
 * How `locale` joins each pair of {@link joined}, learnt from one example: the joined text of an instant
 * with the date and the time cut out of it. Undefined where the joined text does not hold both as they
 * are written alone (the pair is then left out).
 */
function joinersOf(locale: string): readonly (Joiner | undefined)[] {
  const cache = cacheOf(locale);
  cache.joiners ??= learnJoiners(locale);
  return cache.joiners;
}

function learnJoiners(locale: string): readonly (Joiner | undefined)[] {
  const example = utc(2000, 11, 22, 13, 45);
  return joined.map(([day, time]) => {
    const dayStyle = dayStyles[day] as Style;
    const timeStyle = timeStyles[time] as Style;
    const whole = text(formatter(locale, "UTC", { ...dayStyle, ...timeStyle }), example);
    const date = text(formatter(locale, "UTC", dayStyle), example);
    const clock = text(formatter(locale, "UTC", timeStyle), example);
    if (whole === "" || date === "" || clock === "") return undefined;
    const d = whole.indexOf(date);
    const t = whole.indexOf(clock);
    if (d === -1 || t === -1 || (d < t ? d + date.length > t : t + clock.length > d)) return undefined;
    const timeFirst = t < d;
    const [first, firstEnd, second] = timeFirst ? [t, t + clock.length, d] : [d, d + date.length, t];
    const secondEnd = second + (timeFirst ? date.length : clock.length);
    // Lower-cased with white space single, as the forms they join are.
    const piece = (from: number, to: number) => whole.slice(from, to).toLowerCase().replace(/\s+/g, " ");
    const [before, between, after] = [
      piece(0, first),
      piece(firstEnd, second),
      piece(secondEnd, whole.length),
    ];
    return {
      timeFirst,
      before,
      between,
      after,
      digits: [textDigits(before), textDigits(between), textDigits(after)],
    };
  });
}

/** A form and its digits (see {@link textDigits}). */
interface Written {
  readonly form: string;
  readonly digits: string;
}

const written = (form: string): Written => ({ form, digits: textDigits(form) });

/** Each of {@link dayStyles} for a calendar day in `locale`, normalised, by index. */
function daysOf(locale: string, year: number, month: number, day: number): readonly Written[] {
  return remember(cacheOf(locale).days, dayKey(year, month, day), () =>
    dayStyles.map((style) =>
      written(normalize(text(formatter(locale, "UTC", style), utc(year, month, day)))),
    ),
  );
}

/**
 * A locale's forms of one day that have the same digits (see {@link textDigits}): a text that does not
 * hold those digits together holds none of them, so one test rules out the group. Each form says whether
 * it has words for the month.
 */
interface Group {
  readonly digits: string;
  readonly forms: readonly { readonly form: string; readonly words: boolean }[];
}

/** The forms of a day in each of {@link dayStyles}, abbreviations also without their dots, by digits. */
function dayGroupsOf(locale: string, year: number, month: number, day: number): readonly Group[] {
  return remember(cacheOf(locale).forms, dayKey(year, month, day), () => {
    const groups = new Map<string, { form: string; words: boolean }[]>();
    const ordinal = ordinalOf(locale, day);
    for (const [at, { form: written, digits }] of daysOf(locale, year, month, day).entries()) {
      const words = !numericDays[at];
      const add = (form: string) => {
        const group = groups.get(digits);
        if (group === undefined) groups.set(digits, [{ form, words }]);
        else group.push({ form, words });
      };
      withoutDots(written, (form) => {
        add(form);
        // With the month in words, the day is also written as an ordinal: "1er mars", "March 3rd".
        if (words && ordinal !== undefined) {
          const numbered = withOrdinal(form, day, ordinal);
          if (numbered !== undefined) add(numbered);
        }
      });
    }
    return [...groups].map(([digits, forms]) => ({ digits, forms }));
  });
}

/**
 * The day of the month as an ordinal where the locale's language writes one in dates, lower-cased: every
 * day in English ("3rd"), the first in French ("1er"); undefined where it writes the number alone.
 */
function ordinalOf(locale: string, day: number): string | undefined {
  const language = locale.slice(0, 2).toLowerCase();
  if (language === "fr") return day === 1 ? "1er" : undefined;
  if (language !== "en") return undefined;
  const tens = day % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : (["th", "st", "nd", "rd"][day % 10] ?? "th");
  return `${day}${suffix}`;
}

/** A day's form with its day number written as `ordinal`; undefined where the number is not alone in it. */
function withOrdinal(form: string, day: number, ordinal: string): string | undefined {
  const found = new RegExp(`(?<![\\p{N}])0?${day}(?![\\p{N}])`, "u").exec(form);
  if (found === null) return undefined;
  return form.slice(0, found.index) + ordinal + form.slice(found.index + found[0].length);
}

/**
 * The forms of a day in several locales, by distinct digits, shortest first: the test of each digits is
 * made only when a shorter one it holds passed ("0305" is not in a text, so neither is "20260305"). A
 * date a text does not name costs a few tests, not one a form.
 */
interface DayForms {
  readonly digits: readonly string[];
  /** For each digits, the index of a shorter one it holds, or -1. */
  readonly requires: readonly number[];
  /** By digits, the forms written with digits only, and those with words for the month (by locale). */
  readonly numeric: readonly (readonly Form[])[];
  readonly worded: readonly (readonly Form[])[];
  /**
   * The shortest digits of the day's forms written with digits only (the locales' and {@link numericForms}),
   * none holding another: every such form's digits hold one of them, so a text that holds none of them
   * holds no numeric form of the day, nor any with a time joined to one.
   */
  readonly numericRoots: readonly string[];
  /** The first four digits of each of them, as numbers; undefined where one has fewer. */
  readonly rootFours: Int32Array | undefined;
  /**
   * The bits of the words without digits of each form with words for the month (see `wordBitsOf`),
   * none holding another: a text whose words hold none of them holds none of those forms whole.
   */
  readonly wordedWords: readonly Int32Array[];
}

/** A form of a day, with the bits of its words (see `wordBitsOf`) and, for one with words, its locale. */
interface Form {
  readonly form: string;
  readonly words: Int32Array;
  readonly locale: number;
}

const dayFormCaches = new Map<string, Map<number, DayForms>>();
// The cache of the list asked with last: a ticket's index asks with one list for each of its dates, and
// the next ticket with a list of its own, most often the same locales (a WeakMap entry a ticket cost
// more than the look-ups it saved).
let lastList: readonly string[] | undefined;
let lastCache: Map<number, DayForms> | undefined;

function dayFormCacheOf(locales: readonly string[]): Map<number, DayForms> {
  if (lastCache !== undefined && lastList !== undefined && sameList(locales, lastList)) return lastCache;
  const key = locales.join("\u0000");
  let cache = dayFormCaches.get(key);
  if (cache === undefined) {
    cache = new Map();
    if (dayFormCaches.size >= maxLocales) dayFormCaches.clear();
    dayFormCaches.set(key, cache);
  }
  lastList = locales;
  lastCache = cache;
  return cache;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let at = 0; at < a.length; at++) if (a[at] !== b[at]) return false;
  return true;
}

function dayFormsOf(locales: readonly string[], year: number, month: number, day: number): DayForms {
  // Asked for each date of each ticket: a hit makes no closure.
  const cache = dayFormCacheOf(locales);
  const key = dayKey(year, month, day);
  return cache.get(key) ?? kept(cache, key, readDayForms(locales, year, month, day));
}

function readDayForms(locales: readonly string[], year: number, month: number, day: number): DayForms {
  const byDigits = new Map<string, { form: string; locale: number; words: boolean }[]>();
  for (const [locale, tag] of locales.entries()) {
    for (const group of dayGroupsOf(tag, year, month, day)) {
      const list = byDigits.get(group.digits) ?? [];
      for (const { form, words } of group.forms) list.push({ form, locale, words });
      byDigits.set(group.digits, list);
    }
  }
  const digits = [...byDigits.keys()].sort((a, b) => a.length - b.length);
  const requires = digits.map((own, at) => {
    for (let shorter = at - 1; shorter >= 0; shorter--) {
      const held = digits[shorter] as string;
      if (held.length < own.length && own.includes(held)) return shorter;
    }
    return -1;
  });
  const of = (own: string) => byDigits.get(own) ?? [];
  const numeric = digits.map((own) =>
    [...new Set(of(own).flatMap(({ form, words }) => (words ? [] : [form])))].map(
      (form): Form => ({ form, words: wordBitsOf(form), locale: -1 }),
    ),
  );
  const numericDigits = [
    ...digits.filter((_, at) => (numeric[at] as readonly Form[]).length > 0),
    ...numericForms(year, month, day).map(([, own]) => own),
  ].sort((a, b) => a.length - b.length);
  const numericRoots: string[] = [];
  for (const own of numericDigits)
    if (!numericRoots.some((root) => own.includes(root))) numericRoots.push(own);
  const wordedWords: Int32Array[] = [];
  for (const list of byDigits.values())
    for (const { form, words } of list) {
      if (!words) continue;
      const bits = wordBitsOf(form, false);
      // A list holding another is in a text only where the other is: it tells nothing more.
      if (wordedWords.some((other) => other.every((bit) => bits.includes(bit)))) continue;
      for (let at = wordedWords.length - 1; at >= 0; at--)
        if (bits.every((bit) => (wordedWords[at] as Int32Array).includes(bit))) wordedWords.splice(at, 1);
      wordedWords.push(bits);
    }
  return {
    digits,
    requires,
    numeric,
    worded: digits.map((own) =>
      of(own).flatMap(({ form, locale, words }) =>
        words ? [{ form, words: wordBitsOf(form), locale }] : [],
      ),
    ),
    numericRoots,
    rootFours: numericRoots.every((root) => root.length >= 4)
      ? Int32Array.from(numericRoots, (root) => Number(root.slice(0, 4)))
      : undefined,
    wordedWords,
  };
}

/**
 * The forms of a day and a time of day joined, as `locale` joins them and as people do by hand, that
 * `digits` may hold: each is written only after its digits are found there, since an instant's forms are
 * rarely asked for twice and most texts hold none of them.
 */
function joinedForms(
  locale: string,
  local: { year: number; month: number; day: number; hour: number; minute: number },
  words: boolean,
  digits: HeldDigits | undefined,
  add: (form: string) => void,
): void {
  const days = daysOf(locale, local.year, local.month, local.day);
  const times = timesOf(locale, local.hour, local.minute);
  // A joined form's digits hold its date's and its time's: where the text lacks either, no form of the
  // pair is written. Each time and day is asked about once, not once a pair: bit i of `asked` says
  // form i was, of `held` that the text holds its digits (times from bit 24 on; days are 18).
  let asked = 0;
  let held = 0;
  const formHeld = (bit: number, form: Written, within: HeldDigits): boolean => {
    if ((asked & bit) === 0) {
      asked |= bit;
      if (within.holds(form.digits)) held |= bit;
    }
    return (held & bit) !== 0;
  };
  const pairHeld = (d: number, t: number): boolean => {
    const date = days[d] as Written;
    const clock = times[t] as Written;
    if (date.form === "" || clock.form === "") return false;
    if (!words && !numericDays[d]) return false;
    if (digits === undefined) return true;
    return formHeld(1 << (24 + t), clock, digits) && formHeld(1 << d, date, digits);
  };
  const joiners = joinersOf(locale);
  for (let at = 0; at < joiners.length; at++) {
    const joiner = joiners[at];
    const [d, t] = joined[at] as readonly [number, number];
    if (joiner === undefined || !pairHeld(d, t)) continue;
    const date = days[d] as Written;
    const clock = times[t] as Written;
    const first = joiner.timeFirst ? clock : date;
    const second = joiner.timeFirst ? date : clock;
    const [before, between, after] = joiner.digits;
    if (digits !== undefined && !digits.holds(before + first.digits + between + second.digits + after))
      continue;
    withoutDots(`${joiner.before}${first.form}${joiner.between}${second.form}${joiner.after}`.trim(), add);
  }
  for (const [d, t] of byHand) {
    if (!pairHeld(d, t)) continue;
    const date = days[d] as Written;
    const clock = times[t] as Written;
    // Both ways of joining by hand have the same digits: the date's, then the time's.
    if (digits !== undefined && !digits.holds(date.digits + clock.digits)) continue;
    withoutDots(`${date.form}, ${clock.form}`, add);
    withoutDots(`${date.form} ${clock.form}`, add);
  }
  // French writes the time of day with an "h" more often than Intl's colon: "3 mars 2026 à 9h30".
  if (locale.slice(0, 2).toLowerCase() !== "fr") return;
  for (const clock of hourClocks(local.hour, local.minute)) {
    for (let at = 0; at < joiners.length; at++) {
      const joiner = joiners[at];
      const [d] = joined[at] as readonly [number, number];
      const date = days[d] as Written;
      if (joiner === undefined || joiner.timeFirst || date.form === "" || (!words && !numericDays[d]))
        continue;
      if (digits !== undefined && !digits.holds(date.digits + joiner.digits[1] + clock.digits)) continue;
      withoutDots(`${joiner.before}${date.form}${joiner.between}${clock.form}${joiner.after}`.trim(), add);
    }
  }
}

/** A time of day written with an "h" between hour and minutes, as French does: "9h30", "09h30". */
function hourClocks(hour: number, minute: number): readonly Written[] {
  const mm = String(minute).padStart(2, "0");
  return [...new Set([`${hour}h${mm}`, `${String(hour).padStart(2, "0")}h${mm}`])].map(written);
}

/**
 * The words `locale` writes a month with in a date (long and short, the short also without its dot),
 * lower-cased, read from the parts Intl formats a date into.
 */
function monthWords(locale: string, month: number): readonly string[] {
  return remember(cacheOf(locale).months, month, () => {
    const words = new Set<string>();
    for (const width of ["long", "short"] as const) {
      const parts = formatter(locale, "UTC", { day: "numeric", month: width })?.formatToParts(
        utc(2001, month, 15),
      );
      for (const part of parts ?? []) {
        if (part.type !== "month") continue;
        const word = normalize(part.value);
        if (word === "") continue;
        words.add(word);
        words.add(word.replace(/\.$/, ""));
      }
    }
    return [...words];
  });
}

/** Each of {@link timeStyles} for a time of day in `locale`, normalised, by index. */
function timesOf(locale: string, hour: number, minute: number): readonly Written[] {
  return remember(cacheOf(locale).times, hour * 60 + minute, () =>
    timeStyles.map((style) =>
      written(normalize(text(formatter(locale, "UTC", style), utc(2000, 1, 1, hour, minute)))),
    ),
  );
}

/**
 * A form and, when it has any, the form without the dots that end abbreviations, which people often
 * leave out ("3 de mar. de 2026", "3 de mar de 2026"); a dot after a digit ("3.") stays.
 */
function withoutDots(form: string, add: (form: string) => void): void {
  if (form === "") return;
  add(form);
  if (form.includes(".")) add(form.replace(/(\p{L})\./gu, "$1"));
}

/** The day, hour and minute an instant is in a zone; undefined for a zone Intl does not know. */
function localTime(at: Date, timeZone: string) {
  if (timeZone === "UTC")
    return {
      year: at.getUTCFullYear(),
      month: at.getUTCMonth() + 1,
      day: at.getUTCDate(),
      hour: at.getUTCHours(),
      minute: at.getUTCMinutes(),
    };
  const format = formatter("en-US", timeZone, "parts");
  if (format === undefined) return undefined;
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(at)) parts[part.type] = Number(part.value);
  return {
    year: parts.year as number,
    month: parts.month as number,
    day: parts.day as number,
    hour: (parts.hour as number) % 24,
    minute: parts.minute as number,
  };
}

// A day's numeric forms with their digits and word bits, by day: a history's tickets share their dates.
const numericByDay = new Map<
  number,
  readonly (readonly [form: string, digits: string, words: Int32Array])[]
>();

/** A day written with digits in every order people use, each with its digits and its words' bits. */
function numericForms(year: number, month: number, day: number) {
  return remember(numericByDay, dayKey(year, month, day), () => {
    const dd = String(day).padStart(2, "0");
    const mm = String(month).padStart(2, "0");
    return (
      [
        [`${year}-${mm}-${dd}`, `${year}${mm}${dd}`],
        [`${dd}.${mm}.${year}`, `${dd}${mm}${year}`],
        [`${day}.${month}.${year}`, `${day}${month}${year}`],
        [`${mm}/${dd}/${year}`, `${mm}${dd}${year}`],
        [`${dd}/${mm}/${year}`, `${dd}${mm}${year}`],
      ] as const
    ).map(([form, digits]) => [form, digits, wordBitsOf(form)] as const);
  });
}

// Which locales' month names the context asked with last holds in its text, by month: a ticket's dates
// share their months, each reading searches the text for every name of the month, and a ticket's index
// asks with one context (the next ticket's is another).
let namedFor: DateContext | undefined;
let namedMonths: (readonly boolean[] | undefined)[] = [];

/** For each of the context's locales, whether its text holds one of the locale's names for `month`. */
function monthsNamed(context: DateContext, month: number): readonly boolean[] {
  if (namedFor !== context) {
    namedFor = context;
    namedMonths = [];
  }
  let named = namedMonths[month];
  if (named === undefined) {
    const { text } = context;
    if (text === undefined) named = context.locales.map(() => true);
    else {
      const found = context.locales.map(() => false);
      const { words, locales } = monthNamesOf(context.locales, month);
      for (const [at, word] of words.entries()) {
        const naming = locales[at] as readonly number[];
        if (naming.some((locale) => !found[locale]) && text.includes(word))
          for (const locale of naming) found[locale] = true;
      }
      named = found;
    }
    namedMonths[month] = named;
  }
  return named;
}

/**
 * The words to look for to tell which of a list's locales name a month in a text, each with the locales
 * it names the month for. A locale's word that holds a shorter one of its own is left out ("february"
 * holds "feb": a text that holds the one holds the other), and a word two locales share ("feb" in
 * English of the US and of Britain) is listed once: most texts are then searched once for a month.
 */
interface MonthNames {
  readonly words: readonly string[];
  readonly locales: readonly (readonly number[])[];
}

// By month, for the list asked with last (a history's tickets most often name the same locales).
let monthNamesFor: readonly string[] | undefined;
let monthNames: (MonthNames | undefined)[] = [];

function monthNamesOf(list: readonly string[], month: number): MonthNames {
  if (monthNamesFor === undefined || !sameList(list, monthNamesFor)) {
    monthNamesFor = list;
    monthNames = [];
  }
  let names = monthNames[month];
  if (names === undefined) {
    const byWord = new Map<string, number[]>();
    for (const [locale, tag] of list.entries()) {
      const all = monthWords(tag, month);
      for (const word of all) {
        if (all.some((other) => other !== word && word.includes(other))) continue;
        const locales = byWord.get(word);
        if (locales === undefined) byWord.set(word, [locale]);
        else locales.push(locale);
      }
    }
    names = { words: [...byWord.keys()], locales: [...byWord.values()] };
    monthNames[month] = names;
  }
  return names;
}

// Which of a day's digits a text held, for one date at a time: cleared for each.
let passedUnits = new Uint8Array(64);

function passedBuffer(length: number): Uint8Array {
  if (passedUnits.length < length) passedUnits = new Uint8Array(length);
  return passedUnits.fill(0, 0, length);
}

/**
 * Whether the text's digits hold one of a day's numeric roots: told by their first four digits first,
 * which most texts do not hold.
 */
function rootHeld(digits: HeldDigits, forms: DayForms): boolean {
  const fours = forms.rootFours;
  if (fours !== undefined) {
    let some = false;
    for (let at = 0; at < fours.length && !some; at++) some = digits.holdsFour(fours[at] as number);
    if (!some) return false;
  }
  return holdsOne(digits, forms.numericRoots);
}

/** Whether all of one of the lists of word bits are among a text's words. */
function someBitsIn(words: Uint32Array, lists: readonly Int32Array[]): boolean {
  for (const bits of lists) if (bitsIn(words, bits)) return true;
  return false;
}

/** Whether the text's digits hold one of the runs. */
function holdsOne(digits: HeldDigits, runs: readonly string[]): boolean {
  for (const run of runs) if (digits.holds(run)) return true;
  return false;
}

/** Where dates are looked for: the locales, and the text when known (lower-cased). */
export interface DateContext {
  readonly locales: readonly string[];
  /**
   * The text the renderings are for, lower-cased: a locale's forms with month names are given only when
   * the text holds one of its names for the month, forms with a time only when it holds the minutes.
   * Most texts hold no date in words, and forms they cannot hold are most of an index's cost.
   */
  readonly text?: string;
  /**
   * The digits of that text (see {@link textDigits}): a form whose digits are not among them together
   * cannot be in the text, nor written there another way, and is not given.
   */
  readonly digits?: HeldDigits;
  /**
   * The whole words of that text (see `wholeWords`), when only forms found there whole are wanted: a
   * form of a day one of whose words it lacks is not given (joined forms are given as without).
   */
  readonly words?: Uint32Array;
}

/**
 * A date value's renderings, normalised (see {@link normalize}): a calendar day or wall-clock time as
 * written, an instant as the day and the time it is in `timeZone`; numeric forms of every order, then each locale's own forms,
 * abbreviations also without their dots. May hold duplicates.
 */
export function dateRenderings(value: DateValue, timeZone: string, context: DateContext): string[] {
  const local = value.kind === "instant" ? localTime(value.at, timeZone) : value;
  const written = value.kind === "instant" ? value.written : undefined;
  const out = local === undefined ? [] : renderingsAt(local, context);
  // A timestamp written with its offset is also looked for at that offset, where its day or time differ.
  if (
    written !== undefined &&
    (local === undefined ||
      written.day !== local.day ||
      written.hour !== ("hour" in local ? local.hour : -1) ||
      written.minute !== ("minute" in local ? local.minute : -1))
  )
    for (const form of renderingsAt(written, context)) out.push(form);
  return out;
}

/** The renderings of a day, or of a day and a time of day, as {@link dateRenderings} lists them. */
function renderingsAt(
  local: { readonly year: number; readonly month: number; readonly day: number } | WallTime,
  context: DateContext,
): string[] {
  const { year, month, day } = local;
  const { digits, words } = context;
  const forms = dayFormsOf(context.locales, year, month, day);
  // Every form of a day has digits only, or words for its month (a joined form, its day's): where the
  // text holds neither the one nor the other, none is made. Most of a ticket's dates end here. Of a
  // calendar day (no form joined to a time) only forms whose words the text holds are wanted, when
  // words are given: the words of its forms with month words are read before their names.
  if (
    digits !== undefined &&
    !rootHeld(digits, forms) &&
    (words !== undefined && !("hour" in local)
      ? !someBitsIn(words, forms.wordedWords)
      : !monthsNamed(context, month).includes(true))
  )
    return [];
  const numbers = numericForms(year, month, day);
  const out: string[] = [];
  for (const [form, own, bits] of numbers)
    if ((digits === undefined || digits.holds(own)) && (words === undefined || bitsIn(words, bits)))
      out.push(form);
  const { text } = context;
  const timed =
    "hour" in local && (text === undefined || text.includes(String(local.minute).padStart(2, "0")));
  const named = monthsNamed(context, month);
  const anyNamed = named.includes(true);
  const passed = passedBuffer(forms.digits.length);
  for (let at = 0; at < forms.digits.length; at++) {
    const required = forms.requires[at] as number;
    // Most fail here: a ticket's dates are many, the dates a message names few.
    if (required !== -1 && passed[required] === 0) continue;
    if (digits !== undefined && !digits.holds(forms.digits[at] as string)) continue;
    passed[at] = 1;
    for (const form of forms.numeric[at] as readonly Form[])
      if (words === undefined || bitsIn(words, form.words)) out.push(form.form);
    if (!anyNamed) continue;
    for (const form of forms.worded[at] as readonly Form[])
      if (named[form.locale] === true && (words === undefined || bitsIn(words, form.words)))
        out.push(form.form);
  }
  if (timed && "hour" in local) {
    const add = (form: string) => out.push(form);
    for (const [at, locale] of context.locales.entries())
      joinedForms(locale, local, named[at] === true, digits, add);
  }
  return out;
}

/** A time of day, on the 24-hour clock. */
export interface ClockTime {
  readonly hour: number;
  readonly minute: number;
}

/**
 * The times of day a date value names, as {@link dateRenderings} writes them: an instant's in `timeZone`
 * and, when it was written at another offset, at that offset; a wall-clock time's as written. None for a
 * calendar day.
 */
export function clockTimes(value: DateValue, timeZone: string): readonly ClockTime[] {
  if (value.kind === "day") return [];
  if (value.kind === "wall") return [{ hour: value.hour, minute: value.minute }];
  const local = localTime(value.at, timeZone);
  const out: ClockTime[] = local === undefined ? [] : [{ hour: local.hour, minute: local.minute }];
  const { written } = value;
  if (
    written !== undefined &&
    (local === undefined || written.hour !== local.hour || written.minute !== local.minute)
  )
    out.push({ hour: written.hour, minute: written.minute });
  return out;
}

// Words people join a date and a time with that Intl does not write: Spanish's "a la" (one o'clock),
// Italian's "alle" without "ore", the Scandinavian "kl"/"klo" without a dot, and signs.
const handJoiners = ["a la", "alle", "kl", "klo", "@", "-", "\u2013", "\u2014"];

/** How a list of locales joins a date and a time of day: see {@link dateTimeJoiners}. */
export interface DateTimeJoiners {
  /** The joining words, lower-cased, longest first, so a longer one is tried before a shorter it begins. */
  readonly words: readonly string[];
  /** Whether one of the locales writes the time with an "h" ("9h30"), as French does. */
  readonly hourH: boolean;
}

// The joiners of the list asked with last (a history's tickets name the same locales).
let joinersFor: readonly string[] | undefined;
let joinersFound: DateTimeJoiners = { words: [], hourH: false };

/**
 * The words a date and a time of day are joined with in the locales (as each writes a long date with a
 * time: "at", "à", "um", "a las", "alle ore", "às", "om", "kl."), with a few that people write by hand.
 */
export function dateTimeJoiners(locales: readonly string[]): DateTimeJoiners {
  if (joinersFor !== undefined && sameList(locales, joinersFor)) return joinersFound;
  const found = new Set(handJoiners);
  for (const locale of locales)
    for (const joiner of joinersOf(locale)) {
      const word = joiner?.between.replace(/^[\s,]+|[\s,]+$/g, "") ?? "";
      // Only words: a joiner with digits or longer than a few words is no joining word.
      if (word !== "" && word.length <= 12 && !/\d/.test(word)) found.add(word);
    }
  joinersFor = locales;
  joinersFound = {
    words: [...found].sort((a, b) => b.length - a.length),
    hourH: locales.some((locale) => locale.slice(0, 2).toLowerCase() === "fr"),
  };
  return joinersFound;
}
