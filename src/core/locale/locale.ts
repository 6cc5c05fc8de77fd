import type { PreparedTicket } from "../decision/ticket.js";
import { readerContext } from "../definition/slot-rules.js";
import type { SlotContext } from "../definition/slots.js";
import type { CompiledLocales, LocaleChoice, LocaleReason, Template } from "../definition/template-types.js";

/**
 * Locales of a template: which of its texts a message is written in, read from the records of the
 * ticket (never from the model), with the fallback chain of BCP 47 lookup (`de-AT` → `de` → default).
 */

/** Longer than any real language tag; longer values are refused before they are parsed. */
export const maxTagLength = 64;
const tagShape = /^[A-Za-z0-9]{1,8}(?:[-_][A-Za-z0-9]{1,8}){0,15}$/;
const maxCached = 512;

/**
 * The canonical form of a BCP 47 tag without extensions ("DE-at" → "de-AT", "de_AT" → "de-AT",
 * "iw" → "he"), or undefined for anything that is not one. Never throws; linear in the input, which is
 * capped at 64 characters before any parsing.
 */
export function canonicalTag(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const trimmed = value.trim();
  if (trimmed.length === 0 || trimmed.length > maxTagLength || !tagShape.test(trimmed)) return undefined;
  try {
    const { baseName, language } = new Intl.Locale(trimmed.replaceAll("_", "-"));
    // Languages are ISO 639 codes of 2 or 3 letters: the longer forms BCP 47 reserves name no language.
    return language === undefined || language === "und" || language.length > 3 ? undefined : baseName;
  } catch {
    return undefined;
  }
}

/** The lookup chain of a canonical tag, most specific first: "zh-Hant-TW" → zh-Hant-TW, zh-Hant, zh. */
export function fallbackChain(tag: string): string[] {
  const subtags = tag.split("-");
  return subtags.map((_, index) => subtags.slice(0, subtags.length - index).join("-"));
}

/** The locale a message is written in for a raw locale value from records. */
export function chooseLocale(locales: CompiledLocales, value: unknown): LocaleChoice {
  if (value === undefined || value === null || value === "") return missingChoice(locales);
  if (typeof value !== "string" || value.length > maxTagLength) return invalidChoice(locales);
  const hit = locales.cache.get(value);
  if (hit !== undefined) return hit;
  const choice = lookUp(locales, value);
  if (locales.cache.size >= maxCached) locales.cache.clear();
  locales.cache.set(value, choice);
  return choice;
}

function lookUp(locales: CompiledLocales, value: string): LocaleChoice {
  const requested = canonicalTag(value);
  if (requested === undefined) return invalidChoice(locales);
  // Before the bare language, the tag with its likely script: "zh-TW" is written in zh-Hant, "sr-RS" in
  // sr-Cyrl (CLDR likely subtags). The chain ends with the language, then the default.
  const chain = [...fallbackChain(requested).slice(0, -1), ...fallbackChain(likelyForm(requested))];
  for (const tag of chain) {
    // A Map of the template's own tags: an inherited name ("constructor") is just not found.
    if (locales.variants.has(tag)) {
      return Object.freeze({ used: tag, requested, reason: tag === requested ? "requested" : "fallback" });
    }
  }
  return Object.freeze({ used: locales.default, requested, reason: "unsupported" });
}

/** The tag with the script and region it most likely has (CLDR likely subtags), or the tag itself. */
function likelyForm(tag: string): string {
  try {
    return new Intl.Locale(tag).maximize().baseName;
  } catch {
    return tag;
  }
}

const defaults = new WeakMap<CompiledLocales, Record<"missing" | "invalid" | "failed", LocaleChoice>>();

function defaultChoice(locales: CompiledLocales, reason: "missing" | "invalid" | "failed"): LocaleChoice {
  let choices = defaults.get(locales);
  if (choices === undefined) {
    const of = (why: LocaleReason) => Object.freeze({ used: locales.default, reason: why });
    choices = { missing: of("missing"), invalid: of("invalid"), failed: of("failed") };
    defaults.set(locales, choices);
  }
  return choices[reason];
}
const missingChoice = (locales: CompiledLocales) => defaultChoice(locales, "missing");
const invalidChoice = (locales: CompiledLocales) => defaultChoice(locales, "invalid");

/** Marks a locale function that threw: told apart from every value it could have returned. */
const failed = Symbol("failed");

/**
 * The locale of one decision: read from the resolved slots (`"to.locale"`) or computed by the template's
 * function on the audience's view of the records. Never throws: a throw is the default, audited.
 */
export function recipientLocale(
  template: Template,
  locales: CompiledLocales,
  ticket: PreparedTicket,
  context: SlotContext,
): { readonly choice: LocaleChoice; readonly variant: Template } {
  let value: unknown;
  const { from } = locales;
  if (from.kind === "field") {
    const record = Object.hasOwn(context.slots, from.slot) ? context.slots[from.slot] : undefined;
    value =
      typeof record === "object" && record !== null && Object.hasOwn(record, from.field)
        ? record[from.field]
        : undefined;
  } else {
    try {
      value = from.compute(readerContext(template, template.readers.audience, ticket, context));
    } catch {
      value = failed;
    }
  }
  const choice = value === failed ? defaultChoice(locales, "failed") : chooseLocale(locales, value);
  return { choice, variant: locales.variants.get(choice.used) ?? template };
}
