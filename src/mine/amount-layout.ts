import { normalize } from "./normalize.js";

/**
 * An amount written as an `Intl.NumberFormat` writes it and normalised (see {@link normalize}), composed
 * from the amount's digits and the format's layout — its texts around the number, grouping separator and
 * decimal mark — read once from Intl's own output. A call into Intl per amount and format costs a
 * microsecond or more; composing costs a few string operations. Where the layout cannot be trusted, the
 * format writes the amount itself.
 */

/** An amount's magnitude as its shortest decimal (what `String` writes), split at the decimal point. */
export interface DecimalAmount {
  readonly negative: boolean;
  readonly whole: string;
  readonly fraction: string;
}

// From 1e15 on, a double's shortest decimal may have more digits than it holds exactly, and a layout is
// read from amounts far below it: such amounts are left to Intl.
const largestComposed = 1e15;

/**
 * The decimal digits Intl rounds an amount from, or undefined where a layout is not trusted to compose
 * it: a value that is not finite, |value| of 1e15 or more, or written by `String` with an exponent (below
 * a millionth). A negative zero is negative: Intl writes "-0.00".
 */
export function decimalAmount(value: number, written = String(value)): DecimalAmount | undefined {
  if (!(Math.abs(value) < largestComposed) || written.includes("e")) return undefined;
  const text = written.charCodeAt(0) === 0x2d ? written.slice(1) : written;
  const point = text.indexOf(".");
  return {
    negative: value < 0 || Object.is(value, -0),
    whole: point < 0 ? text : text.slice(0, point),
    fraction: point < 0 ? "" : text.slice(point + 1),
  };
}

/**
 * How a format writes an amount, normalised: the texts around the number by sign, and the number's marks.
 * The number begins and ends with a digit, so each piece is normalised apart (a digit beside it): no run
 * of white space, and no letter whose lower case depends on its neighbours, spans two pieces.
 */
export interface AmountLayout {
  readonly places: number;
  readonly group: string;
  readonly decimal: string;
  readonly positive: Surround;
  readonly negative: Surround;
}

interface Surround {
  readonly prefix: string;
  readonly suffix: string;
}

/**
 * The amount as the layout's format writes it, normalised: rounded to its places, whole digits in groups
 * of three.
 */
export function composeAmount(layout: AmountLayout, amount: DecimalAmount): string {
  const { whole, fraction } = rounded(amount, layout.places);
  const around = amount.negative ? layout.negative : layout.positive;
  const number =
    fraction.length === 0
      ? grouped(whole, layout.group)
      : `${grouped(whole, layout.group)}${layout.decimal}${fraction}`;
  return `${around.prefix}${number}${around.suffix}`;
}

/**
 * The amount rounded to `places` as ICU rounds: its shortest decimal, half away from zero (1.005 →
 * 1.01, where toFixed, rounding the binary value, gives 1.00).
 */
function rounded(amount: DecimalAmount, places: number): { whole: string; fraction: string } {
  const { whole, fraction } = amount;
  if (fraction.length <= places) return { whole, fraction: fraction.padEnd(places, "0") };
  const kept = `${whole}${fraction.slice(0, places)}`;
  // The first digit dropped decides: 5 or more is at least half a unit, rounded away from zero.
  const digits = fraction.charCodeAt(places) >= 0x35 ? incremented(kept) : kept;
  const cut = digits.length - places;
  return { whole: digits.slice(0, cut), fraction: digits.slice(cut) };
}

/** A string of decimal digits plus one: 1299 → 1300, 999 → 1000. */
function incremented(digits: string): string {
  let at = digits.length - 1;
  while (at >= 0 && digits.charCodeAt(at) === 0x39) at--;
  const tail = "0".repeat(digits.length - 1 - at);
  return at < 0
    ? `1${tail}`
    : `${digits.slice(0, at)}${String.fromCharCode(digits.charCodeAt(at) + 1)}${tail}`;
}

/** Whole digits in groups of three from the right, joined by `group`. */
function grouped(whole: string, group: string): string {
  if (whole.length <= 3) return whole;
  let out = whole.slice(0, ((whole.length - 1) % 3) + 1);
  for (let at = out.length; at < whole.length; at += 3) out += `${group}${whole.slice(at, at + 3)}`;
  return out;
}

// Amounts a layout must reproduce exactly before it is trusted: zeros of both signs, each count of whole
// digits up to fifteen (every grouping), halves and roundings that carry, negatives.
const probes = [
  0, -0, 0.5, 1, 7.25, 12.345, 99.995, 123.4567, 999.9995, 1234, 1234.5, 12345.678, 123456.005, 1234567.891,
  12345678.125, 123456789.5, 9999999999.9999, 12345678901.25, 987654321098.765, 999999999999999, -0.004,
  -1.005, -1234.5, -98765.4321, -999999.999,
];

/**
 * The layout `format` writes amounts in, read from its parts for a positive and a negative amount, or
 * undefined where it does not reproduce Intl's own output, normalised, for every probe: a grouping other
 * than regular groups of three, digits other than ASCII, or parts this reading does not know.
 */
export function readLayout(format: Intl.NumberFormat): AmountLayout | undefined {
  const { minimumFractionDigits, maximumFractionDigits } = format.resolvedOptions();
  if (minimumFractionDigits !== maximumFractionDigits || maximumFractionDigits === undefined)
    return undefined;
  const positive = partsOf(format.formatToParts(1234567.125));
  const negative = partsOf(format.formatToParts(-1234567.125));
  if (positive === undefined || negative === undefined) return undefined;
  if (positive.group !== negative.group || positive.decimal !== negative.decimal) return undefined;
  const layout: AmountLayout = {
    places: maximumFractionDigits,
    group: positive.group,
    decimal: positive.decimal,
    positive: positive.surround,
    negative: negative.surround,
  };
  for (const probe of probes) {
    const amount = decimalAmount(probe);
    if (amount === undefined || composeAmount(layout, amount) !== normalize(format.format(probe)))
      return undefined;
  }
  return layout;
}

const numberParts = new Set<string>(["integer", "group", "decimal", "fraction"]);

/** The texts before and after the number in a format's parts, and the number's marks, normalised. */
function partsOf(
  parts: readonly Intl.NumberFormatPart[],
): { surround: Surround; group: string; decimal: string } | undefined {
  let prefix = "";
  let suffix = "";
  const groups = new Set<string>();
  const decimals: string[] = [];
  let seen: "before" | "number" | "after" = "before";
  for (const { type, value } of parts) {
    if (!numberParts.has(type)) {
      if (seen === "before") prefix += value;
      else {
        seen = "after";
        suffix += value;
      }
      continue;
    }
    // A number in two pieces (a text between its digits) is not a layout this reads.
    if (seen === "after") return undefined;
    seen = "number";
    if (type === "group") groups.add(value);
    if (type === "decimal") decimals.push(value);
  }
  const [group] = groups;
  if (group === undefined || groups.size > 1 || decimals.length > 1) return undefined;
  const between = (mark: string) => normalize(`0${mark}0`).slice(1, -1);
  return {
    surround: { prefix: normalize(`${prefix}0`).slice(0, -1), suffix: normalize(`0${suffix}`).slice(1) },
    group: between(group),
    decimal: decimals.length === 0 ? "" : between(decimals[0] as string),
  };
}
