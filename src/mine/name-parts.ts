import { cleanText } from "./clean-text.js";
import { normalize } from "./normalize.js";
import { isBoundary, isWordUnit } from "./whole-words.js";

/**
 * The parts of a person's name a record holds, and where a text writes one alone: a first name where
 * someone is addressed ("Dear Marie,"), a surname after a title ("Sra. García"). Masking takes such a
 * part as the name's field, so one customer's name is never a template's text.
 */

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
export const minPartLetters = 3;
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
export function mayBeName(value: unknown): value is string {
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
export function titleBefore(
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
export function addressed(text: string, start: number, end: number): boolean {
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
