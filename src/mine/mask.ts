import type { CollectionSchemas, RecordsDefinition } from "../core/definition/define-records.js";
import { localeTag } from "./record-locales.js";
import { englishLocales, phoneDigits, renderings } from "./renderings.js";
import { digitsHeld, textDigits } from "./text-digits.js";

/** A message with the ticket's record values replaced by slot placeholders. */
export interface MaskedMessage {
  /** The text with each found value replaced by `{{collection.field}}`, white space collapsed. */
  readonly skeleton: string;
  /** The placeholders used, in order of appearance (a value found twice is listed twice). */
  readonly slots: readonly string[];
}

/** Options of {@link valueIndex}. */
export interface ValueIndexOptions {
  /** The zone dates are rendered in when looking for them. @default "UTC" */
  readonly timeZone?: string;
  /** Shortest value looked for: shorter ones ("1", "EU") match too much ordinary text. @default 3 */
  readonly minLength?: number;
  /**
   * The text the index is for, when known: numbers and phone numbers whose digits it does not hold are
   * not rendered (rendering them in every locale is most of the index's cost, and they cannot match),
   * and a rendering whose digits it does not hold together (see `textDigits`) is left out, since it can
   * be neither found nor resolved as an identifier written another way.
   */
  readonly text?: string;
  /**
   * Languages dates are also looked for in ("de-DE", "fr"), besides English and the locales the
   * ticket's records name (any field whose value is such a tag: `locale: "de-DE"`, `language: "fr"`).
   */
  readonly locales?: readonly string[];
}

/** Every rendering of every value of a ticket's records, mapped to its placeholder. */
export interface ValueIndex {
  /** Normalised renderings, longest first. */
  readonly values: readonly (readonly [rendering: string, placeholder: string])[];
  /** Phone numbers by their digits. */
  readonly phones: ReadonlyMap<string, string>;
}

// Separators and digits are disjoint, so each step consumes one digit: linear, no backtracking blow-up.
const phoneLike = /\+?\d(?:[ ().\-/]{0,3}\d){6,18}/g;
const identifier = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const maxDepth = 2;
// Locales a ticket's records may add: each one multiplies a date's renderings, so a few are read.
const maxRecordLocales = 4;
const maxOptionLocales = 16;

/**
 * Indexes the values of one ticket's records: for each declared field of each collection (and the
 * fields of objects inside them, two levels down), the value as it is and as formats would render it,
 * dates also in the languages the records name (at most four) and `options.locales`.
 * Field names come from the records definition, never from the history, so a placeholder is always a
 * declared `collection.field`.
 */
export function valueIndex<S extends CollectionSchemas>(
  definition: RecordsDefinition<S>,
  ticket: Readonly<Record<string, unknown>>,
  options: ValueIndexOptions = {},
): ValueIndex {
  const records = definition as unknown as RecordsDefinition;
  const timeZone = options.timeZone ?? "UTC";
  const minLength = options.minLength ?? 3;
  const found = new Map<string, string>();
  const phones = new Map<string, string>();
  // The text's digits (of any script, as ASCII) with everything else removed: a number written with any
  // grouping is a run here.
  const digits = options.text === undefined ? undefined : textDigits(options.text);
  const mayHold = (value: unknown): boolean => {
    if (digits === undefined) return true;
    if (typeof value === "number") return digits.includes(String(Math.trunc(Math.abs(value))));
    // Only phone-shaped strings are filtered; a date ("2026-04-05") is written in words as often as not.
    if (typeof value !== "string" || !/^\+?[\d\s().-]{7,24}$/.test(value) || /^\d{4}-\d{2}-\d{2}/.test(value))
      return true;
    // A phone number as written anywhere keeps at least its last seven digits together.
    return digits.includes(value.replace(/\D/g, "").slice(-7));
  };
  const add = (rendering: string, placeholder: string) => {
    if (rendering.length < minLength || found.has(rendering) || !digitsHeld(rendering, digits)) return;
    found.set(rendering, placeholder);
  };
  // Every value first, then the locales they name, then each value's renderings in those locales.
  const leaves: { value: unknown; path: string; currency: string | undefined }[] = [];
  for (const collection of records.names) {
    const rows = ticket[collection];
    if (!Array.isArray(rows)) continue;
    const shape = (records.collections[collection]?.shape ?? {}) as Record<string, unknown>;
    const prefix = singular(collection);
    for (const row of rows.slice(0, records.maxPerCollection)) {
      if (typeof row !== "object" || row === null) continue;
      const record = row as Record<string, unknown>;
      const currency = typeof record.currency === "string" ? record.currency : undefined;
      for (const field of Object.keys(shape)) {
        if (!identifier.test(field) || !Object.hasOwn(record, field)) continue;
        visit(record[field], `${prefix}.${field}`, currency, 0);
      }
    }
  }
  function visit(value: unknown, path: string, currency: string | undefined, depth: number) {
    if (typeof value === "object" && value !== null && !(value instanceof Date) && !Array.isArray(value)) {
      if (depth >= maxDepth) return;
      for (const [key, inner] of Object.entries(value)) {
        if (identifier.test(key)) visit(inner, `${path}.${key}`, currency, depth + 1);
      }
      return;
    }
    leaves.push({ value, path, currency });
  }
  const locales = new Set(englishLocales);
  for (const wanted of (options.locales ?? []).slice(0, maxOptionLocales)) {
    const tag = localeTag(wanted);
    if (tag !== undefined) locales.add(tag);
  }
  const fromRecords = locales.size + maxRecordLocales;
  for (const { value } of leaves) {
    if (locales.size >= fromRecords) break;
    const tag = localeTag(value);
    if (tag !== undefined) locales.add(tag);
  }
  const dates = {
    locales: [...locales],
    ...(options.text === undefined || digits === undefined
      ? {}
      : { text: options.text.toLowerCase(), digits }),
  };
  for (const { value, path, currency } of leaves) {
    if (!mayHold(value)) continue;
    for (const rendering of renderings(value, currency, timeZone, dates)) add(rendering, `{{${path}}}`);
    for (const forms of phoneDigits(value)) if (!phones.has(forms)) phones.set(forms, `{{${path}}}`);
  }
  return { values: [...found].sort((a, b) => b[0].length - a[0].length), phones };
}

/**
 * Replaces every value of the index found in `text` (compared case- and white-space-insensitively, as a
 * whole: not inside a longer word or number) by its placeholder, longest values first.
 */
export function maskMessage(text: string, index: ValueIndex): MaskedMessage {
  const { lowered, origin } = lowerWithOrigins(text);
  const taken = new Uint8Array(lowered.length);
  const hits: { start: number; end: number; placeholder: string }[] = [];
  for (const [rendering, placeholder] of index.values) {
    if (rendering.length > lowered.length) continue;
    for (let at = lowered.indexOf(rendering); at !== -1; at = lowered.indexOf(rendering, at + 1)) {
      const end = at + rendering.length;
      if (!isBoundary(lowered, at - 1) || !isBoundary(lowered, end)) continue;
      if (taken.subarray(at, end).some((bit) => bit === 1)) continue;
      taken.fill(1, at, end);
      hits.push({ start: at, end, placeholder });
    }
  }
  if (index.phones.size > 0) {
    // Digits with any separators between them; matched by their digits, whatever the grouping.
    phoneLike.lastIndex = 0;
    for (let match = phoneLike.exec(lowered); match !== null; match = phoneLike.exec(lowered)) {
      const start = match.index;
      const end = start + match[0].length;
      const placeholder = index.phones.get(match[0].replace(/\D/g, ""));
      if (placeholder === undefined || !isBoundary(lowered, start - 1) || !isBoundary(lowered, end)) continue;
      if (taken.subarray(start, end).some((bit) => bit === 1)) continue;
      taken.fill(1, start, end);
      hits.push({ start, end, placeholder });
    }
  }
  hits.sort((a, b) => a.start - b.start);
  let skeleton = "";
  let from = 0;
  for (const hit of hits) {
    skeleton += unbraced(text.slice(origin[from] ?? text.length, origin[hit.start])) + hit.placeholder;
    from = hit.end;
  }
  skeleton += unbraced(text.slice(origin[from] ?? text.length));
  return { skeleton: skeleton.replace(/\s+/g, " ").trim(), slots: hits.map((hit) => hit.placeholder) };
}

/**
 * The history's own text with every brace pair split ("{{to}}" → "{ {to} }"): only a masked value is
 * ever a placeholder, so a message cannot name a slot by writing one.
 */
function unbraced(text: string): string {
  return text.replace(/\{(?=\{)/g, "{ ").replace(/\}(?=\})/g, "} ");
}

/** The text lower-cased with white-space runs made one space, and each unit's index in the original. */
function lowerWithOrigins(text: string): { lowered: string; origin: number[] } {
  let lowered = "";
  const origin: number[] = [];
  let space = false;
  for (let i = 0; i < text.length; ) {
    const code = text.codePointAt(i) as number;
    const char = String.fromCodePoint(code);
    if (/\s/.test(char)) {
      if (!space) {
        lowered += " ";
        origin.push(i);
      }
      space = true;
    } else {
      const lower = char.toLowerCase();
      lowered += lower;
      for (let unit = 0; unit < lower.length; unit++) origin.push(i);
      space = false;
    }
    i += char.length;
  }
  return { lowered, origin };
}

/** Whether the position is outside the text or not a letter or digit: a value must match whole. */
function isBoundary(text: string, at: number): boolean {
  if (at < 0 || at >= text.length) return true;
  return !/[\p{L}\p{N}]/u.test(text[at] as string);
}

/** "orders" → "order", "categories" → "category", "boxes" → "box": placeholder names read as one record. */
export function singular(collection: string): string {
  if (collection.endsWith("ies") && collection.length > 4) return `${collection.slice(0, -3)}y`;
  if (/(?:ss|x|ch|sh)es$/.test(collection)) return collection.slice(0, -2);
  if (collection.endsWith("s") && !collection.endsWith("ss")) return collection.slice(0, -1);
  return collection;
}
