import { parsePhone } from "../core/message/phone.js";
import { type AmountLayout, composeAmount, decimalAmount, readLayout } from "./amount-layout.js";
import { amountOfText } from "./amount-text.js";
import { cleanText } from "./clean-text.js";
import { type DateContext, dateRenderings, dateValue } from "./date-renderings.js";
import { normalize } from "./normalize.js";
import type { HeldDigits } from "./text-digits.js";

/** The locales a date is always looked for in: English, with the month-first and day-first orders. */
export const englishLocales: readonly string[] = ["en-US", "en-GB"];

/**
 * The ways a record value may appear in a message someone wrote: as it is, and as formats render it —
 * dates (ISO dates and timestamps, Date objects) in numeric patterns of every order and as each of
 * `dates.locales` writes them (month names, weekdays, with the time for a timestamp), amounts with and
 * without their currency in common locales, phone numbers in international and national form. Each rendering is normalised (see {@link normalize}), a text value
 * cleaned first.
 */
export function renderings(
  value: unknown,
  currency: string | undefined,
  timeZone: string,
  dates: DateContext = { locales: englishLocales },
): readonly string[] {
  if (typeof value === "string") return stringRenderings(value, currency, timeZone, dates);
  if (typeof value === "number" && Number.isFinite(value)) return numberRenderings(value, currency);
  const date = dateValue(value);
  return date === undefined ? [] : dateRenderings(date, timeZone, dates);
}

function stringRenderings(
  value: string,
  currency: string | undefined,
  timeZone: string,
  dates: DateContext,
): string[] {
  const date = dateValue(value);
  // A date string is an ISO date or timestamp: printable ASCII with no run of white space, which cleaning
  // and normalising only lower-case.
  if (date !== undefined) {
    const out = [value.toLowerCase()];
    for (const form of dateRenderings(date, timeZone, dates)) out.push(form);
    return out;
  }
  // Cleaned as the history's text is (hidden characters out, compatibility forms folded), so a value
  // with a zero-width space is found in a message that wrote it. Formats write plain text: no cleaning.
  const plain = normalize(cleanText(value));
  if (plain.length === 0 || plain.length > 500) return [];
  const out = [plain];
  // A name typed on another keyboard or by a system that writes ASCII: "José" as "Jose", "O'Brien" as
  // "O’Brien".
  if (!asciiOnly.test(plain)) {
    const folded = plain.normalize("NFD").replace(marks, "").normalize("NFC");
    if (folded !== plain) out.push(folded);
  }
  if (plain.includes("'")) out.push(plain.replaceAll("'", "\u2019"));
  else if (plain.includes("\u2019")) out.push(plain.replaceAll("\u2019", "'"));
  const amount = amountOfText(value);
  // An amount kept as text is written as amounts are: "49,90 €", "$1,234.50".
  if (amount !== undefined) out.push(...numberRenderings(amount, currency));
  else if (isPhoneShaped(value)) {
    const phone = parsePhone(value, undefined);
    if (phone.ok) out.push(normalize(phone.e164), normalize(phone.international), normalize(phone.national));
  }
  return out;
}

const asciiOnly = /^[\u0000-\u007f]*$/;
const marks = /\p{M}/gu;

const phoneShape = /^\+?[\d\s().-]{7,24}$/;

/**
 * Whether a string is written as a phone number may be: "+", digits, white space and ( ) . - only, 7 to
 * 25 characters. Most record values fail on their first character, before the expression.
 */
export function isPhoneShaped(value: string): boolean {
  if (value.length < 7 || value.length > 25) return false;
  const first = value.charCodeAt(0);
  const letter = (first >= 0x41 && first <= 0x5a) || (first >= 0x61 && first <= 0x7a);
  return !letter && phoneShape.test(value);
}

/**
 * The digits of a phone number as people dial it: E.164 without "+", with the "00" most countries dial
 * abroad with ("0033 6 …"), with the trunk "0" kept in brackets ("+33 (0)6 …"), and national with and
 * without a trunk "0"; a number written with any grouping is found by its digits.
 */
export function phoneDigits(value: unknown): string[] {
  if (typeof value !== "string" || !isPhoneShaped(value)) return [];
  const phone = parsePhone(value, undefined);
  if (!phone.ok) return [];
  const e164 = phone.e164.slice(1);
  const national = phone.national.replace(/\D/g, "");
  // The country code is the international form's first group: "+33 6 12 34 56 78".
  const country = /^\+(\d{1,3})\s/.exec(phone.international)?.[1];
  const significant = country === undefined ? undefined : e164.slice(country.length);
  const forms = [e164, `00${e164}`, national];
  // Most countries dial a national number with a trunk "0"; the metadata does not always write it.
  if (!national.startsWith("0")) forms.push(`0${national}`);
  if (country !== undefined && significant !== undefined && !significant.startsWith("0"))
    forms.push(`${country}0${significant}`);
  return forms;
}

// The digit groupings and symbol places people write amounts in: 1,234.50 $ · 1.234,50 € · 1 234,50 €.
const moneyLocales = ["en-US", "en-GB", "de-DE", "fr-FR"];
const formatters = new Map<string, Intl.NumberFormat | null>();

function formatter(key: string, build: () => Intl.NumberFormat): Intl.NumberFormat | undefined {
  let found = formatters.get(key);
  if (found === undefined) {
    try {
      found = build();
    } catch {
      found = null;
    }
    if (formatters.size < 1_000) formatters.set(key, found);
  }
  return found ?? undefined;
}

// An amount's renderings by value and currency: a history repeats its prices and premiums. Bounded: a
// flood of distinct amounts only empties it.
const amounts = new Map<string, readonly string[]>();
const maxAmounts = 10_000;

function numberRenderings(value: number, currency: string | undefined): readonly string[] {
  const written = String(value);
  const key = `${written}\u0000${currency ?? ""}`;
  let found = amounts.get(key);
  if (found === undefined) {
    found = renderAmount(value, written, currency);
    if (amounts.size >= maxAmounts) amounts.clear();
    amounts.set(key, found);
  }
  return found;
}

/**
 * Whether some rendering of an amount (see {@link renderings}) may be in a text whose digits are
 * `digits`, told without rendering it. A rendering's digits, signs, symbols, grouping and decimal mark
 * left out, are the amount as String writes it or rounded to a number of places: two, or the
 * currency's (0 for JPY, 3 for KWD). toFixed rounds the binary value and Intl its shortest decimal,
 * so their last digits may differ by one: both neighbours of a rounding are tried (9.999 → "10.00", a
 * carry, is one of them). A symbol's digits, if any, would only lengthen the digits the text must hold.
 */
export function amountMayBeIn(value: number, currency: string | undefined, digits: HeldDigits): boolean {
  const size = Math.abs(value);
  // Below a millionth String writes an exponent; from 1e11 on, a ten-thousandth is no longer finer
  // than the spacing of doubles, and rounding by multiplying is no longer exact to one unit.
  if (!(size < 1e11) || (size !== 0 && size < 1e-6)) return true;
  const rounding = roundingOf(currency);
  // Places beyond four are not rounded exactly to one unit by multiplying: such an amount is rendered.
  if (rounding === undefined) return true;
  // Every rendering's digits begin with the integer part, or with the next integer where rounding
  // carries: most amounts a text does not name end here.
  const whole = Math.trunc(size);
  const carries = size - whole >= rounding.carriesFrom;
  if (!digits.holds(String(whole)) && !(carries && digits.holds(String(whole + 1)))) return false;
  if (digits.holds(String(size).replace(".", ""))) return true;
  for (const places of rounding.places) {
    const nearest = Math.round(size * 10 ** places);
    for (let units = Math.max(0, nearest - 1); units <= nearest + 1; units++)
      if (digits.holds(String(units).padStart(places + 1, "0"))) return true;
  }
  return false;
}

/** The places a currency's amounts are rendered with, and the fraction from which one of them carries. */
interface Rounding {
  readonly places: readonly number[];
  readonly carriesFrom: number;
}

// By currency as records write it: a history names a few currencies.
const roundings = new Map<string, Rounding | null>();

function roundingOf(currency: string | undefined): Rounding | undefined {
  const key = currency ?? "";
  let rounding = roundings.get(key);
  if (rounding === undefined) {
    const code = /^[A-Z]{3}$/.test(key) ? key : undefined;
    const found = new Set([2]);
    for (const locale of code === undefined ? [] : moneyLocales) {
      const symbol = currencyFormatter(locale, code as string);
      if (symbol !== undefined) found.add(symbol.resolvedOptions().maximumFractionDigits ?? 2);
    }
    const places = [...found];
    const fewest = Math.min(...places);
    // Rounding to p places carries from 1 - 0.5 / 10^p on; a hundredth less allows for the float's error.
    rounding = places.some((count) => count > 4) ? null : { places, carriesFrom: 0.99 - 0.5 / 10 ** fewest };
    if (roundings.size >= 1_000) roundings.clear();
    roundings.set(key, rounding);
  }
  return rounding ?? undefined;
}

function currencyFormatter(locale: string, code: string): Intl.NumberFormat | undefined {
  return formatter(
    `${locale} ${code}`,
    () => new Intl.NumberFormat(locale, { style: "currency", currency: code }),
  );
}

function renderAmount(value: number, written: string, currency: string | undefined): string[] {
  const fixed = value.toFixed(2);
  // Digits, signs, marks and a lower-cased code are normal already; each form is kept once.
  const out = new Set<string>([written, fixed, fixed.replace(".", ",")]);
  const { code, formats, whole } = moneyFormatsOf(currency);
  const amount = decimalAmount(value, written);
  for (const { format, layout } of formats)
    out.add(
      layout === undefined || amount === undefined
        ? normalize(format.format(value))
        : composeAmount(layout, amount),
    );
  if (code !== undefined) {
    out.add(`${fixed} ${code}`);
    out.add(`${code} ${fixed}`);
  }
  // A whole amount is written without places as often as with: "$1,200", "1.200 €", "12 €".
  if (Number.isInteger(value) && Math.abs(value) < 1e15)
    for (const format of whole) out.add(normalize(format.format(value)));
  return [...out];
}

/**
 * The formats an amount is rendered in for a currency as records write it, in order: for each money
 * locale, grouped with two places, then, for a currency code, with its symbol and with its code; each
 * with its layout where one is read (see {@link readLayout}).
 */
interface MoneyFormats {
  /** The currency code, lower-cased as normalising writes it; undefined for no currency or another text. */
  readonly code: string | undefined;
  readonly formats: readonly {
    readonly format: Intl.NumberFormat;
    readonly layout: AmountLayout | undefined;
  }[];
  /** For a whole amount, per money locale: grouped with no places, then with the currency's symbol. */
  readonly whole: readonly Intl.NumberFormat[];
}

// By currency as records write it: a history names a few currencies.
const moneyFormats = new Map<string, MoneyFormats>();

function moneyFormatsOf(currency: string | undefined): MoneyFormats {
  const key = currency ?? "";
  let found = moneyFormats.get(key);
  if (found === undefined) {
    const code = /^[A-Z]{3}$/.test(key) ? key : undefined;
    const formats: (Intl.NumberFormat | undefined)[] = [];
    const whole: (Intl.NumberFormat | undefined)[] = [];
    for (const locale of moneyLocales) {
      formats.push(
        formatter(
          locale,
          () => new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
        ),
      );
      whole.push(
        formatter(`${locale} whole`, () => new Intl.NumberFormat(locale, { maximumFractionDigits: 0 })),
      );
      if (code === undefined) continue;
      whole.push(
        formatter(
          `${locale} ${code} whole`,
          () =>
            new Intl.NumberFormat(locale, {
              style: "currency",
              currency: code,
              minimumFractionDigits: 0,
              maximumFractionDigits: 0,
            }),
        ),
      );
      formats.push(currencyFormatter(locale, code));
      formats.push(
        formatter(
          `${locale} ${code} code`,
          () => new Intl.NumberFormat(locale, { style: "currency", currency: code, currencyDisplay: "code" }),
        ),
      );
    }
    found = {
      code: code?.toLowerCase(),
      formats: formats.flatMap((format) =>
        format === undefined ? [] : [{ format, layout: readLayout(format) }],
      ),
      whole: whole.filter((format) => format !== undefined),
    };
    if (moneyFormats.size >= 1_000) moneyFormats.clear();
    moneyFormats.set(key, found);
  }
  return found;
}
