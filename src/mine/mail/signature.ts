import { forEachAddress, forEachLink, forEachPhoneNumber } from "../../core/scan/identifiers.js";
import { isBlank } from "./blank.js";
import { isClosing } from "./closing.js";
import { wordCount } from "./words.js";

/**
 * Signatures, found by the shapes mail clients and people give them: the "-- " delimiter line, the line
 * a phone or app adds ("Sent from my iPhone", "Von meinem iPhone gesendet", "Envoyé de mon iPhone"),
 * and, with no delimiter, a last block of short lines holding a phone number, an address or a link.
 */

// How the lines a device or app adds begin, in the languages its users set.
const sentFrom = [
  "sent from ",
  "sent via ",
  "sent with ",
  "sent using ",
  "get outlook for ",
  "von meinem ",
  "gesendet von ",
  "gesendet mit ",
  "gesendet vom ",
  "envoyé de ",
  "envoyé depuis ",
  "envoyé avec ",
  "envoyé à partir de ",
  "envoyé à partir d'",
  "enviado desde ",
  "enviado de ",
  "enviado do ",
  "enviado com ",
  "inviato da ",
  "inviato dal ",
  "verzonden vanaf ",
  "verzonden met ",
  "verstuurd vanaf ",
  "verstuurd met ",
  "skickat från ",
  "sendt fra ",
  "lähetetty ",
  "wysłane z ",
  "wysłano z ",
  "odesláno z ",
  "odoslané z ",
  "trimis de pe ",
  "trimis din ",
  "отправлено с ",
  "отправлено из ",
  "надіслано з ",
  "στάλθηκε από ",
];

// The first three letters of the beginnings: a line opening with other ones (most lines) is none of them.
const firstThree = new Set(sentFrom.map((start) => start.slice(0, 3)));

// The word after such a beginning: the writer's own device ("my", "meinem", "mon"…) or a product's name.
const possessive = new Set([
  "my",
  "meinem",
  "meiner",
  "mon",
  "ma",
  "mi",
  "meu",
  "minha",
  "mijn",
  "min",
  "mio",
  "mia",
  "mojego",
  "mého",
  "môjho",
  "minun",
  "mea",
  "моего",
  "мого",
  "το",
]);
const upper = /\p{Lu}/u;

/**
 * Whether a line is the one a device or app adds under a message ("Sent from my iPhone", "Inviato da
 * iPhone", "Von Outlook für iOS gesendet"): one of the beginnings above, then a possessive or a name
 * written with a capital, in a short line ("Sent from our warehouse this morning." is text).
 */
export function isSentFrom(line: string): boolean {
  const text = line.trim();
  if (text.length > 80 || "!?".includes(text.charAt(text.length - 1))) return false;
  // The verb-last form ends "gesendet".
  if (!firstThree.has(text.slice(0, 3).toLowerCase()) && text.slice(-8).toLowerCase() !== "gesendet")
    return false;
  const lower = `${text.toLowerCase().replace(/\s+/g, " ")} `;
  // German also puts the verb last: "Von Outlook für iOS gesendet".
  const prefix = lower.endsWith(" gesendet ") ? "von " : sentFrom.find((start) => lower.startsWith(start));
  if (prefix === undefined || !lower.startsWith(prefix)) return false;
  const words = text.replace(/\s+/g, " ").slice(prefix.length).split(" ");
  const next = words[0] ?? "";
  return words.length <= 6 && (possessive.has(next.toLowerCase()) || upper.test(next));
}

/** Whether a line holds contact data: an e-mail address, a URL or host, or a phone number. */
export function holdsContact(line: string): boolean {
  let found = false;
  // Each scan stops at its first find: only whether there is one matters.
  forEachAddress(line, () => (found = true));
  if (!found) forEachLink(line, () => (found = true));
  if (!found) forEachPhoneNumber(line, () => (found = true));
  return found;
}

/** A line of a signature block: short, and not a sentence ("Head of Support", "+49 30 1234567"). */
export function isSignatureLine(line: string): boolean {
  const text = line.trim();
  // A signature's widest line is a company line or a team line with a name and a number.
  if (text.length > 80 || text.endsWith("?")) return false;
  return !(".!".includes(text.charAt(text.length - 1)) && wordCount(text, 4) > 3);
}

/**
 * Where a signature starts among a message's own lines (quoted lines already out), or undefined: the
 * "-- " delimiter ("--" alone when at most ten signature lines follow), a device line among the last three lines,
 * or a last block, after an empty line, of two to eight signature lines one of which holds contact data.
 */
export function signatureStart(lines: readonly string[], end = lines.length): number | undefined {
  // Lines from `lastThree` on hold at most three lines with text, from `lastTen` on at most ten.
  let lastThree = 0;
  let lastTen = 0;
  for (let i = end - 1, text = 0; i >= 0; i--) {
    if (isBlank(lines[i] as string)) continue;
    text++;
    if (text === 4) lastThree = i + 1;
    if (text === 11) {
      lastTen = i + 1;
      break;
    }
  }
  for (let i = 0; i < end; i++) {
    const line = lines[i] as string;
    if (line === "-- " || line === "--\u00a0") return i;
    // Without its space (many clients trim it) "--" is a rule as often: a signature only when short
    // lines that are not sentences follow it.
    if (
      line.startsWith("--") &&
      line.trimEnd() === "--" &&
      i + 1 >= lastTen &&
      allSignatureLines(lines, i + 1, end)
    )
      return i;
    if (i >= lastThree && !isBlank(line) && isSentFrom(line)) return i;
  }
  let blockEnd = end;
  while (blockEnd > 0 && isBlank(lines[blockEnd - 1] as string)) blockEnd--;
  let start = blockEnd;
  while (start > 0 && !isBlank(lines[start - 1] as string) && blockEnd - start <= 8) start--;
  const size = blockEnd - start;
  // Only a block with an empty line above it: a signature is set apart from the text.
  if (start === 0 || size < 2 || size > 8) return undefined;
  if (!allSignatureLines(lines, start, blockEnd)) return undefined;
  // "Best regards,\nAnna\n+49 …" is a closing with a signature under it: the closing is read as one.
  // Looked for before contact data, which costs more to scan for.
  for (let i = start; i < blockEnd; i++) if (isClosing(lines[i] as string)) return undefined;
  for (let i = start; i < blockEnd; i++) if (holdsContact(lines[i] as string)) return start;
  return undefined;
}

/** Whether every line from `start` to `end` is a signature line. */
function allSignatureLines(lines: readonly string[], start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (!isSignatureLine(lines[i] as string)) return false;
  return true;
}
