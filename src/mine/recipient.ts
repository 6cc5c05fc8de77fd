import type { CollectionSchemas, RecordsDefinition } from "../core/definition/define-records.js";
import { lazyDependency } from "../core/lazy-dependency.js";
import { cleanText } from "./clean-text.js";
import { placeholderPrefix } from "./placeholder-prefix.js";

const phoneNumbers = lazyDependency<typeof import("libphonenumber-js")>("libphonenumber-js");

/**
 * Where a message's recipient is found in its ticket's records: the collection and field whose value is
 * the address (e-mail compared lower-cased, phone numbers as E.164), or undefined when no record holds it —
 * a message a template could not send, since recipients come only from records. Both the recipient and
 * the record values are read as addresses, in the forms mail systems export them: `Name <addr>`,
 * `"Name" <addr>`, `<addr>`, `mailto:addr?subject=…`, `tel:+49…`, with any case and surrounding spaces.
 */
export function recipientSource<S extends CollectionSchemas>(
  definition: RecordsDefinition<S>,
  ticket: Readonly<Record<string, unknown>>,
  to: string,
): string | undefined {
  const records = definition as unknown as RecordsDefinition;
  const wanted = Wanted.of(to);
  if (wanted === undefined) return undefined;
  // An e-mail address is only ever found in a value holding an "@", a phone number only in one without.
  const email = wanted.email !== undefined;
  for (const collection of records.names) {
    const rows = ticket[collection];
    if (!Array.isArray(rows)) continue;
    const fields = fieldsOf(
      records.collections[collection]?.shape,
      placeholderPrefix(records.names, collection),
    );
    const count = Math.min(rows.length, records.maxPerCollection);
    for (let at = 0; at < count; at++) {
      const row: unknown = rows[at];
      if (typeof row !== "object" || row === null) continue;
      for (const [field, source] of fields) {
        const value = (row as Record<string, unknown>)[field];
        if (typeof value !== "string" || value.length > 320 || value.includes("@") !== email) continue;
        if (wanted.heldBy(value)) return source;
      }
    }
  }
  return undefined;
}

/** The recipient's form (see {@link addressForms}), compared with each record value's. */
class Wanted {
  /** The recipient's e-mail address, lower-cased, when it is one. */
  readonly email: string | undefined;
  /** Its one form as written: `email:` and the address lower-cased, or `phone:` and its digits. */
  readonly #form: string;
  readonly #phone: string | undefined;
  /**
   * The last digit the recipient's number is written with, which its E.164 form ends with too; undefined
   * for an e-mail address or a number written with no digit.
   */
  readonly #lastDigit: string | undefined;
  /** The recipient's E.164 form: parsed at the first record number it could be the only match of. */
  #e164: string | undefined | null = null;

  private constructor(address: string) {
    if (address.includes("@")) {
      this.email = address.toLowerCase();
      this.#form = `email:${this.email}`;
    } else {
      this.email = undefined;
      this.#phone = address;
      const digits = phoneDigits(address);
      this.#lastDigit = lastDigitOf(digits);
      this.#form = `phone:${digits}`;
    }
  }

  /** The recipient `to` names; undefined when it names no address, so no record can hold it. */
  static of(to: string): Wanted | undefined {
    const address = bareAddress(to);
    if (address === undefined || (!address.includes("@") && !phoneShape.test(address))) return undefined;
    return new Wanted(address);
  }

  /** Whether one of the forms of the record value `value` is one of the recipient's. */
  heldBy(value: string): boolean {
    // A plain address's one form is itself lower-cased: compared without making it (ASCII keeps lengths).
    const email = this.email;
    if (email !== undefined && plainAddress.test(value))
      return value.length === email.length && value.toLowerCase() === email;
    // Most of a ticket's values are names and words, which no number is: they are not read as addresses.
    if (this.#lastDigit !== undefined && !mayHoldDigits(value)) return false;
    const { forms, international } = knownForms(value);
    if (forms.has(this.#form)) return true;
    if (this.#phone === undefined || international === undefined) return false;
    // A number's E.164 form ends with the last digit it is written with: where the recipient's and the
    // value's differ, no form of one is a form of the other, and neither is parsed (most of this cost).
    if (lastDigitOf(international) !== this.#lastDigit) return false;
    // Its digits as written may be the recipient's E.164 form, or its own E.164 form one of the recipient's.
    for (const form of forms) if (form === this.#e164Form()) return true;
    const e164 = e164Of(international);
    if (e164 === undefined) return false;
    const form = `phone:${e164}`;
    return form === this.#form || form === this.#e164Form();
  }

  #e164Form(): string | undefined {
    if (this.#e164 === null) {
      const international = e164Of(this.#phone as string);
      this.#e164 = international === undefined ? undefined : `phone:${international}`;
    }
    return this.#e164;
  }
}

/**
 * Whether a value may hold a digit once read as an address: an ASCII value only where it writes one
 * (cleaning changes no ASCII letter into a digit); any other may, since compatibility forms are folded
 * ("＋４９", "①", "㋀" all hold digits then).
 */
function mayHoldDigits(value: string): boolean {
  for (let at = 0; at < value.length; at++) {
    const unit = value.charCodeAt(at);
    if ((unit >= 0x30 && unit <= 0x39) || unit >= 0x80) return true;
  }
  return false;
}

/** Each collection's fields, with the source a match in them names ("order.email"), read once per shape. */
const fieldsByShape = new WeakMap<object, Map<string, readonly (readonly [string, string])[]>>();

function fieldsOf(shape: unknown, prefix: string): readonly (readonly [field: string, source: string])[] {
  const key = typeof shape === "object" && shape !== null ? shape : undefined;
  let byPrefix = key === undefined ? undefined : fieldsByShape.get(key);
  const known = byPrefix?.get(prefix);
  if (known !== undefined) return known;
  const fields = Object.keys((shape ?? {}) as Record<string, unknown>).map(
    (field) => [field, `${prefix}.${field}`] as const,
  );
  if (key !== undefined) {
    if (byPrefix === undefined) {
      byPrefix = new Map();
      fieldsByShape.set(key, byPrefix);
    }
    byPrefix.set(prefix, fields);
  }
  return fields;
}

/** A record value read as an address. */
interface ValueAddress {
  /** `email:` and the address lower-cased, or `phone:` and the number's digits as written. */
  readonly forms: ReadonlySet<string>;
  /** The value as a number written with its "+country" prefix: its E.164 form is read when asked. */
  readonly international: string | undefined;
}

/** Records repeat across tickets (a garage in a thousand of them): their forms are read once. */
const formsOfValue = new Map<string, ValueAddress>();
const maxRemembered = 20_000;

function knownForms(value: string): ValueAddress {
  const known = formsOfValue.get(value);
  if (known !== undefined) return known;
  const forms = addressForms(value);
  if (formsOfValue.size >= maxRemembered) formsOfValue.clear();
  formsOfValue.set(value, forms);
  return forms;
}

const phoneShape = /^\+?[\d\s().-]{7,24}$/;

/** A phone number's digits as written, with its "+". */
function phoneDigits(number: string): string {
  return number.replace(/[^\d+]/g, "");
}

/** The last ASCII digit of a text, if any. */
function lastDigitOf(text: string): string | undefined {
  for (let at = text.length - 1; at >= 0; at--) {
    const unit = text.charCodeAt(at);
    if (unit >= 0x30 && unit <= 0x39) return text.charAt(at);
  }
  return undefined;
}

/** A value's forms (see {@link ValueAddress}). */
function addressForms(value: string): ValueAddress {
  const forms = new Set<string>();
  const address = bareAddress(value);
  if (address === undefined) return { forms, international: undefined };
  if (address.includes("@")) {
    forms.add(`email:${address.toLowerCase()}`);
    return { forms, international: undefined };
  }
  if (!phoneShape.test(address)) return { forms, international: undefined };
  forms.add(`phone:${phoneDigits(address)}`);
  return { forms, international: address.startsWith("+") ? address : undefined };
}

/**
 * A number's E.164 form, as `parsePhone` gives it (`phone.e164` when `ok`), parsed without the display
 * forms (most of a parse's cost) no comparison needs; masking parses a record's number only when the
 * message holds its digits, so a recipient's and most record numbers are parsed here first. Parsed
 * without a default country, a number has an E.164 form only when written with its "+country" prefix
 * (a phone-shaped address holds a "+" only as its first character): dates and national numbers are not
 * parsed.
 */
function e164Of(number: string): string | undefined {
  if (!number.startsWith("+")) return undefined;
  let known = e164Forms.get(number);
  if (known === undefined) {
    const phone = phoneNumbers().parsePhoneNumberFromString(number, undefined);
    known = phone?.isValid() === true ? phone.number : null;
    if (e164Forms.size >= maxRemembered) e164Forms.clear();
    e164Forms.set(number, known);
  }
  return known ?? undefined;
}

// Numbers by how they are written, as parsed: a partner's number stands in many tickets.
const e164Forms = new Map<string, string | null>();

// A plain address, as most records and recipients hold one: nothing around it to take off, nothing
// cleaning would change, one "@" with text on both sides, no "." at the end.
const plainAddress = /^[\w!#$%&*+/=?^`{|}~.-]+@[\w.-]*[\w-]$/;

/**
 * The one address a recipient field names, without display name, angle brackets, URI scheme or mailto
 * header fields; undefined when it names none or several (a template sends to exactly one). A display
 * name is never read as the address: `"shop@a.example" <other@b.example>` goes to other@b.example.
 */
function bareAddress(value: string): string | undefined {
  if (value.length <= 320 && plainAddress.test(value)) return value;
  // Cleaned as the history's text is: a zero-width space or fullwidth letters do not make another address.
  let text = cleanText(value).trim();
  if (text.length === 0 || text.length > 320) return undefined;
  const unquoted = withoutQuotedName(text);
  if (unquoted === undefined) return undefined;
  text = unquoted;
  const open = text.indexOf("<");
  if (open !== -1) {
    const close = text.indexOf(">", open + 1);
    // One bracketed address, and nothing after it but the separator of a list of one: two would be two
    // recipients.
    if (close === -1 || text.indexOf("<", open + 1) !== -1 || !/^[\s,;]*$/.test(text.slice(close + 1)))
      return undefined;
    text = text.slice(open + 1, close).trim();
  }
  const scheme = /^(mailto|tel):/i.exec(text);
  if (scheme !== null) {
    text = text.slice(scheme[0].length);
    // mailto:addr?subject=…&cc=… and tel:+49…;ext=1: what follows is not the address.
    const end = text.search(scheme[1]?.toLowerCase() === "mailto" ? /\?/ : /;/);
    if (end !== -1) text = text.slice(0, end);
    text = percentDecoded(text).trim();
  }
  if (!text.includes("@")) return text === "" ? undefined : text;
  // An address without brackets beside a name or comment ("Shop shop@a.example", "shop@a.example (Shop)"):
  // the one word holding an "@".
  const words = text.split(/[\s,;]+/).filter((word) => word.includes("@"));
  if (words.length !== 1) return undefined;
  const address = (words[0] as string).replace(/^[("'<]+|[)"'>.]+$/g, "");
  const at = address.indexOf("@");
  if (at <= 0 || at !== address.lastIndexOf("@") || at === address.length - 1) return undefined;
  return address;
}

/**
 * The text with a leading quoted display name (`"Doe, Jane" <…>`, escapes honoured) removed; undefined
 * when the quote is never closed.
 */
function withoutQuotedName(text: string): string | undefined {
  if (!text.startsWith('"')) return text;
  for (let i = 1; i < text.length; i++) {
    if (text[i] === "\\") i += 1;
    else if (text[i] === '"') return text.slice(i + 1).trim();
  }
  return undefined;
}

function percentDecoded(text: string): string {
  if (!text.includes("%")) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
