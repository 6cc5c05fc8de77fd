import type { CountryCode } from "libphonenumber-js";
import { type Format, format } from "../core/message/format.js";
import { isPhoneRegion } from "../core/message/phone.js";
import type { RecordProfileSummary } from "./record-profile.js";

/** The format of a shown field of a drafted template, when it is not plain text. */
export type DraftFormat =
  | { readonly kind: "number" }
  | { readonly kind: "money"; readonly currencyField: string }
  | {
      readonly kind: "date";
      /** A date-fns pattern: the day for dates, the day and time for timestamps. */
      readonly pattern: string;
      readonly timeZone: string;
      /** The zone offset-less timestamps of the records are read in; undefined when all carry an offset. */
      readonly sourceZone: string | undefined;
    }
  | { readonly kind: "phone"; readonly defaultCountry: string | undefined };

/** What a drafted field's format is chosen from. */
export interface FieldFacts {
  readonly collection: string;
  readonly field: string;
  /** The schema declares a number. */
  readonly number: boolean;
  /** The schema declares a string (an amount kept as text is money only then). */
  readonly string?: boolean;
  /** A readable field of the same record holding currency codes, if any. */
  readonly currencyField: string | undefined;
  /** Messages of the history were texted to this field's values: it holds phone numbers. */
  readonly texted: boolean;
}

/** Options of {@link draftFormat}. */
export interface FormatChoices {
  /** The zone dates are shown in, and offset-less timestamps read in. @default "UTC" */
  readonly timeZone?: string;
  /** The country of phone numbers written without a `+` (`--country`); else inferred from the records. */
  readonly country?: string;
  /**
   * The language the history writes, when not English (the report's `language`): its dates are
   * drafted in its numeric order ("03/03/2026", "03.03.2026"), which reads right without month names
   * in a language the template does not name.
   */
  readonly language?: string;
}

const datePattern = "d MMMM yyyy";
const timestampPattern = "d MMMM yyyy, HH:mm";

/**
 * The format a drafted template shows a field with, from what the history's records hold: a number with a
 * currency beside it is money, other numbers numbers; a string field of decimal amounts ("49.90") with a
 * currency beside it is money too, as mining read it (`amount-text.ts`), else text; a field of ISO dates
 * a date, of ISO timestamps a date and time (in `timeZone`), or a date where every one was written at
 * one time of day; a field of phone numbers a phone with the default country of {@link phoneCountry}.
 * Undefined is plain text.
 */
export function draftFormat(
  facts: FieldFacts,
  profile: RecordProfileSummary | undefined,
  choices: FormatChoices = {},
): DraftFormat | undefined {
  if (facts.number) {
    return facts.currencyField === undefined
      ? { kind: "number" }
      : { kind: "money", currencyField: facts.currencyField };
  }
  const kind = profile?.fields.find(
    (field) => field.collection === facts.collection && field.field === facts.field,
  );
  if (kind?.kind === "amount") {
    // Money reads a decimal string exactly; a number format would refuse a string, so without a currency
    // the amount stays text.
    return facts.string === true && facts.currencyField !== undefined
      ? { kind: "money", currencyField: facts.currencyField }
      : undefined;
  }
  const timeZone = choices.timeZone ?? "UTC";
  const day = choices.language === undefined ? datePattern : numericDayPattern(choices.language);
  if (kind?.kind === "date") return { kind: "date", pattern: day, timeZone, sourceZone: undefined };
  if (kind?.kind === "timestamp") {
    // A time of day that never varies (midnight, a fixed hour) says nothing: shown in UTC, where the
    // profile saw each value fall on the day written, the field is a date.
    const dayOnly = kind.fixedTime === true && timeZone === "UTC";
    return {
      kind: "date",
      pattern: dayOnly ? day : timestampOf(day),
      timeZone,
      sourceZone: kind.offsetLess ? timeZone : undefined,
    };
  }
  if (kind?.kind === "phone" || facts.texted)
    return { kind: "phone", defaultCountry: phoneCountry(profile, facts, choices.country) };
  return undefined;
}

/** A day's pattern with the time of day after it: English's own timestamp pattern, else the day's and "HH:mm". */
function timestampOf(day: string): string {
  return day === datePattern ? timestampPattern : `${day} HH:mm`;
}

/**
 * A day as `language` writes it in digits, as a date-fns pattern from Intl's parts: "dd/MM/yyyy" for
 * "it", "dd.MM.yyyy" for "de", "yyyy/MM/dd" for "ja". Only digits and marks: no month names, so no
 * date-fns locale is needed. {@link datePattern} when Intl knows no such language.
 */
export function numericDayPattern(language: string): string {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat(language, {
      day: "2-digit",
      month: "2-digit",
      year: "numeric",
      timeZone: "UTC",
    }).formatToParts(new Date(Date.UTC(2026, 2, 3)));
  } catch {
    return datePattern;
  }
  let pattern = "";
  for (const part of parts) {
    if (part.type === "day") pattern += "dd";
    else if (part.type === "month") pattern += "MM";
    else if (part.type === "year") pattern += "yyyy";
    // Letters in a literal ("г." in Russian, "年" in Japanese) are quoted: date-fns reads letters as tokens.
    else if (part.type === "literal")
      pattern += /\p{L}/u.test(part.value) ? `'${part.value.replaceAll("'", "''")}'` : part.value;
    else return datePattern;
  }
  return pattern;
}

/**
 * The country of numbers written without a `+`: the one given (`--country`), else the most frequent
 * country of the numbers written with one in this field, else in any phone field of the records.
 */
export function phoneCountry(
  profile: RecordProfileSummary | undefined,
  where: { readonly collection: string; readonly field: string },
  given?: string,
): string | undefined {
  if (given !== undefined) return given;
  const phones = profile?.fields.filter((field) => field.kind === "phone") ?? [];
  const own = phones.find((field) => field.collection === where.collection && field.field === where.field);
  const top = own?.countries[0]?.country;
  if (top !== undefined) return top;
  const counts = new Map<string, number>();
  for (const field of phones)
    for (const { country, count } of field.countries) counts.set(country, (counts.get(country) ?? 0) + count);
  let best: [string, number] | undefined;
  for (const entry of counts)
    if (best === undefined || entry[1] > best[1] || (entry[1] === best[1] && entry[0] < best[0]))
      best = entry;
  return best?.[0];
}

/** A country for `--country`: two letters of ISO 3166-1 that libphonenumber knows, upper-cased; else undefined. */
export function countryCode(text: string): CountryCode | undefined {
  const code = text.trim().toUpperCase();
  return /^[A-Z]{2}$/.test(code) && isPhoneRegion(code) ? code : undefined;
}

/** The format as `defineTemplate` takes it. Kept beside {@link formatSource}: the two must agree. */
export function formatOf(as: DraftFormat): Format {
  switch (as.kind) {
    case "number":
      return format.number();
    case "money":
      return format.money({ currencyField: as.currencyField });
    case "date":
      return format.date(as.pattern, {
        timeZone: as.timeZone,
        ...(as.sourceZone === undefined ? {} : { sourceZone: as.sourceZone }),
      });
    case "phone":
      return format.phone(
        as.defaultCountry === undefined ? {} : { defaultCountry: as.defaultCountry as CountryCode },
      );
  }
}

/** The format as the emitted catalog writes it, each string through `literal`. */
export function formatSource(as: DraftFormat, literal: (text: string) => string): string {
  switch (as.kind) {
    case "number":
      return "format.number()";
    case "money":
      return `format.money({ currencyField: ${literal(as.currencyField)} })`;
    case "date": {
      const zone = as.sourceZone === undefined ? "" : `, sourceZone: ${literal(as.sourceZone)}`;
      return `format.date(${literal(as.pattern)}, { timeZone: ${literal(as.timeZone)}${zone} })`;
    }
    case "phone":
      return as.defaultCountry === undefined
        ? "format.phone()"
        : `format.phone({ defaultCountry: ${literal(as.defaultCountry)} })`;
  }
}
