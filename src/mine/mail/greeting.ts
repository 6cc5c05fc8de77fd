import { firstWordOf, Phrases, wordsOf } from "./words.js";

/**
 * Greetings as people open a message, in the languages of the histories mining reads: a phrase from
 * this list at the start of the first line, with the name after it up to a comma, "!" or ":" (or to the
 * end of a short line). Compared on words, so "History" is not "Hi" and "Hello," is "hello".
 */
const greetings = new Phrases([
  // English
  "hi",
  "hi there",
  "hiya",
  "hello",
  "hello there",
  "hey",
  "dear",
  "dearest",
  "greetings",
  "good morning",
  "good afternoon",
  "good evening",
  "good day",
  "morning",
  "to whom it may concern",
  // German
  "hallo",
  "hallöchen",
  "hi zusammen",
  "liebe",
  "lieber",
  "liebes",
  "sehr geehrte",
  "sehr geehrter",
  "sehr geehrtes",
  "guten tag",
  "guten morgen",
  "guten abend",
  "moin",
  "moin moin",
  "servus",
  "grüß gott",
  "grüezi",
  // French
  "bonjour",
  "bonsoir",
  "salut",
  "cher",
  "chère",
  "chers",
  "chères",
  "madame",
  "monsieur",
  "madame monsieur",
  // Spanish
  "hola",
  "buenos días",
  "buenos dias",
  "buenas tardes",
  "buenas",
  "estimado",
  "estimada",
  "estimados",
  "querido",
  "querida",
  // Dutch
  "beste",
  "geachte",
  "hoi",
  "goedemorgen",
  "goedemiddag",
  // Italian
  "ciao",
  "buongiorno",
  "buonasera",
  "gentile",
  "gentili",
  "egregio",
  "caro",
  "cara",
  // Portuguese
  "olá",
  "ola",
  "oi",
  "bom dia",
  "boa tarde",
  "prezado",
  "prezada",
  // Scandinavian and Finnish
  "hej",
  "hei",
  "hallå",
  "god morgon",
  "god dag",
  "kære",
  "kjære",
  "moi",
  "hyvä asiakas",
  // Polish, Czech and Slovak
  "dzień dobry",
  "witam",
  "szanowny",
  "szanowna",
  "szanowni",
  "dobrý den",
  "dobrý deň",
  "vážený",
  "vážená",
  "vážení",
  // Romanian, Hungarian and Turkish
  "bună ziua",
  "stimate",
  "stimată",
  "dragă",
  "kedves",
  "tisztelt",
  "jó napot",
  "merhaba",
  "sayın",
  // Greek, Russian and Ukrainian
  "αγαπητέ",
  "αγαπητή",
  "γεια σας",
  "καλημέρα",
  "здравствуйте",
  "добрый день",
  "уважаемый",
  "уважаемая",
  "уважаемые",
  "привет",
  "добрий день",
  "вітаю",
  "шановний",
  "шановна",
  // Catalan
  "bon dia",
  "benvolgut",
  "benvolguda",
]);

// A name after the phrase is at most this many words ("Sehr geehrte Damen und Herren,").
const maxNameWords = 6;
const ends = ",!:;–—";
// A dash standing alone ends a greeting too ("Hi Anna - quick question").
const dashes = "-–—";

/**
 * The greeting a line opens with, and the rest of the line after it; undefined when it opens with none.
 * "Hello Atelier Lune, could you…" → greeting "Hello Atelier Lune,", rest "could you…".
 */
export function greetingOf(line: string): Greeting | undefined {
  // Most first lines start with no greeting's first word: read first, before all of the line's words.
  if (!greetings.opens(firstWordOf(line))) return undefined;
  // A long line (a paragraph opening with "Hi") is rarely written twice: read, not kept.
  if (line.length > maxRememberedLength) return greetingIn(line);
  const known = greetingByLine.get(line);
  if (known !== undefined) return known ?? undefined;
  const greeting = greetingIn(line) ?? null;
  if (greetingByLine.size >= maxRemembered) greetingByLine.clear();
  greetingByLine.set(line, greeting);
  return greeting ?? undefined;
}

/** A line's greeting and the rest of the line; shared by every line written the same. */
interface Greeting {
  readonly greeting: string;
  readonly rest: string;
}

// First lines recur across a history ("Dear customer,", "Hi Anna,"): each is read once (null: it opens
// with no greeting). Bounded, so a history of ever new first lines keeps little.
const greetingByLine = new Map<string, Greeting | null>();
const maxRemembered = 2048;
const maxRememberedLength = 200;

/** {@link greetingOf} of a line that starts with a greeting's first word. */
function greetingIn(line: string): Greeting | undefined {
  const words = wordsOf(line, 1 + maxNameWords + 4);
  const phrase = greetings.prefixOf(words);
  if (phrase === 0) return undefined;
  for (let w = phrase - 1; w < Math.min(words.length, phrase + maxNameWords); w++) {
    const word = words[w] as (typeof words)[number];
    const next = words[w + 1];
    // The greeting ends at a comma, "!" or ":" after a word, or at a dash standing alone.
    const dash = next !== undefined && next.text === "" && dashes.includes(next.last);
    if (!ends.includes(word.last) && !dash) continue;
    const end = dash && !ends.includes(word.last) ? (next as (typeof words)[number]).end : word.end;
    // "Hello, Ann!", "Здравствуйте, Анна!": the name follows the phrase's comma and fills the line.
    if (w === phrase - 1 && word.last === "," && isNameLine(line.slice(end)))
      return { greeting: line.trim(), rest: "" };
    return { greeting: line.slice(0, end).trim(), rest: line.slice(end).trim() };
  }
  // No mark after it: a greeting only when it is the whole of a short line that is not a sentence
  // ("Hello Anna", "Dear Sir or Madam"; not "Morning deliveries are late.").
  const last = words.at(-1);
  if (
    last !== undefined &&
    words.length <= phrase + 3 &&
    last.end >= line.trimEnd().length &&
    !".?".includes(last.last)
  )
    return { greeting: line.trim(), rest: "" };
  return undefined;
}

const nameWord = /^\p{Lu}[\p{L}\p{M}'’.-]*$/u;

/** Whether `rest` is a name alone: one to three capitalised words, then at most a comma, "!" or ".". */
function isNameLine(rest: string): boolean {
  const words = rest
    .trim()
    .replace(/[,!.]$/u, "")
    .split(/\s+/u);
  return words.length <= 3 && words.every((word) => nameWord.test(word));
}
