import type { CollectionSchemas, RecordsDefinition } from "../core/definition/define-records.js";
import { amountOfText, recordCurrency } from "./amount-text.js";
import { cleanText } from "./clean-text.js";
import {
  type ClockTime,
  clockTimes,
  type DateTimeJoiners,
  dateTimeJoiners,
  dateValue,
} from "./date-renderings.js";
import { normalize } from "./normalize.js";
import { localeTag } from "./record-locales.js";
import { amountMayBeIn, englishLocales, isPhoneShaped, phoneDigits, renderings } from "./renderings.js";
import { digitsHeld, HeldDigits, textDigits } from "./text-digits.js";
import { isWordUnit, plainWordsMayBeIn, someWordMayBeIn, wholeWords, wordsMayBeIn } from "./whole-words.js";

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

function fieldsOf(shape: unknown, collection: string): readonly Field[] {
  const key = typeof shape === "object" && shape !== null ? shape : undefined;
  let byCollection = key === undefined ? undefined : fieldsByShape.get(key);
  const known = byCollection?.get(collection);
  if (known !== undefined) return known;
  const prefix = singular(collection);
  const fields = Object.keys((shape ?? {}) as Record<string, unknown>)
    .filter((field) => identifier.test(field))
    .map((field) => ({ field, path: `${prefix}.${field}`, placeholder: `{{${prefix}.${field}}}` }));
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
    const fields = fieldsOf(records.collections[collection]?.shape, collection);
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
 * Whether a value may be in a text whose digits (see `textDigits`) are `digits`: a number only where
 * the digits of one of its renderings are (see `amountMayBeIn`), and a phone number (not a date) only
 * where its last seven digits are together, as they are however it is written. Any other value may be.
 */
function mayHold(value: unknown, currency: string | undefined, digits: HeldDigits | undefined): boolean {
  if (digits === undefined) return true;
  if (typeof value === "number") return amountMayBeIn(value, currency, digits);
  // An amount kept as text ("49.90") is looked for as the number it writes.
  const amount = typeof value === "string" ? amountOfText(value) : undefined;
  if (amount !== undefined) return amountMayBeIn(amount, currency, digits);
  // Only phone-shaped strings are filtered; a date ("2026-04-05") is written in words as often as not.
  if (typeof value !== "string" || !isPhoneShaped(value) || isoDay.test(value)) return true;
  return digits.holds(value.replace(/\D/g, "").slice(-7));
}

const isoDay = /^\d{4}-\d{2}-\d{2}/;

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
  const digits = options.text === undefined ? undefined : new HeldDigits(textDigits(options.text));
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
  // The text lower-cased, as dates look for month names in it; with white space made single for masking.
  const lowerCased = options.text?.toLowerCase();
  const dates = {
    locales: [...locales],
    ...(lowerCased === undefined || digits === undefined ? {} : { text: lowerCased, digits }),
  };
  // The renderings `keep` lets through, each with the placeholder of the first value rendering it; a
  // value `lacks` says none of whose renderings would be kept is not rendered.
  const collect = (keep: (rendering: string) => boolean, lacks?: (value: unknown) => boolean) => {
    const found = new Map<string, string>();
    for (const { value, placeholder, currency } of leaves) {
      if (!mayHold(value, currency, digits) || lacks?.(value) === true) continue;
      for (const rendering of renderings(value, currency, timeZone, dates))
        if (rendering.length >= minLength && !found.has(rendering) && keep(rendering))
          found.set(rendering, placeholder);
    }
    return [...found].sort((a, b) => b[0].length - a[0].length);
  };
  for (const { value, placeholder } of leaves) {
    // Read with no country, only a number written with its "+" and country code parses (see `parsePhone`):
    // a date ("2026-04-05") or a national number ("030 1234567") is not parsed again for every message.
    if (typeof value !== "string" || value.charCodeAt(0) !== 0x2b) continue;
    if (!isPhoneShaped(value) || !mayHold(value, undefined, digits)) continue;
    for (const forms of phoneDigits(value)) if (!phones.has(forms)) phones.set(forms, placeholder);
  }
  const held = (rendering: string) => digitsHeld(rendering, digits);
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
  if (options.text === undefined || lowerCased === undefined)
    return { values: collect(held), phones, nameParts: partsOf(() => true), clocksOf, joiners };
  const lowered = lowerText(options.text, lowerCased);
  // Only a rendering whose words are all the text's can be found there whole (see `wholeWords`).
  const words = wholeWords(lowered);
  // A string that is no date and no phone number has one rendering: itself, cleaned and normalised.
  const lacks = (value: unknown) =>
    typeof value === "string" &&
    !plainWordsMayBeIn(words, value) &&
    dateValue(value) === undefined &&
    amountOfText(value) === undefined &&
    !isPhoneShaped(value);
  const inText = collect(
    (rendering) => wordsMayBeIn(words, rendering) && lowered.includes(rendering) && held(rendering),
    lacks,
  );
  const parts = partsOf((rendering) => wordsMayBeIn(words, rendering) && lowered.includes(rendering), words);
  return new TextIndex(options.text, inText, phones, () => collect(held), parts, clocksOf, joiners);
}

/** A part of a name: its rendering, and whether it is a surname (found after a title). */
interface Part {
  readonly rendering: string;
  readonly titled: boolean;
}

// A word of a person's name: a capital, then letters, with hyphens and apostrophes between
// ("Jean-Pierre", "O'Brien", "McDonald"); a particle: one to three small letters ("de", "van", "la").
const nameWord = String.raw`\p{Lu}[\p{L}\p{M}]*(?:['\u2019\-]\p{L}[\p{L}\p{M}]*)*`;
const personName = new RegExp(`^${nameWord}(?: (?:\\p{Ll}{1,3} ){0,2}${nameWord}){1,3}$`, "u");
const capital = /^\p{Lu}/u;
// Letters a part has at least: shorter ones ("Al", "Bo", initials) are too often other words.
const minPartLetters = 3;
const maxNameLength = 80;

// The parts of each value read, by value: a history's records repeat their names. Bounded.
const partsByValue = new Map<string, readonly Part[]>();

/**
 * The parts of a value shaped as a person's name (two to four capitalised words of letters, with up to
 * two small particles between, at most 80 characters): its first word, and the words before its last,
 * found where someone is addressed, and each later capitalised word and each run of words that ends it ("García López", "de
 * la Fuente"), found after a title; each of three letters or more, as masking compares it and with its
 * accents folded. Any other value has none.
 */
export function nameParts(value: string): readonly Part[] {
  if (!mayBeName(value)) return [];
  let parts = partsByValue.get(value);
  if (parts === undefined) {
    parts = readParts(value);
    if (partsByValue.size >= 20_000) partsByValue.clear();
    partsByValue.set(value, parts);
  }
  return parts;
}

/**
 * Whether a value may be shaped as a person's name, told without reading it: a string of 5 to 80
 * characters with a space, that starts with no small ASCII letter or digit. Most values are not.
 */
function mayBeName(value: unknown): value is string {
  if (typeof value !== "string" || value.length > maxNameLength || value.length < 5) return false;
  const first = value.charCodeAt(0);
  if ((first >= 0x61 && first <= 0x7a) || (first >= 0x30 && first <= 0x39)) return false;
  return value.includes(" ");
}

function readParts(value: string): readonly Part[] {
  const name = cleanText(value).trim().replace(/\s+/g, " ");
  if (!personName.test(name)) return [];
  const words = name.split(" ");
  const found: Part[] = [];
  const add = (text: string, titled: boolean) => {
    if (text.replace(/[^\p{L}]/gu, "").length < minPartLetters) return;
    const rendering = normalize(text);
    const folded = rendering.normalize("NFD").replace(/\p{M}/gu, "").normalize("NFC");
    for (const form of folded === rendering ? [rendering] : [rendering, folded])
      if (!found.some((part) => part.rendering === form && part.titled === titled))
        found.push({ rendering: form, titled });
  };
  // The first name, and with the middle names after it ("Mary Ann" of "Mary Ann Smith").
  for (let at = 1; at < words.length; at++) add(words.slice(0, at).join(" "), false);
  for (let at = 1; at < words.length; at++) {
    const word = words[at] as string;
    if (capital.test(word)) add(word, true);
    if (at < words.length - 1) add(words.slice(at).join(" "), true);
  }
  // Longest first, as values are: "García López" is taken before "García" could take part of it.
  return found.sort((a, b) => b.rendering.length - a.rendering.length);
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
  const { lowered, origin } = lowerWithOrigins(text, !isAscii);
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

// Titles written before a surname, lower-cased without their dot, in the languages records are most
// often written in: "Mr Dupont", "Mme Martin", "Sra. García", "Herr Berg", "Dr Novak".
const titles = new Set(
  (
    "mr mrs ms miss mx dr prof sir madam mister master herr frau fräulein hr fr m mme mlle monsieur madame " +
    "mademoiselle me maître sr sra srta señor señora señorita don doña dña sig sigra signor signora signorina " +
    "dott dssa senhor senhora dhr mevr heer mevrouw pan pani fru"
  ).split(" "),
);

/**
 * Where the title written just before a surname found at `at` begins ("mr dupont", "sra. garcía"), the
 * title taken with the name, as it says what the record does not (and would be one customer's in every
 * message); -1 when none is. The title must be capitalised as written, so "me", "don" and "m" read as
 * words are not taken for one, and the surname must hold a capital.
 */
function titleBefore(
  lowered: string,
  at: number,
  end: number,
  text: string,
  places: readonly number[],
): number {
  if (at < 2 || lowered.charCodeAt(at - 1) !== 0x20) return -1;
  let stop = at - 1;
  if (lowered.charCodeAt(stop - 1) === 0x2e) stop--;
  let start = stop;
  while (start > 0 && stop - start < 12 && isWordUnit(lowered.charCodeAt(start - 1))) start--;
  if (start === stop || !isBoundary(lowered, start - 1)) return -1;
  if (!titles.has(lowered.slice(start, stop))) return -1;
  return isCapital(text, places[start] as number) &&
    capitalIn(text, places[at] as number, places[end] ?? text.length)
    ? start
    : -1;
}

/** Whether a capital letter is written between `start` and `end`: a surname after a particle ("de la Fuente"). */
function capitalIn(text: string, start: number, end: number): boolean {
  return /\p{Lu}/u.test(text.slice(start, end));
}

/** Whether the character at `at` is a capital letter. */
function isCapital(text: string, at: number): boolean {
  const char = String.fromCodePoint(text.codePointAt(at) ?? 0x20);
  return char !== char.toLowerCase();
}

// What may stand before a name someone is addressed by, from the start of its line: up to two words of
// a greeting ("Dear", "Good morning", "Bonjour", "Hola"), with a comma between.
const greetingLead = /^[\s>]*(?:[\p{L}\p{M}'\u2019]+,?[ \t\u00a0]+){0,2}$/u;
// The last end of a sentence in a line's lead, with the space after it.
const sentenceStart = /[.!?][ \t\u00a0]+(?=[^.!?]*$)/u;
// What may follow such a name: the end of its line, or punctuation that ends the address.
const addressEnd = /^[ \t\u00a0]*(?:$|[\r\n,!:;.?\u2013\u2014-])/u;
// Ends of a sentence: a name after a comma is addressed when its sentence ends there ("Thanks, Marie!").
const sentenceEnd = /^[ \t\u00a0]*(?:$|[\r\n!.?])/u;

/**
 * Whether a first name, written in `text` from `start` to `end`, is where someone is addressed: written
 * with a capital, first on its line or after the words of a greeting, and followed by the end of the
 * line or punctuation ("Dear Marie,", "Bonjour Jean", "Hola Lucía:"), or after a comma at the end of a
 * sentence ("Thanks, Marie!"). A word that is also a name ("Will", "Summer", "May") is read as a name
 * only there: "Will you confirm?" and "we will" are not.
 */
function addressed(text: string, start: number, end: number): boolean {
  if (!isCapital(text, start)) return false;
  const after = text.slice(end, end + 4);
  // The start of the line, at most a few words back.
  let lineStart = start;
  while (lineStart > 0 && start - lineStart < 40 && text.charCodeAt(lineStart - 1) !== 0x0a) lineStart--;
  const lead = text.slice(lineStart, start);
  // From the start of its sentence, when one ends on the line before the name.
  const sentence = sentenceStart.exec(lead);
  if (
    (sentence !== null || lineStart === 0 || text.charCodeAt(lineStart - 1) === 0x0a) &&
    greetingLead.test(sentence === null ? lead : lead.slice(sentence.index + sentence[0].length))
  )
    return addressEnd.test(after);
  return /,[ \t\u00a0]*$/.test(lead) && sentenceEnd.test(after);
}

// A word for the hour written after a time of day ("10:30 Uhr", "10:30 horas").
const hourWord = / (?:uhr|hrs|hs|horas|heures|uur)(?![\p{L}\p{N}])/uy;

/** Where the word for the hour written at `at`, after a time of day, ends; `at` when none is there. */
function hourWordEnd(lowered: string, at: number): number {
  hourWord.lastIndex = at;
  return hourWord.test(lowered) ? hourWord.lastIndex : at;
}

/**
 * Where the word for the hour after a found value ends, when the value is a date with a time of day,
 * written with its time as a locale joins them ("3. März 2026 um 10:30" then "Uhr"); -1 otherwise.
 */
function hourWordAfter(
  lowered: string,
  at: number,
  clocksOf: (placeholder: string) => readonly ClockTime[],
  placeholder?: string,
): number {
  // A time ends the value: "10:30", "9h30", "10.30".
  const code = lowered.charCodeAt(at - 1);
  if (code < 0x30 || code > 0x39 || !":h.".includes(lowered.charAt(at - 3))) return -1;
  const end = hourWordEnd(lowered, at);
  return end === at || placeholder === undefined || clocksOf(placeholder).length === 0 ? -1 : end;
}

/** Whether a digit is among the few characters after `at`: where a time of day may follow a date. */
function digitSoonAfter(lowered: string, at: number): boolean {
  const code = lowered.charCodeAt(at);
  if (code !== 0x20 && code !== 0x2c) return false;
  for (let next = at + 1; next < lowered.length && next <= at + 14; next++) {
    const unit = lowered.charCodeAt(next);
    if (unit >= 0x30 && unit <= 0x39) return true;
  }
  return false;
}

// A time of day as people write it after a date: hour, then minutes after ":" or "." ("10:30", "10.30"),
// then a word for the hour or the half of the day ("Uhr", "am"); where a locale writes it so, with an
// "h" for the colon or the word ("9h30", "10 h 30", "10h").
const timeOfDay =
  /(\d{1,2})(?:(?::|\.)(\d{2})(?::\d{2})?)?(?: ?(a\. ?m\.|am|p\. ?m\.|pm|uhr|hrs|hs|horas|hours|heures|uur)(?![\p{L}\p{N}]))?/uy;
const hourTimeOfDay =
  /(\d{1,2})(?:(?::|\.|h| h )(\d{2})(?::\d{2})?)?(?: ?(a\. ?m\.|am|p\. ?m\.|pm|uhr|h|hrs|hs|horas|hours|heures|uur)(?![\p{L}\p{N}]))?/uy;

/**
 * Where a time of day that is one of `timesOf()`, written after a date found ending at `at` and joined to it
 * by one of `joiners` ("at 10:30", "à 08h30", "um 10:30 Uhr", "a las 10:30"), ends; -1 when none is. A
 * time after a space or a comma alone is not taken: the locales' own forms hold those the date has, and
 * a number after a date may say something else. A time with no minutes is taken only with its word
 * ("10 Uhr", "10am").
 */
function timeAfter(
  lowered: string,
  at: number,
  joiners: DateTimeJoiners,
  timesOf: () => readonly ClockTime[],
): number {
  let from = at;
  if (lowered.charCodeAt(from) === 0x2c) from++;
  if (lowered.charCodeAt(from) !== 0x20) return -1;
  from++;
  const joined = from;
  for (const joiner of joiners.words)
    if (lowered.startsWith(joiner, from) && lowered.charCodeAt(from + joiner.length) === 0x20) {
      from += joiner.length + 1;
      break;
    }
  if (from === joined) return -1;
  const time = joiners.hourH ? hourTimeOfDay : timeOfDay;
  time.lastIndex = from;
  const match = time.exec(lowered);
  if (match === null) return -1;
  const end = from + match[0].length;
  if (!isBoundary(lowered, end)) return -1;
  const hour = Number(match[1]);
  const minute = match[2] === undefined ? undefined : Number(match[2]);
  const word = match[3];
  if (minute === undefined && word === undefined) return -1;
  const half =
    word === undefined ? undefined : word.startsWith("a") ? "am" : word.startsWith("p") ? "pm" : undefined;
  const named = timesOf().some((time) => {
    if ((minute ?? 0) !== time.minute) return false;
    if (half !== undefined)
      return hour >= 1 && hour <= 12 && (hour % 12) + (half === "pm" ? 12 : 0) === time.hour;
    return hour === time.hour || (time.hour > 12 && hour === time.hour - 12);
  });
  return named ? end : -1;
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
function lowerWithOrigins(text: string, withOrigin: boolean): { lowered: string; origin: number[] } {
  if (ascii.test(text)) {
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

/** Whether the position is outside the text or not a letter or digit: a value must match whole. */
function isBoundary(text: string, at: number): boolean {
  return at < 0 || at >= text.length || !isWordUnit(text.charCodeAt(at));
}

/**
 * A collection's name as one of its records is called, for placeholder names: "orders" → "order",
 * "categories" → "category", "boxes" → "box", "statuses" → "status", "analyses" → "analysis", "people" →
 * "person", "children" → "child"; a name that is singular already or names no count ("status",
 * "address", "staff", "data", "news") stays as it is. Only the last word of a camelCase or snake_case
 * name changes ("orderStatuses" → "orderStatus", "sales_people" → "sales_person"), with its case kept.
 */
export function singular(collection: string): string {
  const word = collection.slice(lastWordStart(collection));
  if (word.length === 0) return collection;
  const head = collection.slice(0, collection.length - word.length);
  const lower = word.toLowerCase();
  const one = singularWord(lower);
  if (one === lower) return collection;
  const cased =
    word === word.toUpperCase() && word.length > 1
      ? one.toUpperCase()
      : word[0] !== lower[0]
        ? one.charAt(0).toUpperCase() + one.slice(1)
        : one;
  return head + cased;
}

/**
 * Where the last word of a name begins: after its last "_", "-" or digit, or at its last capital that
 * follows a small letter ("lineItems" → 4).
 */
function lastWordStart(name: string): number {
  for (let at = name.length - 1; at > 0; at--) {
    const unit = name.charCodeAt(at);
    if (unit === 0x5f || unit === 0x2d || (unit >= 0x30 && unit <= 0x39)) return at + 1;
    const previous = name.charCodeAt(at - 1);
    if (unit >= 0x41 && unit <= 0x5a && previous >= 0x61 && previous <= 0x7a) return at;
  }
  return 0;
}

// Plurals no rule makes, and names that are no plural though they end as one: each read as written here.
const irregular: ReadonlyMap<string, string> = new Map([
  ["people", "person"],
  ["persons", "person"],
  ["children", "child"],
  ["men", "man"],
  ["women", "woman"],
  ["feet", "foot"],
  ["teeth", "tooth"],
  ["mice", "mouse"],
  ["geese", "goose"],
  ["oxen", "ox"],
  ["criteria", "criterion"],
  ["phenomena", "phenomenon"],
  ["indices", "index"],
  ["matrices", "matrix"],
  ["vertices", "vertex"],
  ["appendices", "appendix"],
  ["knives", "knife"],
  ["wives", "wife"],
  ["lives", "life"],
  ["shelves", "shelf"],
  ["halves", "half"],
  ["wolves", "wolf"],
  ["thieves", "thief"],
  ["quizzes", "quiz"],
  ["crises", "crisis"],
  ["axes", "axis"],
  ["bases", "base"],
  ["cases", "case"],
  ["news", "news"],
  ["series", "series"],
  ["species", "species"],
  ["means", "means"],
  ["physics", "physics"],
  ["economics", "economics"],
  ["analytics", "analytics"],
  ["logistics", "logistics"],
  ["statistics", "statistics"],
  ["sms", "sms"],
  ["gps", "gps"],
  ["dns", "dns"],
  ["os", "os"],
  ["buses", "bus"],
  ["menus", "menu"],
  ["excuses", "excuse"],
  ["focuses", "focus"],
  ["gas", "gas"],
  ["canvas", "canvas"],
  ["alias", "alias"],
  ["atlas", "atlas"],
  ["yes", "yes"],
]);

// "-us" plurals that keep the "-us" (statuses, bonuses, buses, campuses, viruses, censuses): after a
// consonant; after a vowel or most others the "-e" is the word's own (houses, causes, abuses).
const usPlural = /[nprst]uses$/;
// Greek plurals in "-ses" of words in "-sis": analyses, diagnoses, hypotheses, syntheses, theses.
const sisPlural = /(?:ys|gnos|thes|ntes|rthes)es$/;

function singularWord(word: string): string {
  const known = irregular.get(word);
  if (known !== undefined) return known;
  // Singular already: "status", "analysis", "address", and words of two letters or fewer.
  if (word.length <= 2 || /(?:us|is|ss)$/.test(word)) return word;
  if (sisPlural.test(word)) return `${word.slice(0, -2)}is`;
  if (usPlural.test(word)) return word.slice(0, -2);
  if (word.endsWith("ies") && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(?:ss|x|z|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("s")) return word.slice(0, -1);
  return word;
}
