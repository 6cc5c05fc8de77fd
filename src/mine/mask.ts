import type { CollectionSchemas, RecordsDefinition } from "../core/definition/define-records.js";
import { dateValue } from "./date-renderings.js";
import { localeTag } from "./record-locales.js";
import { englishLocales, isPhoneShaped, phoneDigits, renderings } from "./renderings.js";
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

/** One value of a ticket's records with the placeholder it becomes. */
interface Leaf {
  readonly value: unknown;
  readonly placeholder: string;
  readonly currency: string | undefined;
}

/** A collection's declared fields that may name a placeholder, with the path they name: read once a schema. */
const fieldsByShape = new WeakMap<object, Map<string, readonly (readonly [field: string, path: string])[]>>();

function fieldsOf(shape: unknown, collection: string): readonly (readonly [field: string, path: string])[] {
  const key = typeof shape === "object" && shape !== null ? shape : undefined;
  let byCollection = key === undefined ? undefined : fieldsByShape.get(key);
  const known = byCollection?.get(collection);
  if (known !== undefined) return known;
  const prefix = singular(collection);
  const fields = Object.keys((shape ?? {}) as Record<string, unknown>)
    .filter((field) => identifier.test(field))
    .map((field) => [field, `${prefix}.${field}`] as const);
  if (key !== undefined) {
    if (byCollection === undefined) {
      byCollection = new Map();
      fieldsByShape.set(key, byCollection);
    }
    byCollection.set(collection, fields);
  }
  return fields;
}

/**
 * An index built for a known text. It also holds the renderings that occur in that text, in the order of
 * its values: what masking that text (or a part of it) can find. A ticket's values are many and a
 * message names a few, so masking looks for these only, and the whole index is made only when asked for.
 */
class TextIndex implements ValueIndex {
  #values: readonly (readonly [string, string])[] | undefined;
  constructor(
    readonly text: string,
    readonly inText: readonly (readonly [string, string])[],
    readonly phones: ReadonlyMap<string, string>,
    private readonly make: () => readonly (readonly [string, string])[],
  ) {}

  get values(): readonly (readonly [string, string])[] {
    this.#values ??= this.make();
    return this.#values;
  }
}

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
  const phones = new Map<string, string>();
  // The text's digits (of any script, as ASCII) with everything else removed: a number written with any
  // grouping is a run here.
  const digits = options.text === undefined ? undefined : textDigits(options.text);
  const mayHold = (value: unknown): boolean => {
    if (digits === undefined) return true;
    if (typeof value === "number") return digits.includes(String(Math.trunc(Math.abs(value))));
    // Only phone-shaped strings are filtered; a date ("2026-04-05") is written in words as often as not.
    if (typeof value !== "string" || !isPhoneShaped(value) || /^\d{4}-\d{2}-\d{2}/.test(value)) return true;
    // A phone number as written anywhere keeps at least its last seven digits together.
    return digits.includes(value.replace(/\D/g, "").slice(-7));
  };
  // Every value first, then the locales they name, then each value's renderings in those locales.
  const leaves: Leaf[] = [];
  for (const collection of records.names) {
    const rows = ticket[collection];
    if (!Array.isArray(rows)) continue;
    const fields = fieldsOf(records.collections[collection]?.shape, collection);
    const count = Math.min(rows.length, records.maxPerCollection);
    for (let at = 0; at < count; at++) {
      const row: unknown = rows[at];
      if (typeof row !== "object" || row === null) continue;
      const record = row as Record<string, unknown>;
      const currency = typeof record.currency === "string" ? record.currency : undefined;
      for (const [field, path] of fields) {
        if (!Object.hasOwn(record, field)) continue;
        visit(record[field], path, currency, 0);
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
    leaves.push({ value, placeholder: `{{${path}}}`, currency });
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
  // The renderings `keep` lets through, each with the placeholder of the first value rendering it; a
  // value `lacks` says none of whose renderings would be kept is not rendered.
  const collect = (keep: (rendering: string) => boolean, lacks?: (value: unknown) => boolean) => {
    const found = new Map<string, string>();
    for (const { value, placeholder, currency } of leaves) {
      if (!mayHold(value) || lacks?.(value) === true) continue;
      for (const rendering of renderings(value, currency, timeZone, dates))
        if (rendering.length >= minLength && !found.has(rendering) && keep(rendering))
          found.set(rendering, placeholder);
    }
    return [...found].sort((a, b) => b[0].length - a[0].length);
  };
  for (const { value, placeholder } of leaves) {
    if (typeof value !== "string" || !isPhoneShaped(value) || !mayHold(value)) continue;
    for (const forms of phoneDigits(value)) if (!phones.has(forms)) phones.set(forms, placeholder);
  }
  const held = (rendering: string) => digitsHeld(rendering, digits);
  if (options.text === undefined) return { values: collect(held), phones };
  const lowered = lowerText(options.text);
  const bits = threeUnitSequences(lowered);
  // A string that is no date and no phone number has one rendering: itself, cleaned and normalised.
  const lacks = (value: unknown) =>
    typeof value === "string" &&
    !plainMayBeIn(bits, value) &&
    dateValue(value) === undefined &&
    !isPhoneShaped(value);
  const inText = collect(
    (rendering) => mayBeIn(bits, rendering) && lowered.includes(rendering) && held(rendering),
    lacks,
  );
  return new TextIndex(options.text, inText, phones, () => collect(held));
}

/**
 * Replaces every value of the index found in `text` (compared case- and white-space-insensitively, as a
 * whole: not inside a longer word or number) by its placeholder, longest values first.
 */
export function maskMessage(text: string, index: ValueIndex): MaskedMessage {
  // A part of the text the index was built for holds only renderings that text holds.
  const values = index instanceof TextIndex && index.text.includes(text) ? index.inText : index.values;
  if (values.length === 0 && index.phones.size === 0)
    return { skeleton: unbraced(text).replace(/\s+/g, " ").trim(), slots: [] };
  const { lowered, origin } = lowerWithOrigins(text, true);
  const taken = new Uint8Array(lowered.length);
  const hits: { start: number; end: number; placeholder: string }[] = [];
  for (const [rendering, placeholder] of values) {
    if (rendering.length > lowered.length) continue;
    for (let at = lowered.indexOf(rendering); at !== -1; at = lowered.indexOf(rendering, at + 1)) {
      const end = at + rendering.length;
      if (!isBoundary(lowered, at - 1) || !isBoundary(lowered, end)) continue;
      if (isTaken(taken, at, end)) continue;
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
      if (isTaken(taken, start, end)) continue;
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

function isTaken(taken: Uint8Array, start: number, end: number): boolean {
  for (let at = start; at < end; at++) if (taken[at] === 1) return true;
  return false;
}

/**
 * The history's own text with every brace pair split ("{{to}}" → "{ {to} }"): only a masked value is
 * ever a placeholder, so a message cannot name a slot by writing one.
 */
function unbraced(text: string): string {
  return text.replace(/\{(?=\{)/g, "{ ").replace(/\}(?=\})/g, "} ");
}

/**
 * The text lower-cased a character at a time with white-space runs made one space, and when `withOrigin`,
 * each unit's index in the original. ASCII is read by its code; any other character as Unicode says.
 */
function lowerWithOrigins(text: string, withOrigin: boolean): { lowered: string; origin: number[] } {
  if (ascii.test(text)) {
    // One unit a character, each lower-cased alone: only the white-space runs move places.
    const lowered = text.toLowerCase().replace(/\s+/g, " ");
    const origin: number[] = [];
    if (withOrigin) {
      let space = false;
      for (let i = 0; i < text.length; i++) {
        const unit = text.charCodeAt(i);
        const white = unit === 0x20 || (unit >= 0x09 && unit <= 0x0d);
        if (!white || !space) origin.push(i);
        space = white;
      }
    }
    return { lowered, origin };
  }
  const units: number[] = [];
  const origin: number[] = [];
  let lowered = "";
  let space = false;
  const flush = () => {
    lowered += String.fromCharCode.apply(null, units);
    units.length = 0;
  };
  for (let i = 0; i < text.length; ) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) {
      // Tab, line feed, vertical tab, form feed, carriage return and space: ASCII's white space.
      if (unit === 0x20 || (unit >= 0x09 && unit <= 0x0d)) {
        if (!space) {
          units.push(0x20);
          if (withOrigin) origin.push(i);
        }
        space = true;
      } else {
        units.push(unit >= 0x41 && unit <= 0x5a ? unit + 0x20 : unit);
        if (withOrigin) origin.push(i);
        space = false;
      }
      i += 1;
    } else {
      const char = String.fromCodePoint(text.codePointAt(i) as number);
      if (/\s/.test(char)) {
        if (!space) {
          units.push(0x20);
          if (withOrigin) origin.push(i);
        }
        space = true;
      } else {
        const lower = char.toLowerCase();
        for (let unit = 0; unit < lower.length; unit++) {
          units.push(lower.charCodeAt(unit));
          if (withOrigin) origin.push(i);
        }
        space = false;
      }
      i += char.length;
    }
    if (units.length >= 4_096) flush();
  }
  flush();
  return { lowered, origin };
}

/**
 * The text as {@link lowerWithOrigins} lower-cases it. Lower-casing a whole text differs from one
 * character at a time only where a capital sigma ends a word; any other text is lower-cased at once.
 */
function lowerText(text: string): string {
  return text.includes("\u03a3")
    ? lowerWithOrigins(text, false).lowered
    : text.toLowerCase().replace(/\s+/g, " ");
}

const ascii = /^[\x00-\x7f]*$/;

// Three-unit sequences hashed into this many bits: a message's few hundred fill a small share of them.
const sequenceBits = 13;

function unitsHash(a: number, b: number, c: number): number {
  const mixed = Math.imul(Math.imul(a, 0x01000193) ^ b, 0x01000193);
  return Math.imul(mixed ^ c, 0x9e3779b1) >>> (32 - sequenceBits);
}

const sequenceHash = (text: string, at: number) =>
  unitsHash(text.charCodeAt(at), text.charCodeAt(at + 1), text.charCodeAt(at + 2));

// One set of bits, refilled for each index: it is read only while the index is built.
const sequenceSet = new Uint32Array((1 << sequenceBits) / 32);

/** The three-unit sequences a text holds, as bits by their hash (valid until the next call). */
function threeUnitSequences(text: string): Uint32Array {
  const bits = sequenceSet.fill(0);
  for (let at = 0; at + 3 <= text.length; at++) {
    const hash = sequenceHash(text, at);
    bits[hash >>> 5] = (bits[hash >>> 5] as number) | (1 << (hash & 31));
  }
  return bits;
}

/**
 * Whether a text whose sequences are `bits` may hold `rendering`: it holds every three-unit sequence of
 * it. A few bit tests rule out most renderings before the text is searched for them.
 */
function mayBeIn(bits: Uint32Array, rendering: string): boolean {
  for (let at = 0; at + 3 <= rendering.length; at += 2) {
    const hash = sequenceHash(rendering, at);
    if (((bits[hash >>> 5] as number) & (1 << (hash & 31))) === 0) return false;
  }
  return true;
}

/**
 * Whether a text whose sequences are `bits` may hold a string value as it is rendered (cleaned, then
 * lower-cased with white space single). Read for printable ASCII only, which cleaning leaves as it is
 * and lower-casing changes a character at a time: each three characters of it with no white space are
 * then in the rendering, lower-cased. Any other value may be held.
 */
function plainMayBeIn(bits: Uint32Array, value: string): boolean {
  for (let at = 0; at < value.length; at++) {
    const unit = value.charCodeAt(at);
    if (unit > 0x7e || (unit < 0x20 && unit !== 0x09 && unit !== 0x0a && unit !== 0x0d)) return true;
  }
  const lower = (unit: number) => (unit >= 0x41 && unit <= 0x5a ? unit + 0x20 : unit);
  const white = (unit: number) => unit === 0x20 || unit === 0x09 || unit === 0x0a || unit === 0x0d;
  for (let at = 0; at + 3 <= value.length; at += 2) {
    const [a, b, c] = [value.charCodeAt(at), value.charCodeAt(at + 1), value.charCodeAt(at + 2)];
    if (white(a) || white(b) || white(c)) continue;
    const hash = unitsHash(lower(a), lower(b), lower(c));
    if (((bits[hash >>> 5] as number) & (1 << (hash & 31))) === 0) return false;
  }
  return true;
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
