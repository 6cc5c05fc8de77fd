import type { Locale as DateLocale } from "date-fns";
import type { CompiledField, CompiledSlot, LocaleTexts, Template } from "../definition/template-types.js";
import { merged } from "../merged.js";
import type { Format, FormatLocale } from "../message/format.js";
import { canonicalTag, fallbackChain } from "./locale.js";
import { localeError as fail } from "./locale-errors.js";

/**
 * The formats of a locale: each value's format as it follows the locale (month names from the
 * template's date-fns locale, Intl's numbers, phone display for the locale's region), or the locale's
 * own format for it. Every failure throws a `DefinitionError` naming template, locale and slot.
 */

/** What formats of `tag` are given: its region and the date-fns locale matched by its fallback chain. */
export function formatLocale(tag: string, dates: ReadonlyMap<string, DateLocale>): FormatLocale {
  return { tag, region: regionOf(tag), dates: dateLocaleFor(tag, dates) };
}

/** A ref or derived slot with each shown value formatted for the locale. */
export function localFields(
  id: string,
  tag: string,
  compiled: CompiledSlot,
  target: FormatLocale,
  overrides: ReadonlyMap<string, Format>,
): CompiledSlot {
  const fields = compiled.fields.map((field): CompiledField => {
    const own = overrides.get(field.tag) ?? field.format;
    // A locale's own format follows the locale too, unless it fixes one of its own.
    const format = own.localize?.(target) ?? own;
    if (format.problem !== undefined) fail(id, tag, format.problem, compiled.name);
    if (format.counts !== field.format.counts) {
      // A ceiling counts one amount of a record; every language must show exactly that amount.
      fail(
        id,
        tag,
        `formats["${field.tag}"] reads the amount as ${format.counts ?? "no amount"}, but the default shows ${field.format.counts ?? "no amount"}; a locale may change how an amount is written (its locale), never its currency, its currency field, its minor units or its rounding`,
        compiled.name,
      );
    }
    return format === field.format ? field : merged(field, { format });
  });
  return fields.every((field, index) => field === compiled.fields[index])
    ? compiled
    : merged(compiled, { fields });
}

/** A locale's own formats by tag: each replaces a shown value's format, of the same kind, reading no more. */
export function formatOverrides(
  id: string,
  tag: string,
  written: Template,
  formats: LocaleTexts["formats"] | undefined,
): Map<string, Format> {
  const out = new Map<string, Format>();
  if (formats === undefined) return out;
  const fields = new Map<string, [CompiledField, string]>();
  for (const compiled of written.resolveOrder) {
    for (const field of compiled.fields) fields.set(field.tag, [field, compiled.name]);
  }
  for (const [valueTag, format] of Object.entries(formats)) {
    const found = fields.get(valueTag);
    if (found === undefined) {
      fail(id, tag, `formats["${valueTag}"] names no shown value; values: ${[...fields.keys()].join(", ")}`);
    }
    const [field, slot] = found;
    if (typeof format?.apply !== "function")
      fail(id, tag, `formats["${valueTag}"] must be built with format.*`, slot);
    if (format.problem !== undefined) fail(id, tag, format.problem, slot);
    if (format.kind !== field.format.kind) {
      fail(
        id,
        tag,
        `formats["${valueTag}"] is a ${format.kind} format, but the value is ${field.format.kind}; use format.${field.format.kind}(…)`,
        slot,
      );
    }
    const extra = (format.reads ?? []).find((read) => !field.reads.includes(read));
    if (extra !== undefined) {
      fail(
        id,
        tag,
        `formats["${valueTag}"] reads "${extra}", which the slot's own format does not; a locale cannot show more of a record`,
        slot,
      );
    }
    out.set(valueTag, format);
  }
  return out;
}

/** The template's date-fns locales by canonical tag (`de.code` is "de", `enUS.code` "en-US"). */
export function dateLocales(id: string, given: unknown): Map<string, DateLocale> {
  const out = new Map<string, DateLocale>();
  if (given === undefined) return out;
  if (!Array.isArray(given))
    fail(
      id,
      undefined,
      'locale.dates must be a list of date-fns locales, e.g. [de, es] from "date-fns/locale"',
    );
  for (const locale of given as unknown[]) {
    const code = canonicalTag((locale as DateLocale | undefined)?.code);
    if (code === undefined || typeof (locale as DateLocale).localize !== "object") {
      fail(
        id,
        undefined,
        'locale.dates must hold date-fns locales, e.g. import { de } from "date-fns/locale"',
      );
    }
    out.set(code, locale as DateLocale);
  }
  return out;
}

/** The date-fns locale of the first tag of `tag`'s chain that has one. */
function dateLocaleFor(tag: string, dates: ReadonlyMap<string, DateLocale>): DateLocale | undefined {
  for (const candidate of fallbackChain(tag)) {
    const found = dates.get(candidate);
    if (found !== undefined) return found;
  }
  return undefined;
}

function regionOf(tag: string): string | undefined {
  const region = new Intl.Locale(tag).region;
  return region !== undefined && /^[A-Z]{2}$/.test(region) ? region : undefined;
}
