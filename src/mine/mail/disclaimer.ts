import { isBlank } from "./blank.js";
import { isSignatureLine } from "./signature.js";
import { wordsOf } from "./words.js";

/**
 * Disclaimers: the legal notice a company's mail server or client adds under every message ("This e-mail
 * and any attachments are confidential and intended solely for the addressee…", "Ce message et ses
 * pièces jointes sont confidentiels et destinés exclusivement à leur destinataire", "Diese E-Mail ist
 * vertraulich…"). Nobody writes it for the message, and it stands under the closing and the signature,
 * so it is cut before they are looked for.
 */

// How the words that call a text secret begin, in the languages of the histories mining reads.
const secret = [
  "confidential",
  "confidentiel",
  "confidencial",
  "confidenzial",
  "vertraulich",
  "vertrouwelijk",
  "riservat",
  "konfidentiell",
  "fortrolig",
  "sigilos",
  "poufn",
  "privileged",
  "disclaimer",
  "haftungsausschluss",
];

// How the words that name whom it is meant for, or what to do with it when received by mistake, begin.
const meantFor = [
  "addressee",
  "intended",
  "recipient",
  "destinatai",
  "destinatar",
  "destinatár",
  "empfänger",
  "adressat",
  "geadresseerde",
  "ontvanger",
  "mottagare",
  "error",
  "erreur",
  "irrtümlich",
  "delete",
  "supprim",
  "lösch",
  "elimin",
  "cancell",
  "verwijder",
  "notify",
];

// Matches wherever a line lower-cased holds a word of `secret`: its stems, with case folded as Unicode folds
// it (the Kelvin sign lower-cases to "k" too; no stem ends in the "i" that "İ" lower-cases to with a
// mark after it). Read natively on the lines as written, before they are joined and lower-cased.
const mayBeSecret = new RegExp(secret.join("|"), "iu");

const begins = (word: string, stems: readonly string[]) => stems.some((stem) => word.startsWith(stem));

// A notice's longest paragraph, and how many paragraphs (two languages, a notice and a legal footer).
const maxLines = 12;
const maxParagraphs = 3;

/**
 * Where a disclaimer starts among a message's own lines (quoted lines already out), or undefined: in each
 * of the last paragraphs, the first line from which the rest both calls the text secret and names whom it
 * is meant for. Only under a closing, a name or contact lines (a short line that is no sentence), so a
 * template's last sentence about confidential data stays.
 */
export function disclaimerStart(lines: readonly string[], last = lines.length): number | undefined {
  let end = last;
  let found: number | undefined;
  for (let paragraph = 0; paragraph < maxParagraphs; paragraph++) {
    while (end > 0 && isBlank(lines[end - 1] as string)) end--;
    let start = end;
    while (start > 0 && !isBlank(lines[start - 1] as string) && end - start < maxLines) start--;
    if (start === end) break;
    // Most last paragraphs are a name or contact lines: one search of their lines rules them out.
    let marked = false;
    for (let i = start; i < end && !marked; i++) marked = mayBeSecret.test(lines[i] as string);
    if (!marked) break;
    const text = lines.slice(start, end).join(" ").toLowerCase();
    if (!secret.some((stem) => text.includes(stem))) break;
    const at = noticeIn(lines, start, end);
    if (at === undefined) break;
    found = at;
    end = at;
  }
  if (found === undefined) return undefined;
  let above = found - 1;
  while (above >= 0 && isBlank(lines[above] as string)) above--;
  return above >= 0 && isSignatureLine(lines[above] as string) ? found : undefined;
}

/** The first line of `start`..`end` from which the lines call the text secret and name whom it is for. */
function noticeIn(lines: readonly string[], start: number, end: number): number | undefined {
  let isSecret = false;
  let isMeant = false;
  let from: number | undefined;
  for (let i = end - 1; i >= start; i--) {
    let marked = false;
    for (const word of wordsOf(lines[i] as string, 200)) {
      if (begins(word.text, secret)) isSecret = marked = true;
      else if (begins(word.text, meantFor)) isMeant = marked = true;
    }
    if (marked && isSecret && isMeant) from = i;
  }
  return from;
}
