import { firstWordOf, Phrases, type Word, wordsOf } from "./words.js";

/**
 * Closings as people end a message ("Best regards,", "Viele Grüße", "Cordialement", "Cheers, Sam"), in
 * the languages of the histories mining reads. A closing is a line that starts with one of these phrases
 * and holds nothing after it but a name, punctuation or symbols.
 */
const closings = new Phrases([
  // English
  "best",
  "best regards",
  "best wishes",
  "all the best",
  "kind regards",
  "kindest regards",
  "warm regards",
  "warmest regards",
  "warm wishes",
  "regards",
  "many thanks",
  "thanks",
  "thanks again",
  "thanks in advance",
  "thanks so much",
  "thank you",
  "thank you again",
  "thank you in advance",
  "thank you very much",
  "thx",
  "ty",
  "cheers",
  "sincerely",
  "yours sincerely",
  "sincerely yours",
  "yours faithfully",
  "yours truly",
  "respectfully",
  "have a nice day",
  "have a great day",
  "speak soon",
  "talk soon",
  "talk to you soon",
  "see you soon",
  "take care",
  "with thanks",
  "with best regards",
  "with kind regards",
  "br",
  "kr",
  // German
  "viele grüße",
  "viele grüsse",
  "vielen dank",
  "danke",
  "danke schön",
  "danke dir",
  "danke ihnen",
  "beste grüße",
  "beste grüsse",
  "liebe grüße",
  "liebe grüsse",
  "herzliche grüße",
  "herzliche grüsse",
  "schöne grüße",
  "freundliche grüße",
  "freundliche grüsse",
  "mit freundlichen grüßen",
  "mit freundlichen grüssen",
  "mit freundlichem gruß",
  "mit freundlichem gruss",
  "mit besten grüßen",
  "schönen tag noch",
  "einen schönen tag",
  "grüße",
  "grüsse",
  "gruß",
  "gruss",
  "bis bald",
  "lg",
  "vg",
  "mfg",
  // French
  "cordialement",
  "bien cordialement",
  "bien à vous",
  "salutations",
  "meilleures salutations",
  "sincères salutations",
  "amicalement",
  "merci",
  "merci beaucoup",
  "merci d'avance",
  "bonne journée",
  "belle journée",
  "bonne soirée",
  "bonne fin de journée",
  "très cordialement",
  "bien à toi",
  "à bientôt",
  "salutations distinguées",
  "avec mes salutations",
  "bises",
  // Spanish
  "saludos",
  "saludos cordiales",
  "un saludo",
  "un cordial saludo",
  "atentamente",
  "gracias",
  "muchas gracias",
  "cordialmente",
  "un abrazo",
  "reciba un cordial saludo",
  // Dutch
  "met vriendelijke groet",
  "met vriendelijke groeten",
  "vriendelijke groet",
  "vriendelijke groeten",
  "groeten",
  "groetjes",
  "hartelijke groet",
  "mvg",
  "bedankt",
  // Italian
  "distinti saluti",
  "cordiali saluti",
  "saluti",
  "un saluto",
  "grazie",
  "grazie mille",
  "buona giornata",
  "a presto",
  // Portuguese
  "atenciosamente",
  "cumprimentos",
  "abraços",
  "obrigado",
  "obrigada",
  "melhores cumprimentos",
  "abraço",
  // Scandinavian and Finnish
  "med vänliga hälsningar",
  "med vänlig hälsning",
  "vänliga hälsningar",
  "vänlig hälsning",
  "hälsningar",
  "mvh",
  "tack",
  "med venlig hilsen",
  "venlig hilsen",
  "med vennlig hilsen",
  "vennlig hilsen",
  "hilsen",
  "vh",
  "ystävällisin terveisin",
  "parhain terveisin",
  "terveisin",
  "kiitos",
  // Polish, Czech and Slovak
  "pozdrawiam",
  "pozdrawiam serdecznie",
  "serdecznie pozdrawiam",
  "z poważaniem",
  "z wyrazami szacunku",
  "dziękuję",
  "s pozdravem",
  "s přátelským pozdravem",
  "s pozdravom",
  "děkuji",
  "ďakujem",
  // Romanian, Hungarian and Turkish
  "cu stimă",
  "cu respect",
  "cu drag",
  "mulțumesc",
  "toate cele bune",
  "üdvözlettel",
  "tisztelettel",
  "köszönöm",
  "saygılarımla",
  "iyi çalışmalar",
  "iyi günler",
  "teşekkürler",
  // Greek, Russian and Ukrainian
  "με εκτίμηση",
  "φιλικά",
  "ευχαριστώ",
  "с уважением",
  "спасибо",
  "всего доброго",
  "з повагою",
  "дякую",
  // Catalan
  "salutacions",
  "cordialment",
  "moltes gràcies",
]);

const marks = ",.!:;–—-";
const conjunctions = new Set(["and", "und", "et", "y", "e", "en", "och", "og"]);
const isConjunction = (word: Word | undefined) =>
  word !== undefined && (conjunctions.has(word.text) || (word.text === "" && word.last === "&"));
const letter = /\p{L}/u;
const upper = /\p{Lu}/u;

/**
 * Whether `line` is a closing: a phrase, then only a name (capitalised words), punctuation or symbols
 * ("Cheers, Sam", "Thanks! 🙏", "Best, A."). A one-word phrase must be followed by a mark or nothing
 * (or, on the `last` line of the text, a name), so "Best price we found" or "Thanks, we refunded it" is
 * not one; a longer phrase may go on for a few words ("Viele Grüße aus Berlin").
 */
export function isClosing(line: string, last = false): boolean {
  if (line.length > 80) return false;
  // Most lines start with no closing's first word: read first, before all of the line's words.
  if (!closings.opens(firstWordOf(line))) return false;
  const known = (last ? lastLines : otherLines).get(line);
  if (known !== undefined) return known;
  const verdict = isClosingPhrase(line, last);
  if (lastLines.size + otherLines.size >= maxRemembered) {
    lastLines.clear();
    otherLines.clear();
  }
  (last ? lastLines : otherLines).set(line, verdict);
  return verdict;
}

// Closing lines recur across a history (a team's "Best regards,", its names): each is read once as the
// last line of a text and once as another. Bounded, so a history of ever new lines keeps little.
const lastLines = new Map<string, boolean>();
const otherLines = new Map<string, boolean>();
const maxRemembered = 2048;

/** {@link isClosing} of a line that starts with a closing's first word. */
function isClosingPhrase(line: string, last: boolean): boolean {
  const words = wordsOf(line, 12);
  let phrase = closings.prefixOf(words);
  // Two closings joined: "Thanks and regards", "Danke und Gruß", "Merci et bonne journée".
  while (phrase > 0 && isConjunction(words[phrase])) {
    const more = closings.prefixOf(words, phrase + 1);
    if (more === 0) break;
    phrase += 1 + more;
  }
  if (phrase === 0 || words.length > phrase + 4) return false;
  const rest = words.slice(phrase);
  if (rest.some((word) => word.last === "?")) return false;
  const marked = marks.includes((words[phrase - 1] as Word).last) || rest[0]?.text === "";
  if (marked) return rest.every((word) => !letter.test(word.text.charAt(0)) || isName(line, word));
  // A one-word closing with a name and no mark between ("Gruß Tobias Kern", "LG Jana") only as the
  // last line: "Best Western Hotel" over more text is not one.
  if (phrase === 1) return rest.every((word) => word.text === "" || (last && isName(line, word)));
  // A longer phrase may go on with a name or a place: "Kind regards Anna", "Viele Grüße aus Berlin";
  // not with a sentence: "Thank you for your order".
  return rest.length <= 3 && rest.every((word) => word.text.length <= 3 || isName(line, word));
}

/** A word written capitalised, as names are ("Sam", "A."). */
function isName(line: string, word: Word): boolean {
  const first = line.slice(word.start, word.end).replace(/^[^\p{L}]+/u, "");
  return upper.test(first.charAt(0));
}
