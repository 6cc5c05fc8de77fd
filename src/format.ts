import { tz } from "@date-fns/tz";
import { format as formatDate, isValid, type Locale } from "date-fns";
import type { CountryCode } from "libphonenumber-js";
import { parsePhone } from "./phone.js";

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
   * Other fields of the record the format reads (money's `currencyField`). A format is given only these,
   * and each is label-checked for the template's audience like a shown field.
   */
  readonly reads?: readonly string[];
  /** E-mail and phone formats: the normal form a recipient is delivered to (lower-case, E.164). */
  readonly address?: (value: unknown) => FormatResult;
  /**
   * Set when the format was built with bad options: `defineTemplate` throws it, naming the template
   * and the slot that use the format.
   */
  readonly problem?: string;
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

function phone(options: PhoneFormatOptions = {}): Format {
  const style = options.style ?? "international";
  const show = (key: "e164" | "international" | "national") => (value: unknown) => {
    if (typeof value !== "string") return fail(`is ${describeType(value)}, not a phone number`);
    const parsed = parsePhone(value, options.defaultCountry);
    return parsed.ok ? ok(parsed[key]) : fail(parsed.problem);
  };
  return { kind: "phone", multiline: false, neutralize: false, apply: show(style), address: show("e164") };
}

/** Options of `format.date`. */
export interface DateFormatOptions {
  /** IANA time zone the date is shown in, e.g. "Europe/Berlin". Required: a server's zone is never used. */
  readonly timeZone: string;
  /** date-fns locale for month and day names. @default en-US */
  readonly locale?: Locale;
}

function date(pattern: string, options: DateFormatOptions): Format {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: options?.timeZone });
    if (typeof options?.timeZone !== "string") throw new RangeError("missing");
  } catch {
    return broken(
      "date",
      `format.date: time zone "${String(options?.timeZone)}" is not an IANA zone; use a name such as "Europe/Berlin" or "UTC"`,
    );
  }
  const context = { in: tz(options.timeZone), ...(options.locale ? { locale: options.locale } : {}) };
  try {
    formatDate(0, pattern, context);
  } catch (cause) {
    return broken(
      "date",
      `format.date: pattern "${String(pattern)}" is not a date-fns pattern (${(cause as Error).message}); quote literal letters, e.g. "d MMM 'at' HH:mm"`,
    );
  }
  // Time-zone formatting costs ~10 µs; a record's date is formatted once and reused after.
  const cache = new Map<string, FormatResult>();
  return {
    kind: "date",
    multiline: false,
    neutralize: false,
    apply: (value) => {
      const cacheKey =
        typeof value === "string"
          ? value
          : value instanceof Date
            ? `d${value.getTime()}`
            : `n${String(value)}`;
      const hit = cache.get(cacheKey);
      if (hit !== undefined) return hit;
      const instant = toDate(value);
      const result =
        instant === undefined
          ? fail(`is ${describeType(value)}, not a date`)
          : ok(formatDate(instant, pattern, context));
      if (cache.size >= 10_000) cache.clear();
      cache.set(cacheKey, result);
      return result;
    },
  };
}

function toDate(value: unknown): Date | undefined {
  let instant: Date | undefined;
  if (value instanceof Date) instant = value;
  else if (typeof value === "number") instant = new Date(value);
  else if (typeof value === "string" && value.length <= 64 && /^\d{4}-\d{2}-\d{2}/.test(value))
    instant = new Date(value);
  return instant !== undefined && isValid(instant) ? instant : undefined;
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
  return {
    kind: "money",
    multiline: false,
    neutralize: false,
    ...(options.currencyField === undefined ? {} : { reads: [options.currencyField] }),
    apply: (value, record) => {
      const amount =
        typeof value === "string" && /^-?\d{1,15}(\.\d{1,6})?$/.test(value) ? Number(value) : value;
      if (typeof amount !== "number" || !Number.isFinite(amount))
        return fail(`is ${describeType(value)}, not an amount`);
      const currency = options.currency ?? record[options.currencyField as string];
      if (typeof currency !== "string") return fail(`has no currency (field "${options.currencyField}")`);
      const formatter = moneyFormatter(locale, currency.toUpperCase());
      if (formatter === undefined)
        return fail(`has currency "${currency.slice(0, 8)}", which is not an ISO 4217 code`);
      return ok(formatter.format(options.minorUnits === true ? amount / 100 : amount));
    },
  };
}

function number(options: Intl.NumberFormatOptions & { readonly locale?: string } = {}): Format {
  const { locale = "en-US", ...rest } = options;
  let formatter: Intl.NumberFormat;
  try {
    formatter = new Intl.NumberFormat(locale, rest);
  } catch (cause) {
    return broken("number", `format.number: ${(cause as Error).message}`);
  }
  return {
    kind: "number",
    multiline: false,
    neutralize: false,
    apply: (value) =>
      typeof value === "number" && Number.isFinite(value)
        ? ok(formatter.format(value))
        : fail(`is ${describeType(value)}, not a number`),
  };
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
 * const total = format.money({ currencyField: "currency" });
 */
export const format = { text, email, phone, date, money, number } as const;
