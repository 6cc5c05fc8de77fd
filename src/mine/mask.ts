import type { CollectionSchemas, RecordsDefinition } from "../core/definition/define-records.js";
import { amountOfText, recordCurrency } from "./amount-text.js";
import {
  type ClockTime,
  clockTimes,
  type DateContext,
  type DateTimeJoiners,
  dateTimeJoiners,
  dateValue,
} from "./date-renderings.js";
import { addressed, mayBeName, minPartLetters, nameParts, titleBefore } from "./name-parts.js";
import { placeholderPrefix } from "./placeholder-prefix.js";
import { localeTag } from "./record-locales.js";
import { amountMayBeIn, englishLocales, isPhoneShaped, phoneDigits, renderings } from "./renderings.js";
import { digitsHeld, HeldDigits, textDigits } from "./text-digits.js";
import { digitSoonAfter, hourWordAfter, hourWordEnd, timeAfter } from "./time-after-date.js";
import {
  isBoundary,
  plainWordsMayBeIn,
  someWordMayBeIn,
  wordsAndDigits,
  wordsMayBeIn,
} from "./whole-words.js";

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
  /**
   * Parts of the person names the records hold (see {@link nameParts}), each found alone only where a
   * name stands: a first name as the person is addressed ("Dear Marie,"), a surname after a title ("Mr
   * Dupont"). Each becomes the whole name's placeholder.
   */
  readonly nameParts?: readonly NamePart[];
  /**
   * The times of day the date values of a placeholder name (none for a calendar day): a date found in a
   * text and followed by one of them, joined by a word ("3 March 2026 at 10:30", "03/03/2026 à 08h30"),
   * is masked with it as one value.
   */
  readonly clocksOf?: (placeholder: string) => readonly ClockTime[];
  /** How the index's locales join a date and a time (see `dateTimeJoiners`). */
  readonly joiners?: () => DateTimeJoiners;
}

/** A part of a person's name a record holds, lower-cased as masking compares it, with its placeholder. */
export interface NamePart {
  readonly rendering: string;
  readonly placeholder: string;
  /** A surname, found only after a title ("Mr", "Sra.", "Herr"); else a first name, found as addressed. */
  readonly titled: boolean;
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

/** A declared field of a collection with the placeholder it names and its path, for fields inside it. */
interface Field {
  readonly field: string;
  readonly path: string;
  readonly placeholder: string;
}

/** A collection's declared fields that may name a placeholder: read once a schema. */
const fieldsByShape = new WeakMap<object, Map<string, readonly Field[]>>();

function fieldsOf(shape: unknown, prefix: string): readonly Field[] {
  const key = typeof shape === "object" && shape !== null ? shape : undefined;
  let byPrefix = key === undefined ? undefined : fieldsByShape.get(key);
  const known = byPrefix?.get(prefix);
  if (known !== undefined) return known;
  const fields = Object.keys((shape ?? {}) as Record<string, unknown>)
    .filter((field) => identifier.test(field))
    .map((field) => ({ field, path: `${prefix}.${field}`, placeholder: `{{${prefix}.${field}}}` }));
  if (key !== undefined) {
    if (byPrefix === undefined) {
      byPrefix = new Map();
      fieldsByShape.set(key, byPrefix);
    }
    byPrefix.set(prefix, fields);
  }
  return fields;
}

/**
 * Every value of a ticket's declared fields, in order of collection, record and field (the fields of
 * objects inside them, two levels down, in their own order), each with its placeholder.
 */
function leavesOf(records: RecordsDefinition, ticket: Readonly<Record<string, unknown>>): Leaf[] {
  const leaves: Leaf[] = [];
  const visit = (value: unknown, path: string, currency: string | undefined, depth: number) => {
    if (typeof value === "object" && value !== null && !(value instanceof Date) && !Array.isArray(value)) {
      if (depth >= maxDepth) return;
      for (const [key, inner] of Object.entries(value)) {
        if (identifier.test(key)) visit(inner, `${path}.${key}`, currency, depth + 1);
      }
      return;
    }
    leaves.push({ value, placeholder: `{{${path}}}`, currency });
  };
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
      const record = row as Record<string, unknown>;
      const currency = recordCurrency(record, fields);
      for (const { field, path, placeholder } of fields) {
        if (!Object.hasOwn(record, field)) continue;
        const value = record[field];
        // Most values are no object: their placeholder is the field's, made once.
        if (typeof value === "object" && value !== null && !(value instanceof Date) && !Array.isArray(value))
          visit(value, path, currency, 0);
        else leaves.push({ value, placeholder, currency });
      }
    }
  }
  return leaves;
}

/**
 * Whether a value may be in a text whose digits (see `textDigits`) are `digits` and whose words (see
 * `wholeWords`) are `words`: a number only where the digits of one of its renderings are (see
 * `amountMayBeIn`), a phone number only where its last seven digits are together, as they are however it
 * is written, and any other string that is no date only where its words are (it has one rendering,
 * itself cleaned and normalised). A date string may be written in words as often as in digits: it is
 * rendered, and its forms are told apart. Tested cheapest first: most values are plain strings.
 */
function mayHold(
  value: unknown,
  currency: string | undefined,
  digits: HeldDigits | undefined,
  words?: Uint32Array,
): boolean {
  if (digits === undefined) return true;
  if (typeof value === "number") return amountMayBeIn(value, currency, digits);
  if (typeof value !== "string" || dateValue(value) !== undefined) return true;
  // An amount kept as text ("49.90") is looked for as the number it writes.
  const amount = amountOfText(value);
  if (amount !== undefined) return amountMayBeIn(amount, currency, digits);
  if (isPhoneShaped(value)) return isoDay.test(value) || digits.holds(lastDigits(value, 7));
  return words === undefined || plainWordsMayBeIn(words, value);
}

/** The last `count` ASCII digits of a string, in order (all of them where it has fewer). */
function lastDigits(value: string, count: number): string {
  let start = value.length;
  for (let held = 0; start > 0 && held < count; ) {
    start--;
    const unit = value.charCodeAt(start);
    if (unit >= 0x30 && unit <= 0x39) held++;
  }
  let digits = "";
  for (let at = start; at < value.length; at++) {
    const unit = value.charCodeAt(at);
    if (unit >= 0x30 && unit <= 0x39) digits += value[at];
  }
  return digits;
}

const isoDay = /^\d{4}-\d{2}-\d{2}/;

function isFound(found: readonly (readonly [string, string])[], rendering: string): boolean {
  for (const [known] of found) if (known === rendering) return true;
  return false;
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
    readonly nameParts: readonly NamePart[],
    readonly clocksOf: (placeholder: string) => readonly ClockTime[],
    readonly joiners: () => DateTimeJoiners,
  ) {}

  get values(): readonly (readonly [string, string])[] {
    this.#values ??= this.make();
    return this.#values;
  }
}

/**
 * The locales a ticket's records name, as masking reads them: any declared field (two levels down)
 * whose value is a locale tag (see `localeTag`), in the records' order.
 */
export function ticketLocales(
  definition: RecordsDefinition,
  ticket: Readonly<Record<string, unknown>>,
): string[] {
  const found = new Set<string>();
  for (const { value } of leavesOf(definition, ticket)) {
    const tag = localeTag(value);
    if (tag !== undefined) found.add(tag);
  }
  return [...found];
}

/** A text as masking reads it, read once for the index made for it. */
interface TextReading {
  /** Lower-cased whole: dates look for month names in it. */
  readonly lowerCased: string;
  /** Lower-cased as masking compares (see `lowerWithOrigins`), white space made single. */
  readonly lowered: string;
  /** Its words (see `wholeWords`), valid until the next text is read. */
  readonly words: Uint32Array;
  /**
   * Its digits (of any script, as ASCII) with everything else removed: a number written with any grouping
   * is a run here.
   */
  readonly digits: HeldDigits;
  readonly text: string;
}

function readText(text: string): TextReading {
  const lowerCased = text.toLowerCase();
  const lowered = lowerText(text, lowerCased);
  // One pass reads the words and, when the text is ASCII, its digits.
  const { words, digits } = wordsAndDigits(lowered);
  return { text, lowerCased, lowered, words, digits: new HeldDigits(digits ?? textDigits(text)) };
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
  const reading = options.text === undefined ? undefined : readText(options.text);
  const digits = reading?.digits;
  // Every value first, then the locales they name, then each value's renderings in those locales.
  const leaves = leavesOf(records, ticket);
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
  const dates: DateContext =
    reading === undefined
      ? { locales: [...locales] }
      : { locales: [...locales], text: reading.lowerCased, digits: reading.digits };
  // The renderings `keep` lets through, each with the placeholder of the first value rendering it; a
  // value `worth` says none of whose renderings would be kept is not rendered. A text holds few (none
  // of most values): a list searched whole costs less than a Set, which the whole index uses.
  const collect = (
    keep: (rendering: string) => boolean,
    within: DateContext,
    worth: (value: unknown, currency: string | undefined) => boolean,
    few: boolean,
  ) => {
    const found: (readonly [string, string])[] = [];
    const seen = few ? undefined : new Set<string>();
    for (const { value, placeholder, currency } of leaves) {
      if (!worth(value, currency)) continue;
      for (const rendering of renderings(value, currency, timeZone, within))
        if (
          rendering.length >= minLength &&
          keep(rendering) &&
          (seen === undefined ? !isFound(found, rendering) : !seen.has(rendering))
        ) {
          seen?.add(rendering);
          found.push([rendering, placeholder]);
        }
    }
    return found.length < 2 ? found : found.sort((a, b) => b[0].length - a[0].length);
  };
  for (const { value, placeholder } of leaves) {
    // Read with no country, only a number written with its "+" and country code parses (see `parsePhone`):
    // a date ("2026-04-05") or a national number ("030 1234567") is not parsed again for every message.
    if (typeof value !== "string" || value.charCodeAt(0) !== 0x2b) continue;
    if (!isPhoneShaped(value) || !mayHold(value, undefined, digits)) continue;
    for (const forms of phoneDigits(value)) if (!phones.has(forms)) phones.set(forms, placeholder);
  }
  const held = (rendering: string) => digitsHeld(rendering, digits);
  const holding = (value: unknown, currency: string | undefined) => mayHold(value, currency, digits);
  // The times of day of a placeholder's dates, read only for a date found followed by a time.
  const clocksOf = (placeholder: string) => {
    const times: ClockTime[] = [];
    for (const leaf of leaves) {
      if (leaf.placeholder !== placeholder) continue;
      const date = dateValue(leaf.value);
      if (date !== undefined) for (const time of clockTimes(date, timeZone)) times.push(time);
    }
    return times;
  };
  const joiners = () => dateTimeJoiners(dates.locales);
  const partsOf = (keep: (rendering: string) => boolean, words?: Uint32Array) => {
    const parts: NamePart[] = [];
    for (const { value, placeholder } of leaves) {
      // A name none of whose words the text holds has no part there.
      if (!mayBeName(value) || (words !== undefined && !someWordMayBeIn(words, value, minPartLetters)))
        continue;
      for (const part of nameParts(value))
        if (keep(part.rendering)) parts.push({ rendering: part.rendering, placeholder, titled: part.titled });
    }
    return parts;
  };
  if (reading === undefined)
    return {
      values: collect(held, dates, holding, false),
      phones,
      nameParts: partsOf(() => true),
      clocksOf,
      joiners,
    };
  // Only a rendering whose words are all the text's can be found there whole.
  const { text, lowerCased, lowered, words } = reading;
  const worth = (value: unknown, currency: string | undefined) =>
    mayHold(value, currency, reading.digits, words);
  // Dates are rendered only in the forms whose words the text holds: the others would not be kept.
  const inTextDates: DateContext = {
    locales: dates.locales,
    text: lowerCased,
    digits: reading.digits,
    words,
  };
  const inText = collect(
    // Its digits are told by their runs of four, before the text is searched.
    (rendering) => wordsMayBeIn(words, rendering) && held(rendering) && lowered.includes(rendering),
    inTextDates,
    worth,
    true,
  );
  const parts = partsOf((rendering) => wordsMayBeIn(words, rendering) && lowered.includes(rendering), words);
  return new TextIndex(
    text,
    inText,
    phones,
    () => collect(held, dates, holding, false),
    parts,
    clocksOf,
    joiners,
  );
}

/**
 * Replaces every value of the index found in `text` (compared case- and white-space-insensitively, as a
 * whole: not inside a longer word or number) by its placeholder, longest values first.
 */
export function maskMessage(text: string, index: ValueIndex): MaskedMessage {
  // A part of the text the index was built for holds only renderings that text holds.
  const values = index instanceof TextIndex && index.text.includes(text) ? index.inText : index.values;
  const parts = index.nameParts ?? [];
  if (values.length === 0 && index.phones.size === 0 && parts.length === 0)
    return { skeleton: oneSpaced(unbraced(text)).trim(), slots: [] };
  // An ASCII text's places are read only when a value was found in it: most units keep theirs.
  const isAscii = ascii.test(text);
  const { lowered, origin } = lowerWithOrigins(text, !isAscii, isAscii);
  const taken = takenUnits(lowered.length);
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
  let places: readonly number[] | undefined = isAscii ? undefined : origin;
  if (parts.length > 0) {
    for (const { rendering, placeholder, titled } of parts) {
      if (rendering.length > lowered.length) continue;
      for (let at = lowered.indexOf(rendering); at !== -1; at = lowered.indexOf(rendering, at + 1)) {
        const end = at + rendering.length;
        if (!isBoundary(lowered, at - 1) || !isBoundary(lowered, end)) continue;
        places ??= asciiOrigins(text);
        const start = titled
          ? titleBefore(lowered, at, end, text, places)
          : addressed(text, places[at] as number, places[end] ?? text.length)
            ? at
            : -1;
        if (start === -1 || isTaken(taken, start, end)) continue;
        taken.fill(1, start, end);
        hits.push({ start, end, placeholder });
      }
    }
  }
  if (hits.length === 0) return { skeleton: oneSpaced(unbraced(text)).trim(), slots: [] };
  if (index.clocksOf !== undefined && index.joiners !== undefined)
    for (const hit of hits) {
      // Most found values are followed by no time of day: a digit must come within a few words.
      const end = digitSoonAfter(lowered, hit.end)
        ? timeAfter(lowered, hit.end, index.joiners(), () => index.clocksOf?.(hit.placeholder) ?? [])
        : hourWordAfter(lowered, hit.end, index.clocksOf, hit.placeholder);
      if (end === -1 || isTaken(taken, hit.end, end)) continue;
      taken.fill(1, hit.end, end);
      hit.end = end;
      // A date found with its time as a locale joins them may still be followed by the hour's word.
      if (/\d/.test(lowered.charAt(end - 1))) hit.end = hourWordEnd(lowered, end);
    }
  hits.sort((a, b) => a.start - b.start);
  places ??= asciiOrigins(text);
  let skeleton = "";
  let from = 0;
  for (const hit of hits) {
    skeleton += unbraced(text.slice(places[from] ?? text.length, places[hit.start])) + hit.placeholder;
    from = hit.end;
  }
  skeleton += unbraced(text.slice(places[from] ?? text.length));
  return { skeleton: oneSpaced(skeleton).trim(), slots: hits.map((hit) => hit.placeholder) };
}

// Which units of the text a value found there already took: one buffer, cleared for each text.
let takenBuffer = new Uint8Array(4_096);

function takenUnits(length: number): Uint8Array {
  if (takenBuffer.length < length) takenBuffer = new Uint8Array(Math.max(length, takenBuffer.length * 2));
  return takenBuffer.fill(0, 0, length);
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
  if (!text.includes("{{") && !text.includes("}}")) return text;
  return text.replace(/\{(?=\{)/g, "{ ").replace(/\}(?=\})/g, "} ");
}

/**
 * The text lower-cased a character at a time with white-space runs made one space, and when `withOrigin`,
 * each unit's index in the original. ASCII is read by its code; any other character as Unicode says.
 */
function lowerWithOrigins(
  text: string,
  withOrigin: boolean,
  isAscii = ascii.test(text),
): { lowered: string; origin: number[] } {
  if (isAscii) {
    // One unit a character, each lower-cased alone: only the white-space runs move places.
    const lowered = oneSpaced(text.toLowerCase());
    return { lowered, origin: withOrigin ? asciiOrigins(text) : [] };
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

/** Each unit's index in an ASCII text once its white-space runs are made one space. */
function asciiOrigins(text: string): number[] {
  const origin: number[] = [];
  let space = false;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const white = unit === 0x20 || (unit >= 0x09 && unit <= 0x0d);
    if (!white || !space) origin.push(i);
    space = white;
  }
  return origin;
}

/**
 * The text as {@link lowerWithOrigins} lower-cases it, given it lower-cased whole (`lowerCased`). Lower-
 * casing a whole text differs from one character at a time only where a capital sigma ends a word; any
 * other text is the one given, with white space made single.
 */
function lowerText(text: string, lowerCased: string): string {
  return text.includes("\u03a3") ? lowerWithOrigins(text, false).lowered : oneSpaced(lowerCased);
}

// White space other than a single space: a run of two or more, or one character that is no space.
const unevenSpace = /\s{2,}|[^\S ]/g;

/**
 * The text with every run of white space made one space. Only the runs that are not one space already
 * are replaced: most are, and replacing each match costs more than searching for them.
 */
function oneSpaced(text: string): string {
  return text.replace(unevenSpace, " ");
}

const ascii = /^[\x00-\x7f]*$/;
