/**
 * Amounts and currencies as records store them in text: an amount kept as a string ("49.90", "-1234.5",
 * as decimal columns are often exported) and a currency code in a field of any name ("currencyCode",
 * "devise", "moneda"). Masking renders such an amount as it renders a number, with the record's currency.
 */

// A decimal with a point and one to four places: a price, not an id, a year or a version ("1.2.3").
const decimalText = /^-?\d{1,15}\.\d{1,4}$/;

/** The amount a string holds when it is written as a decimal number with places, or undefined. */
export function amountOfText(value: string): number | undefined {
  // Most strings are no amount: they fail on their first character, before the expression.
  const first = value.charCodeAt(0);
  if (value.length > 21 || (first !== 0x2d && (first < 0x30 || first > 0x39))) return undefined;
  if (!decimalText.test(value)) return undefined;
  return Number(value);
}

const currencyCodes: ReadonlySet<string> = new Set(Intl.supportedValuesOf("currency"));

/** Whether a value is an ISO 4217 currency code the runtime knows ("EUR", "CHF"). */
export function isCurrencyCode(value: unknown): value is string {
  return typeof value === "string" && value.length === 3 && currencyCodes.has(value);
}

/**
 * The currency of a record: its `currency` field when it holds text, otherwise the first of `fields`
 * holding a currency code, so an amount beside "currencyCode: 'GBP'" is looked for as "£1,234.50".
 */
export function recordCurrency(
  record: Readonly<Record<string, unknown>>,
  fields: readonly { readonly field: string }[],
): string | undefined {
  if (typeof record.currency === "string") return record.currency;
  for (const { field } of fields) {
    const value = record[field];
    if (isCurrencyCode(value)) return value;
  }
  return undefined;
}
