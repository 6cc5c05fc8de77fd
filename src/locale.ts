import type { Locale as DateLocale } from "date-fns";
import { readerContext } from "./fits.js";
import type { Format } from "./format.js";
import type { SlotContext } from "./slots.js";
import type { Template } from "./template.js";
import type { PreparedTicket } from "./ticket.js";

/**
 * Locales of a template: which of its texts a message is written in, read from the records of the
 * ticket (never from the model), with the fallback chain of BCP 47 lookup (`de-AT` → `de` → default).
 */

/** The text of a template in one locale: the same slots and sections as the default, in other words. */
export interface LocaleTexts {
  /** Subject in this locale; required when the template has one (unless `missing: "default"`). */
  readonly subject?: string;
  /** Body in this locale; required unless `missing: "default"`. */
  readonly body?: string;
  /** HTML body in this locale; required when the template has one (unless `missing: "default"`). */
  readonly html?: string;
  /** A label per key of each choice slot: `{ reason: { packaging: "…", transit: "…" } }`. */
  readonly choices?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /**
   * A format for a shown value in this locale, by its tag (`"order.placed"`, `"total"`), replacing the
   * one the slot declares. Same kind, and reading no other fields of the record.
   */
  readonly formats?: Readonly<Record<string, Format>>;
}

/**
 * Where the recipient's locale comes from: `"<ref slot>.<field>"` (e.g. `"to.locale"`, a field of the
 * recipient's record), or a function of the ticket's records and resolved slots as the audience may read
 * them. Its value is a BCP 47 tag such as "de-AT"; anything else falls back to the default.
 */
export type LocaleSource = string | ((context: SlotContext) => unknown);

/**
 * The `locale` option of a template: its texts per locale and how the recipient's locale is chosen.
 *
 * @example
 * import type { TemplateLocaleConfig } from "formletter";
 * import { de } from "date-fns/locale";
 * const locale: TemplateLocaleConfig = {
 *   default: "en",
 *   from: "to.locale",
 *   dates: [de],
 *   texts: { de: { subject: "Bestellung {{order}}", body: "Hallo, die Bestellung {{order}} …" } },
 * };
 */
export interface TemplateLocaleConfig {
  /** The locale the template's own subject, body, HTML and choice labels are written in, e.g. "en". */
  readonly default: string;
  /** How the recipient's locale is read from records. Never from the model. */
  readonly from: LocaleSource;
  /** The texts in other locales, by canonical BCP 47 tag ("de", "es", "pt-BR"). */
  readonly texts: Readonly<Record<string, LocaleTexts>>;
  /**
   * date-fns locales for month and day names (`import { de, es } from "date-fns/locale"`), matched to
   * each text's tag by the same fallback chain. A date format that shows names needs one for every
   * locale but English.
   */
  readonly dates?: readonly DateLocale[];
  /**
   * What a locale that leaves out a part or a choice label gets: "error" fails the definition;
   * "default" takes the default locale's (a mixed-language message, chosen explicitly). @default "error"
   */
  readonly missing?: "error" | "default";
}

/** Why a message is written in the locale it is. */
export type LocaleReason =
  /** The recipient's locale has its own text. */
  | "requested"
  /** A less specific locale of its chain has one (de-AT → de, or the default itself). */
  | "fallback"
  /** A valid tag, with no text for it or any locale of its chain: the default. */
  | "unsupported"
  /** The value is not a BCP 47 tag (not a string, garbage, over 64 characters): the default. */
  | "invalid"
  /** The records hold no locale for the recipient: the default. */
  | "missing"
  /** The template's locale function threw: the default. */
  | "failed";

/** Which locale a message was written in, and why: the audit field of a localised decision. */
export interface LocaleChoice {
  /** The locale of the text sent: the default or one of the template's `texts`. */
  readonly used: string;
  /** The recipient's locale as the records give it, in canonical form; absent when there was no valid tag. */
  readonly requested?: string;
  readonly reason: LocaleReason;
}

/** A template's locales after definition-time checks. */
export interface CompiledLocales {
  readonly default: string;
  /** Every locale with a text, the default first. */
  readonly tags: readonly string[];
  /** The template as written in each locale: texts, choice labels and formats of that locale. */
  readonly variants: ReadonlyMap<string, Template>;
  readonly from:
    | { readonly kind: "field"; readonly slot: string; readonly field: string }
    | { readonly kind: "code"; readonly compute: (context: SlotContext) => unknown };
  /** Resolved choices by raw value: a locale value repeats across tickets, its look-up is done once. */
  readonly cache: Map<string, LocaleChoice>;
}

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
