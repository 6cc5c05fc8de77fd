import type { CountryCode } from "libphonenumber-js";
import { lazyDependency } from "../lazy-dependency.js";

// Loaded at the first phone number: its metadata and parser are over a hundred files.
const phoneNumbers = lazyDependency<typeof import("libphonenumber-js")>("libphonenumber-js");

/** A phone number as parsed once: its E.164 form and display forms, or why it is not a phone number. */
export type ParsedPhone =
  | {
      readonly ok: true;
      readonly e164: string;
      readonly international: string;
      readonly national: string;
      /** The country the number is registered in, e.g. "DE", when it names one. */
      readonly country: string | undefined;
    }
  | { readonly ok: false; readonly problem: string };

/** Whether `code` is a region libphonenumber-js has numbering rules for, e.g. "DE". */
export function isPhoneRegion(code: string): code is CountryCode {
  return phoneNumbers().isSupportedCountry(code);
}

const cacheLimit = 10_000;
const cache = new Map<string, ParsedPhone>();

/**
 * Parses a phone number with libphonenumber-js, once per distinct raw value and region: a parse costs
 * microseconds, so a record's number is parsed the first time it is formatted and reused after.
 */
export function parsePhone(raw: string, defaultCountry: CountryCode | undefined): ParsedPhone {
  const cacheKey = `${defaultCountry ?? ""}\u0000${raw}`;
  const hit = cache.get(cacheKey);
  if (hit !== undefined) return hit;
  const parsed = parseUncached(raw, defaultCountry);
  // A bounded cache: a flood of distinct numbers cannot grow memory without limit.
  if (cache.size >= cacheLimit) cache.clear();
  cache.set(cacheKey, parsed);
  return parsed;
}

function parseUncached(raw: string, defaultCountry: CountryCode | undefined): ParsedPhone {
  if (raw.length > 64) return { ok: false, problem: "is longer than any phone number" };
  const phone = phoneNumbers().parsePhoneNumberFromString(raw, defaultCountry);
  if (phone === undefined || !phone.isValid()) {
    const hint =
      defaultCountry === undefined ? " (numbers without a +country prefix need defaultCountry)" : "";
    return { ok: false, problem: `is not a valid phone number${hint}` };
  }
  return {
    ok: true,
    e164: phone.number,
    international: phone.formatInternational(),
    national: phone.formatNational(),
    country: phone.country,
  };
}
