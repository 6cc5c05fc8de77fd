import type { Locale } from "date-fns";
import type { CountryCode } from "libphonenumber-js";
import { canonicalText } from "../definition/canonical-text.js";
import { lazyDependency } from "../lazy-dependency.js";
import { merged } from "../merged.js";
import { currencyDigits, numberScale, toSignedUnits, toUnits, unitsText } from "./amounts.js";
import { parsePhone } from "./phone.js";
import { clip } from "./sanitize.js";

// Loaded at the first date format, each function from its own file (the packages' root modules
// re-export all of date-fns, 300 files): a catalog without dates never loads them.
const dateFormat = lazyDependency<typeof import("date-fns/format")>("date-fns/format");
const timeZone = lazyDependency<typeof import("@date-fns/tz/tz")>("@date-fns/tz/tz");
const zoneOffset = lazyDependency<typeof import("@date-fns/tz/tzOffset")>("@date-fns/tz/tzOffset");

/** The outcome of formatting one value: the text to render, or what is wrong with the value. */
export type FormatResult =
  | { readonly ok: true; readonly value: string }
  | { readonly ok: false; readonly problem: string };

/** How a value becomes text. Built by the `format.*` helpers; formats are code, never model output. */
export interface Format {
  readonly kind: "text" | "email" | "phone" | "date" | "money" | "number";
  /** Multi-line values keep their line breaks; every other value is folded onto one line. */
  readonly multiline: boolean;
  /** Defang URLs and neutralise markup in the formatted value (text only: other kinds are built by code). */
  readonly neutralize: boolean;
  /** Formats `value`, a field of `record` (money reads its currency from the same record). */
  readonly apply: (value: unknown, record: Readonly<Record<string, unknown>>) => FormatResult;
  /**
   * Other fields of the record the format reads (money's `currencyField`, a date's `sourceZoneField`). A
   * format is given only these, and each is label-checked for the template's audience like a shown field.
   */
  readonly reads?: readonly string[];
  /** E-mail and phone formats: the normal form a recipient is delivered to (lower-case, E.164). */
  readonly address?: (value: unknown) => FormatResult;
  /**
   * Set when the format was built with bad options: `defineTemplate` throws it, naming the template
   * and the slot that use the format.
   */
  readonly problem?: string;
  /**
   * The same format for a message written in `locale` (month names, decimal marks, phone display). Set
   * only on formats built without a fixed locale: a format given one keeps it in every language.
   */
  readonly localize?: (locale: FormatLocale) => Format;
  /**
   * Money and number formats: the value as the whole units a ceiling sums (a currency's minor units,
   * millionths of a number), with its currency; a problem for a value no ceiling may sum.
   */
  readonly amount?: (value: unknown, record: Readonly<Record<string, unknown>>) => AmountResult;
  /**
   * Money and number formats: how `amount` reads a value (the currency's source, minor units, rounding),
   * in words. Two formats with the same `counts` count and show the same amount of any value; a locale's
   * format may differ from the default's only in how the amount is written.
   */
  readonly counts?: string;
  /** Set on a number format that cannot show exactly the amount a ceiling would count (percent, compact). */
  readonly uncounted?: string;
  /**
   * How the format was built (its helper and options) as one text: what a template's content version
   * hashes, since the pattern, currency or zone a format was given is not readable from its functions.
   */
  readonly spec?: string;
}

/** A shown amount as a ceiling sums it, or why it cannot be summed (content-free). */
export type AmountResult =
  | { readonly ok: true; readonly currency: string | undefined; readonly units: number }
  | { readonly ok: false; readonly problem: string };

/** What a format needs to follow the locale of a message. */
export interface FormatLocale {
  /** The canonical BCP 47 tag the message is written in, e.g. "de-AT". */
  readonly tag: string;
  /** Its region, e.g. "AT", when the tag names one. */
  readonly region: string | undefined;
  /** The date-fns locale the template gives for it (month and day names), if any. */
  readonly dates: Locale | undefined;
}

/** A format built with bad options: it fails every value, and `defineTemplate` reports `problem`. */
function broken(kind: Format["kind"], problem: string): Format {
  return { kind, multiline: false, neutralize: false, problem, apply: () => fail(problem) };
}

const ok = (value: string): FormatResult => ({ ok: true, value });
const fail = (problem: string): FormatResult => ({ ok: false, problem });

function text(options: { multiline?: boolean } = {}): Format {
  return {
    kind: "text",
    multiline: options.multiline === true,
    neutralize: true,
    apply: (value) => {
      if (typeof value === "string") return ok(value);
      if (typeof value === "number" && Number.isFinite(value)) return ok(String(value));
      if (typeof value === "bigint" || typeof value === "boolean") return ok(String(value));
      return fail(`is ${describeType(value)}, not text`);
    },
  };
}

// Deliberately stricter than RFC 5322: no quoted local parts, comments or IP literals, which
// mail clients render inconsistently and attackers use to smuggle a second address.
const emailPattern =
  /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** Lower-cases and checks an e-mail address; the normal form used for recipients and the scanner. */
export function normalizeEmail(value: unknown): FormatResult {
  if (typeof value !== "string") return fail(`is ${describeType(value)}, not an e-mail address`);
  const email = value.trim().toLowerCase();
  if (email.length > 254 || !emailPattern.test(email) || email.includes("..")) {
    return fail("is not a valid e-mail address");
  }
  return ok(email);
}

function email(): Format {
  return {
    kind: "email",
    multiline: false,
    neutralize: false,
    apply: normalizeEmail,
    address: normalizeEmail,
  };
}

/** Options of `format.phone`. */
export interface PhoneFormatOptions {
  /** Region for numbers written without a `+` prefix, e.g. "DE". */
  readonly defaultCountry?: CountryCode;
  /** How the number is shown. Recipients are always E.164. @default "international" */
  readonly style?: "e164" | "international" | "national";
}

function phone(options: PhoneFormatOptions = {}, home?: string): Format {
  const style = options.style ?? "international";
  const show = (key: "e164" | "international" | "national") => (value: unknown) => {
    if (typeof value !== "string") return fail(`is ${describeType(value)}, not a phone number`);
    const parsed = parsePhone(value, options.defaultCountry);
    if (!parsed.ok) return fail(parsed.problem);
    // A reader in the number's own country dials it as written there; everyone else needs the prefix.
    return ok(home !== undefined && parsed.country === home ? parsed.national : parsed[key]);
  };
  return {
    kind: "phone",
    multiline: false,
    neutralize: false,
    apply: show(style),
    address: show("e164"),
    // Without a style of its own, a number is shown as a reader of the message's region dials it.
    ...(options.style === undefined
      ? { localize: (locale: FormatLocale) => phone(options, locale.region) }
      : {}),
  };
}

/** Options of `format.date`. */
export interface DateFormatOptions {
  /** IANA time zone an instant is shown in, e.g. "Europe/Berlin". Required: a server's zone is never used. */
  readonly timeZone: string;
  /** date-fns locale for month and day names. @default en-US */
  readonly locale?: Locale;
  /**
   * IANA zone the records write offset-less date-times in ("2026-05-31T10:00:00" meaning 10:00 in that
   * zone). Without it (or `sourceZoneField`) such a value is refused: it names no instant.
   */
  readonly sourceZone?: string;
  /** The field of the same record holding the IANA zone of its offset-less date-times. */
  readonly sourceZoneField?: string;
}

function isZone(zone: unknown): zone is string {
  if (typeof zone !== "string" || zone === "") return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

// date-fns tokens that show a time of day or a zone: they mean nothing for a calendar date.
const timeTokens = /[hHkKmsSaAbBxXOztTp]/;

function date(pattern: string, options: DateFormatOptions): Format {
  if (!isZone(options?.timeZone)) {
    return broken(
      "date",
      `format.date: time zone "${String(options?.timeZone)}" is not an IANA zone; use a name such as "Europe/Berlin" or "UTC"`,
    );
  }
  if (options.sourceZone !== undefined && !isZone(options.sourceZone)) {
    return broken(
      "date",
      `format.date: sourceZone "${String(options.sourceZone)}" is not an IANA zone; use the zone your records' local times are written in, e.g. "Europe/Berlin"`,
    );
  }
  if (options.sourceZoneField !== undefined && typeof options.sourceZoneField !== "string") {
    return broken("date", 'format.date: sourceZoneField must name a field of the record, e.g. "timeZone"');
  }
  const locale = options.locale ? { locale: options.locale } : {};
  const { tz } = timeZone();
  const formatDate = dateFormat().format;
  const shown = { in: tz(options.timeZone), ...locale };
  // A calendar date is shown as itself: its day is read in UTC, where it was placed.
  const calendar = { in: tz("UTC"), ...locale };
  try {
    formatDate(0, pattern, shown);
  } catch (cause) {
    return broken(
      "date",
      `format.date: pattern "${String(pattern)}" is not a date-fns pattern (${(cause as Error).message}); quote literal letters, e.g. "d MMM 'at' HH:mm"`,
    );
  }
  const showsTime = timeTokens.test(pattern.replace(/'(?:[^']|'')*'?/g, ""));
  // Time-zone formatting costs ~10 µs; a record's date is formatted once and reused after.
  const cache = new Map<string, FormatResult>();
  const formatValue = (value: unknown, record: Readonly<Record<string, unknown>>): FormatResult => {
    const zone =
      options.sourceZone ??
      (options.sourceZoneField === undefined ? undefined : record[options.sourceZoneField]);
    const read = readDate(value, zone, options.sourceZoneField);
    if (!read.ok) return read;
    if (read.calendar === undefined) return ok(formatDate(read.instant, pattern, shown));
    if (showsTime) {
      return fail(
        `is a calendar date without a time, but the format "${pattern}" shows a time or zone; use a date-only pattern such as "d MMM yyyy"`,
      );
    }
    return ok(formatDate(read.calendar, pattern, calendar));
  };
  return {
    kind: "date",
    multiline: false,
    neutralize: false,
    ...(options.locale === undefined
      ? { localize: (locale: FormatLocale) => localDate(pattern, options, locale) }
      : {}),
    ...(options.sourceZoneField === undefined ? {} : { reads: [options.sourceZoneField] }),
    apply: (value, record) => {
      if (options.sourceZoneField !== undefined) return formatValue(value, record);
      const cacheKey =
        typeof value === "string"
          ? value
          : value instanceof Date
            ? `d${value.getTime()}`
            : `n${String(value)}`;
      const hit = cache.get(cacheKey);
      if (hit !== undefined) return hit;
      const result = formatValue(value, record);
      if (cache.size >= 10_000) cache.clear();
      cache.set(cacheKey, result);
      return result;
    },
  };
}

/**
 * A date format in a message's locale: with the template's date-fns locale for it, or as written where
 * the pattern shows no names (only numbers) or the locale is English (date-fns' own).
 */
function localDate(pattern: string, options: DateFormatOptions, locale: FormatLocale): Format {
  if (locale.dates !== undefined) return date(pattern, merged(options, { locale: locale.dates }));
  if (!showsNames(pattern) || locale.tag === "en" || locale.tag.startsWith("en-"))
    return date(pattern, options);
  return broken(
    "date",
    `format.date: "${pattern}" shows month or day names, and the template gives no date-fns locale for "${locale.tag}"; add it to the template's locale.dates (e.g. import { ${locale.tag.split("-")[0]} } from "date-fns/locale"), or give this slot a format of its own in that locale`,
  );
}

// date-fns tokens written only in digits (years, months and days as numbers, times, offsets).
const numericToken =
  /^(?:y+|u+|Y+|R+|M{1,2}|L{1,2}|d{1,2}|D{1,3}|H{1,2}|h{1,2}|k{1,2}|K{1,2}|m{1,2}|s{1,2}|S+|X+|x+|t|T)$/;

/** Whether a date-fns pattern writes words of a language (month, weekday, era, AM/PM, ordinals). */
function showsNames(pattern: string): boolean {
  const unquoted = pattern.replace(/'(?:[^']|'')*'?/g, " ");
  for (const [token] of unquoted.matchAll(/([A-Za-z])\1*/g)) if (!numericToken.test(token)) return true;
  return false;
}

type ReadDate =
  | { readonly ok: true; readonly instant: Date; readonly calendar: Date | undefined }
  | { readonly ok: false; readonly problem: string };

// RFC 3339 / ISO 8601 extended: a calendar date, optionally a time, optionally an offset ("Z", "+02:00").
const isoDate =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?)?$/;

/**
 * Reads a date value strictly. A date-only string is a calendar date (the same day in every zone); a
 * date-time with an offset, a `Date` and epoch milliseconds are instants; an offset-less date-time is an
 * instant only in a zone the format names. Impossible dates ("2026-02-29", "2026-13-01") are refused,
 * never rolled over.
 */
function readDate(value: unknown, zone: unknown, zoneField: string | undefined): ReadDate {
  if (value instanceof Date || typeof value === "number") {
    const instant = new Date(value instanceof Date ? value.getTime() : value);
    // A Date is valid when its time is a number; what date-fns's isValid checks for a Date.
    return !Number.isNaN(instant.getTime())
      ? { ok: true, instant, calendar: undefined }
      : { ok: false, problem: `is ${describeType(value)}, not a date` };
  }
  const match = typeof value === "string" && value.length <= 40 ? isoDate.exec(value) : null;
  if (match === null) return { ok: false, problem: `is ${describeType(value)}, not an ISO 8601 date` };
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const millisecond = Number((match[7] ?? "0").padEnd(3, "0").slice(0, 3));
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    return { ok: false, problem: "is not a date of the calendar (no such day)" };
  }
  if (hour > 23 || minute > 59 || second > 59) return { ok: false, problem: "has no such time of day" };
  const wall = Date.UTC(year, month - 1, day, hour, minute, second, millisecond);
  // Date.UTC maps years 0–99 to 1900–1999; setUTCFullYear puts them back.
  const utc = (ms: number) => {
    const at = new Date(ms);
    at.setUTCFullYear(year, month - 1, day);
    return at;
  };
  if (match[4] === undefined) {
    const calendar = utc(Date.UTC(2000, 0, 1, 12));
    return { ok: true, instant: calendar, calendar };
  }
  if (match[8] !== undefined) return { ok: true, instant: utc(wall), calendar: undefined };
  if (match[9] !== undefined) {
    const offsetHours = Number(match[10]);
    const offsetMinutes = Number(match[11] ?? 0);
    if (offsetHours > 23 || offsetMinutes > 59) return { ok: false, problem: "has an impossible UTC offset" };
    const offset = (match[9] === "-" ? -1 : 1) * (offsetHours * 60 + offsetMinutes);
    return { ok: true, instant: new Date(utc(wall).getTime() - offset * 60_000), calendar: undefined };
  }
  if (zone === undefined && zoneField === undefined) {
    return {
      ok: false,
      problem:
        "is a date-time without a UTC offset, so it names no instant; store it with an offset (e.g. +02:00 or Z) or name the zone it is written in with format.date's sourceZone",
    };
  }
  if (!isZone(zone)) {
    return { ok: false, problem: `has no valid time zone in field "${zoneField}" for its local time` };
  }
  return inZone(utc(wall).getTime(), zone);
}

/** The instant a wall-clock time names in `zone`; refused in a clock change's gap or overlap. */
function inZone(wall: number, zone: string): ReadDate {
  const found = new Set<number>();
  const { tzOffset } = zoneOffset();
  for (const probe of [wall - 86_400_000, wall, wall + 86_400_000]) {
    const candidate = wall - tzOffset(zone, new Date(probe)) * 60_000;
    if (candidate + tzOffset(zone, new Date(candidate)) * 60_000 === wall) found.add(candidate);
  }
  if (found.size === 1) return { ok: true, instant: new Date([...found][0] as number), calendar: undefined };
  return {
    ok: false,
    problem:
      found.size === 0
        ? `is a local time that does not exist in ${zone} (the clocks skip it); store it with a UTC offset`
        : `is a local time that occurs twice in ${zone} (the clocks go back); store it with a UTC offset`,
  };
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Options of `format.money`. */
export type MoneyFormatOptions = (
  | {
      /** A fixed ISO 4217 currency, e.g. "EUR". */ readonly currency: string;
      readonly currencyField?: never;
    }
  | {
      /** The field of the same record holding the currency code. */ readonly currencyField: string;
      readonly currency?: never;
    }
) & {
  /** BCP 47 locale, e.g. "de-DE". @default "en-US" */
  readonly locale?: string;
  /** The amount is in minor units (cents), as most payment systems store it. @default false */
  readonly minorUnits?: boolean;
};

const moneyFormatters = new Map<string, Intl.NumberFormat>();

function moneyFormatter(locale: string, currency: string): Intl.NumberFormat | undefined {
  const key = `${locale}\u0000${currency}`;
  let formatter = moneyFormatters.get(key);
  if (formatter === undefined) {
    if (!/^[A-Z]{3}$/.test(currency)) return undefined;
    try {
      formatter = new Intl.NumberFormat(locale, { style: "currency", currency });
    } catch {
      return undefined;
    }
    if (moneyFormatters.size < 1_000) moneyFormatters.set(key, formatter);
  }
  return formatter;
}

function money(options: MoneyFormatOptions): Format {
  const locale = options.locale ?? "en-US";
  if (options.currency !== undefined && moneyFormatter(locale, options.currency) === undefined) {
    return broken(
      "money",
      `format.money: "${options.currency}" is not an ISO 4217 currency code for locale "${locale}"; use e.g. "EUR"`,
    );
  }
  if (options.currency === undefined && typeof options.currencyField !== "string") {
    return broken(
      "money",
      'format.money: pass { currency: "EUR" } or { currencyField: "<field of the record>" }',
    );
  }
  const shift = options.minorUnits === true;
  // The one reading of a record's amount: what a ceiling counts, and what every locale's message shows.
  const read = (value: unknown, record: Readonly<Record<string, unknown>>): MoneyRead => {
    const currency = options.currency ?? record[options.currencyField as string];
    if (typeof currency !== "string")
      return { ok: false, problem: `has no currency (field "${options.currencyField}")` };
    const code = currency.toUpperCase();
    const digits = currencyDigits(code);
    if (digits === undefined)
      return { ok: false, problem: `has currency "${clip(currency, 8)}", which is not an ISO 4217 code` };
    // A record in minor units (cents, yen, fils) moves the point by the currency's own minor digits.
    const units = toSignedUnits(value, digits, shift ? digits : 0);
    if (!units.ok) return { ok: false, problem: `is not an amount: it ${units.problem}` };
    return { ok: true, code, digits, negative: units.negative, units: units.units };
  };
  return {
    kind: "money",
    multiline: false,
    neutralize: false,
    counts: `money in ${options.currency ?? `the currency of field "${options.currencyField}"`}${shift ? ", read in minor units" : ""}`,
    ...(options.locale === undefined
      ? { localize: (target: FormatLocale) => money(merged(options, { locale: target.tag })) }
      : {}),
    ...(options.currencyField === undefined ? {} : { reads: [options.currencyField] }),
    apply: (value, record) => {
      const amount = read(value, record);
      if (!amount.ok) return amount;
      const formatter = moneyFormatter(locale, amount.code);
      if (formatter === undefined)
        return fail(`has currency "${amount.code}", which locale "${locale}" cannot show`);
      // Formatted from the counted units as an exact decimal, so the text shows exactly what is counted.
      return ok(formatter.format(decimalOf(amount) as Intl.StringNumericLiteral));
    },
    amount: (value, record) => {
      const amount = read(value, record);
      if (!amount.ok) return amount;
      if (amount.negative) return { ok: false, problem: "is negative" };
      return { ok: true, currency: amount.code, units: amount.units };
    },
  };
}

/** A money value as read from its record: its currency and signed whole units, or what is wrong. */
type MoneyRead =
  | { readonly ok: true; code: string; digits: number; negative: boolean; units: number }
  | { readonly ok: false; readonly problem: string };

/** Signed whole units as the exact decimal Intl formats: { negative, units: 12345, digits: 2 } → "-123.45". */
function decimalOf(amount: { negative: boolean; units: number; digits: number }): string {
  return `${amount.negative ? "-" : ""}${unitsText(amount.units, amount.digits)}`;
}

function number(options: Intl.NumberFormatOptions & { readonly locale?: string } = {}): Format {
  const { locale = "en-US", ...rest } = options;
  let formatter: Intl.NumberFormat;
  try {
    formatter = new Intl.NumberFormat(locale, rest);
  } catch (cause) {
    return broken("number", `format.number: ${(cause as Error).message}`);
  }
  const resolved = formatter.resolvedOptions();
  const uncounted = uncountedBy(resolved);
  const digits = resolved.maximumFractionDigits ?? 0;
  const shown = (value: number) => {
    const units = uncounted === undefined ? toSignedUnits(value, digits) : undefined;
    return units?.ok === true ? { digits, negative: units.negative, units: units.units } : undefined;
  };
  return {
    kind: "number",
    multiline: false,
    neutralize: false,
    counts: `number ${JSON.stringify(countedOptions(resolved))}`,
    ...(uncounted === undefined ? {} : { uncounted }),
    ...(options.locale === undefined
      ? { localize: (target: FormatLocale) => number(merged(options, { locale: target.tag })) }
      : {}),
    apply: (value) => {
      if (typeof value !== "number" || !Number.isFinite(value))
        return fail(`is ${describeType(value)}, not a number`);
      const amount = shown(value);
      return ok(
        amount === undefined
          ? formatter.format(value)
          : formatter.format(decimalOf(amount) as Intl.StringNumericLiteral),
      );
    },
    amount: (value) => {
      if (uncounted !== undefined) return { ok: false, problem: uncounted };
      const units = toUnits(value, digits, 0, "nearest");
      if (!units.ok) return units;
      // Counted in millionths, whatever the shown digits: ceilings on numbers are in millionths.
      const scaled = units.units * 10 ** (numberScale - digits);
      return Number.isSafeInteger(scaled)
        ? { ok: true, currency: undefined, units: scaled }
        : { ok: false, problem: "is too large to sum exactly" };
    },
  };
}

/** The options that decide which amount a number format shows; the rest only decide how it is written. */
function countedOptions(resolved: Intl.ResolvedNumberFormatOptions): unknown[] {
  const { style, currency, unit, notation, maximumFractionDigits, maximumSignificantDigits } = resolved;
  const more = resolved as { roundingIncrement?: number; roundingMode?: string; roundingPriority?: string };
  return [
    style,
    currency,
    unit,
    notation,
    maximumFractionDigits,
    maximumSignificantDigits,
    more.roundingIncrement,
    more.roundingMode,
    more.roundingPriority,
  ];
}

/** Why a number format cannot show the exact amount a ceiling counts, if it cannot. */
function uncountedBy(resolved: Intl.ResolvedNumberFormatOptions): string | undefined {
  const more = resolved as { roundingIncrement?: number; roundingMode?: string };
  if (resolved.style === "percent") return "shows the value times 100 (style: percent)";
  if (resolved.notation !== "standard") return `rounds to a few digits (notation: ${resolved.notation})`;
  if (resolved.maximumSignificantDigits !== undefined)
    return "rounds to significant digits (maximumSignificantDigits)";
  if ((more.roundingIncrement ?? 1) !== 1)
    return `rounds to steps of ${more.roundingIncrement} (roundingIncrement)`;
  if ((more.roundingMode ?? "halfExpand") !== "halfExpand")
    return `rounds ${more.roundingMode} (roundingMode), not to the nearest`;
  if ((resolved.maximumFractionDigits ?? 0) > numberScale)
    return `shows more than ${numberScale} decimals (maximumFractionDigits)`;
  return undefined;
}

const noFields: Readonly<Record<string, unknown>> = Object.freeze({});

/**
 * What a format is given of its record: only the fields it declared it reads (`Format.reads`), which
 * were label-checked for the audience; the rest of the record was not.
 */
export function fieldsRead(
  record: Readonly<Record<string, unknown>>,
  reads: readonly string[],
): Readonly<Record<string, unknown>> {
  if (reads.length === 0) return noFields;
  const picked: Record<string, unknown> = {};
  for (const field of reads) if (Object.hasOwn(record, field)) picked[field] = record[field];
  return picked;
}

/** A short, content-free description of a value's type, safe to put in a detail message. */
export function describeType(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "missing";
  if (Array.isArray(value)) return "an array";
  if (value instanceof Date) return "an invalid date";
  return `${/^[aeiou]/.test(typeof value) ? "an" : "a"} ${typeof value}`;
}

/**
 * The value formats a slot can use. Each is code: the model never picks or changes a format.
 *
 * @example
 * import { format } from "formletter";
 * const placed = format.date("d MMM yyyy", { timeZone: "Europe/Berlin" });
 * const pickup = format.date("d MMM HH:mm", { timeZone: "Europe/Berlin", sourceZone: "America/New_York" });
 * const total = format.money({ currencyField: "currency" });
 */
export const format = {
  text: described("text", text),
  email: described("email", email),
  phone: described("phone", phone),
  date: described("date", date),
  money: described("money", money),
  number: described("number", number),
} as const;

/** A format helper whose formats carry how they were built, which a template's version hashes. */
function described<A extends unknown[]>(name: string, build: (...args: A) => Format): (...args: A) => Format {
  return (...args) => withSpec(build(...args), [name, ...args]);
}

/**
 * The format with its spec, and the same for each locale it is localised to: a localised format's
 * functions are the library's own code, whose source changes with how the library was built (from
 * source, bundled), so without a spec one template would have another version under each build.
 */
function withSpec(format: Format, how: readonly unknown[]): Format {
  const localize = format.localize;
  if (localize === undefined) return merged(format, { spec: canonicalText(how) });
  return merged(format, {
    spec: canonicalText(how),
    localize: (locale: FormatLocale) =>
      withSpec(localize(locale), [...how, { in: locale.tag, dates: locale.dates?.code ?? null }]),
  });
}
