/**
 * Amounts as exact integers. A ceiling sums what messages show; floats summed drift (0.1 + 0.2), so
 * every amount becomes a whole number of units first — a currency's minor units (cents), or millionths
 * for plain numbers — read from its decimal digits, never multiplied as a float.
 */

/** The outcome of reading an amount: whole units, or what is wrong with it (content-free). */
export type UnitsResult =
  | { readonly ok: true; readonly units: number }
  | { readonly ok: false; readonly problem: string };

/** Plain numbers are summed in millionths: six decimals, more than any shown quantity needs. */
export const numberScale = 6;

const plainDecimal = /^(\d{1,30})(?:\.(\d{1,30}))?$/;

const fractionDigits = new Map<string, number>();

/**
 * The minor-unit digits of an ISO 4217 currency (2 for EUR, 0 for JPY, 3 for KWD), as Intl knows them;
 * undefined when `currency` is not a code Intl knows.
 */
export function currencyDigits(currency: string): number | undefined {
  if (!/^[A-Z]{3}$/.test(currency)) return undefined;
  let digits = fractionDigits.get(currency);
  if (digits === undefined) {
    try {
      digits = new Intl.NumberFormat("en-US", { style: "currency", currency }).resolvedOptions()
        .maximumFractionDigits as number;
    } catch {
      return undefined;
    }
    if (fractionDigits.size < 1_000) fractionDigits.set(currency, digits);
  }
  return digits;
}

/**
 * `value` (a number, or a decimal string) as whole units of `10^-digits`, after moving its decimal point
 * `shift` places left (a record holding cents shown as euros: shift 2). A fraction finer than a unit is
 * rounded `nearest` (half away from zero, as Intl rounds what a message shows), `up` or `down`.
 * Negative, non-finite, exponent-written and over-large values are problems, never a number.
 */
export function toUnits(
  value: unknown,
  digits: number,
  shift = 0,
  rounding: "nearest" | "up" | "down" = "nearest",
): UnitsResult {
  let text: string;
  if (typeof value === "number") {
    if (Number.isNaN(value)) return { ok: false, problem: "is not a number" };
    if (!Number.isFinite(value)) return { ok: false, problem: "is not finite" };
    if (value < 0 || Object.is(value, -0))
      return value === 0 ? { ok: true, units: 0 } : { ok: false, problem: "is negative" };
    text = String(value);
  } else if (typeof value === "string") {
    text = value.trim();
    if (text.startsWith("-")) return { ok: false, problem: "is negative" };
  } else {
    return { ok: false, problem: `is ${value === null ? "null" : typeof value}, not an amount` };
  }
  const match = plainDecimal.exec(text);
  if (match === null)
    return {
      ok: false,
      problem: /e/i.test(text) ? "is too large or too small to sum exactly" : "is not a plain decimal amount",
    };
  const whole = match[1] as string;
  const fraction = match[2] ?? "";
  const all = BigInt(whole + fraction);
  // units = all * 10^(digits - fraction.length - shift)
  const exponent = digits - fraction.length - shift;
  let units: bigint;
  if (exponent >= 0) units = all * 10n ** BigInt(exponent);
  else {
    const divisor = 10n ** BigInt(-exponent);
    units = all / divisor;
    const rest = all % divisor;
    if (rounding === "up" ? rest !== 0n : rounding === "nearest" && rest * 2n >= divisor) units += 1n;
  }
  if (units > BigInt(Number.MAX_SAFE_INTEGER)) return { ok: false, problem: "is too large to sum exactly" };
  return { ok: true, units: Number(units) };
}

/** Whole units as a decimal string with `digits` decimals, for details and docs: 12345, 2 → "123.45". */
export function unitsText(units: number, digits: number): string {
  if (digits === 0) return String(units);
  const text = String(units).padStart(digits + 1, "0");
  return `${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/** A signed amount as whole units, or what is wrong with it (content-free). */
export type SignedUnitsResult =
  | { readonly ok: true; readonly negative: boolean; readonly units: number }
  | { readonly ok: false; readonly problem: string };

/**
 * {@link toUnits} for a value that may be negative, rounded to the nearest unit: what a message shows
 * of it, as `-` and whole units (a shown "-0.00" is 0 units, not negative).
 */
export function toSignedUnits(value: unknown, digits: number, shift = 0): SignedUnitsResult {
  let negative = false;
  let magnitude = value;
  if (typeof value === "number" && value < 0) {
    negative = true;
    magnitude = -value;
  } else if (typeof value === "string" && value.trimStart().startsWith("-")) {
    negative = true;
    magnitude = value.trimStart().slice(1);
  }
  const units = toUnits(magnitude, digits, shift, "nearest");
  if (!units.ok) return units;
  return { ok: true, negative: negative && units.units > 0, units: units.units };
}
