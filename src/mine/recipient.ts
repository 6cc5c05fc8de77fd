import type { CollectionSchemas, RecordsDefinition } from "../core/definition/define-records.js";
import { lazyDependency } from "../core/lazy-dependency.js";
import { parsePhone } from "../core/message/phone.js";
import { cleanText } from "./clean-text.js";
import { singular } from "./mask.js";

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
  const wanted = addressForms(to, e164Of);
  if (wanted.size === 0) return undefined;
  // An e-mail address is only ever found in a value holding an "@", a phone number only in one without.
  let email = false;
  for (const form of wanted) if (form.startsWith("email:")) email = true;
  for (const collection of records.names) {
    const rows = ticket[collection];
    if (!Array.isArray(rows)) continue;
    const fields = Object.keys((records.collections[collection]?.shape ?? {}) as Record<string, unknown>);
    for (const row of rows.slice(0, records.maxPerCollection)) {
      if (typeof row !== "object" || row === null) continue;
      for (const field of fields) {
        const value = (row as Record<string, unknown>)[field];
        if (typeof value !== "string" || value.length > 320 || value.includes("@") !== email) continue;
        for (const form of knownForms(value)) {
          if (wanted.has(form)) return `${singular(collection)}.${field}`;
        }
      }
    }
  }
  return undefined;
}

/** Records repeat across tickets (a garage in a thousand of them): their forms are read once. */
const formsOfValue = new Map<string, ReadonlySet<string>>();
const maxRemembered = 20_000;

function knownForms(value: string): ReadonlySet<string> {
  const known = formsOfValue.get(value);
  if (known !== undefined) return known;
  const forms = addressForms(value, sharedE164);
  if (formsOfValue.size >= maxRemembered) formsOfValue.clear();
  formsOfValue.set(value, forms);
  return forms;
}

function addressForms(value: string, e164: (number: string) => string | undefined): Set<string> {
  const forms = new Set<string>();
  const address = bareAddress(value);
  if (address === undefined) return forms;
  if (address.includes("@")) {
    forms.add(`email:${address.toLowerCase()}`);
    return forms;
  }
  if (/^\+?[\d\s().-]{7,24}$/.test(address)) {
    const international = e164(address);
    if (international !== undefined) forms.add(`phone:${international}`);
    forms.add(`phone:${address.replace(/[^\d+]/g, "")}`);
  }
  return forms;
}

/**
 * The E.164 form of a record's number through `parsePhone`, whose cache masking has often filled with
 * the ticket's numbers already.
 */
function sharedE164(number: string): string | undefined {
  const phone = parsePhone(number, undefined);
  return phone.ok ? phone.e164 : undefined;
}

/**
 * The E.164 form of the recipient's number, as `parsePhone` gives it: parsed alone, without the display
 * forms (most of a parse's cost) no comparison needs, since no other step parses the recipient.
 */
function e164Of(number: string): string | undefined {
  const phone = phoneNumbers().parsePhoneNumberFromString(number, undefined);
  return phone?.isValid() === true ? phone.number : undefined;
}

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
