import { isValid } from "date-fns";
import { parsePhone } from "../core/message/phone.js";
import { cleanText } from "./clean-text.js";

/**
 * The ways a record value may appear in a message someone wrote: as it is, and as formats render it —
 * dates in common patterns, amounts with and without their currency in common locales, phone numbers in
 * international and national form. Each rendering is normalised (see {@link normalize}), a text value
 * cleaned first.
 */
export function renderings(value: unknown, currency: string | undefined, timeZone: string): string[] {
  if (typeof value === "string") return stringRenderings(value, timeZone);
  if (typeof value === "number" && Number.isFinite(value)) return numberRenderings(value, currency);
  if (value instanceof Date && isValid(value)) return dateRenderings(value, timeZone);
  return [];
}

/** Lower-case, every run of white space one space, trimmed: how text and values are compared. */
export function normalize(text: string): string {
  return text.toLowerCase().replace(/\s+/g, " ").trim();
}

const isoDate = /^(\d{4})-(\d{2})-(\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const months = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

function stringRenderings(value: string, timeZone: string): string[] {
  // Cleaned as the history's text is (hidden characters out, compatibility forms folded), so a value
  // with a zero-width space is found in a message that wrote it. Formats write plain text: no cleaning.
  const plain = normalize(cleanText(value));
  if (plain.length === 0 || plain.length > 500) return [];
  const out = [plain];
  const date = isoDate.exec(value);
  if (date !== null) {
    // A date-only value is a calendar date; a date-time is shown as the day it is in `timeZone`.
    const day =
      value.length === 10
        ? { year: Number(date[1]), month: Number(date[2]), day: Number(date[3]) }
        : dayIn(new Date(value), timeZone);
    if (day !== undefined) out.push(...dayRenderings(day.year, day.month, day.day));
  } else if (/^\+?[\d\s().-]{7,24}$/.test(value)) {
    const phone = parsePhone(value, undefined);
    if (phone.ok) out.push(normalize(phone.e164), normalize(phone.international), normalize(phone.national));
  }
  return out;
}

/**
 * The digits of a phone number as people dial it: E.164 without "+", and national with and without a
 * trunk "0"; a number written with any grouping is found by its digits.
 */
export function phoneDigits(value: unknown): string[] {
  if (typeof value !== "string" || !/^\+?[\d\s().-]{7,24}$/.test(value)) return [];
  const phone = parsePhone(value, undefined);
  if (!phone.ok) return [];
  const national = phone.national.replace(/\D/g, "");
  // Most countries dial a national number with a trunk "0"; the metadata does not always write it.
  return [phone.e164.slice(1), national, national.startsWith("0") ? national : `0${national}`];
}

function dateRenderings(date: Date, timeZone: string): string[] {
  const day = dayIn(date, timeZone);
  return day === undefined ? [] : dayRenderings(day.year, day.month, day.day);
}

const dayFormatters = new Map<string, Intl.DateTimeFormat>();

/** The calendar day an instant falls on in a zone. */
function dayIn(date: Date, timeZone: string): { year: number; month: number; day: number } | undefined {
  if (!isValid(date)) return undefined;
  let formatter = dayFormatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "numeric",
      day: "numeric",
    });
    if (dayFormatters.size < 100) dayFormatters.set(timeZone, formatter);
  }
  const parts: Record<string, number> = {};
  for (const part of formatter.formatToParts(date)) parts[part.type] = Number(part.value);
  return { year: parts.year as number, month: parts.month as number, day: parts.day as number };
}

/** A day in the patterns people write dates in (English month names; numeric forms of every order). */
function dayRenderings(year: number, month: number, day: number): string[] {
  const name = months[month - 1];
  if (name === undefined || day < 1 || day > 31) return [];
  const short = name.slice(0, 3);
  const dd = String(day).padStart(2, "0");
  const mm = String(month).padStart(2, "0");
  return [
    `${year}-${mm}-${dd}`,
    `${day} ${short} ${year}`,
    `${day} ${name} ${year}`,
    `${short} ${day}, ${year}`,
    `${name} ${day}, ${year}`,
    `${dd}.${mm}.${year}`,
    `${day}.${month}.${year}`,
    `${mm}/${dd}/${year}`,
    `${dd}/${mm}/${year}`,
    `${day} ${short}`,
    `${day} ${name}`,
    `${short} ${day}`,
    `${name} ${day}`,
  ];
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

function numberRenderings(value: number, currency: string | undefined): string[] {
  const fixed = value.toFixed(2);
  const out = new Set<string>([String(value), fixed, fixed.replace(".", ",")]);
  const code = currency !== undefined && /^[A-Z]{3}$/.test(currency) ? currency : undefined;
  for (const locale of moneyLocales) {
    const grouped = formatter(
      locale,
      () => new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
    );
    if (grouped !== undefined) out.add(grouped.format(value));
    if (code === undefined) continue;
    const symbol = formatter(
      `${locale} ${code}`,
      () => new Intl.NumberFormat(locale, { style: "currency", currency: code }),
    );
    if (symbol !== undefined) out.add(symbol.format(value));
    const iso = formatter(
      `${locale} ${code} code`,
      () => new Intl.NumberFormat(locale, { style: "currency", currency: code, currencyDisplay: "code" }),
    );
    if (iso !== undefined) out.add(iso.format(value));
  }
  if (code !== undefined) {
    out.add(`${fixed} ${code}`);
    out.add(`${code} ${fixed}`);
  }
  return [...out].map(normalize);
}
