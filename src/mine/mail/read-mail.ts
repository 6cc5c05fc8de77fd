import { isClosing } from "./closing.js";
import { disclaimerStart } from "./disclaimer.js";
import { greetingOf } from "./greeting.js";
import { cutQuotes } from "./quote.js";
import { holdsContact, isSignatureLine, signatureStart } from "./signature.js";

/** A message's mail structure: what its writer wrote for it, and what was cut off around it. */
export interface MailParts {
  /**
   * What the writer wrote for this message, lines joined by "\n": greeting, closing with the name lines
   * under it, signature, and earlier messages (quoted, attributed, forwarded) cut off; trimmed.
   */
  readonly body: string;
  /** The greeting as written ("Hello Atelier Lune,", "Sehr geehrte Damen und Herren,"), if any. */
  readonly greeting: string | undefined;
  /** The closing line as written ("Best regards,", "Cheers, Sam", "Viele Grüße"), if any. */
  readonly closing: string | undefined;
  /** Whether an earlier message (quoted, under an attribution or an Outlook block, forwarded) was cut. */
  readonly quoted: boolean;
  /**
   * Whether a signature was cut: a "-- " block, a device line, contact lines under the text, or a legal
   * notice under them.
   */
  readonly signature: boolean;
}

const lineBreak = /\r\n|\r|\n|\u2028|\u2029/;

// Lines under a closing that are still its name and signature: more is text, and the closing a phrase in it.
const maxUnderClosing = 8;

/**
 * Cuts a plain-text mail by the conventions of e-mail, before its text is compared with others: earlier
 * messages (quote markers `>` `|` however nested, attribution lines such as "On … wrote:" and their
 * German, French, Spanish, Dutch, Italian and Portuguese forms, Outlook's "-----Original Message-----"
 * blocks and header blocks, forwarded-message markers), the signature ("-- ", "Sent from my iPhone" and
 * its translations, a last block of contact lines), the closing with the name lines under it, and the
 * greeting. Linear in the text; never throws (anything not a string reads as an empty mail).
 *
 * @example
 * import { readMail } from "formletter/mine";
 * readMail("Hi Anna,\nyour parcel left today.\n\nBest regards,\nTom\n\nOn Mon, 2 Mar 2026, Anna <a@x.example> wrote:\n> Where is it?");
 * // { body: "your parcel left today.", greeting: "Hi Anna,", closing: "Best regards,", quoted: true, signature: false }
 */
export function readMail(text: string): MailParts {
  if (typeof text !== "string")
    return { body: "", greeting: undefined, closing: undefined, quoted: false, signature: false };
  // Most texts break lines with "\n" alone: split on it natively (three native searches for the others
  // cost less than a regular expression's one pass).
  const lines =
    text.includes("\r") || text.includes("\u2028") || text.includes("\u2029")
      ? text.split(lineBreak)
      : text.split("\n");
  const quotes = cutQuotes(lines);
  let own: string[] = [];
  for (let i = 0; i < quotes.end; i++) if (!quotes.quotedLine[i]) own.push(lines[i] as string);
  let signature = false;
  // A legal notice under the message is cut first: the signature and the closing stand above it.
  const disclaimerAt = disclaimerStart(own);
  if (disclaimerAt !== undefined) {
    own = own.slice(0, disclaimerAt);
    signature = true;
  }
  const signatureAt = signatureStart(own);
  // Cut by copying what is kept: shortening an array in place costs more.
  if (signatureAt !== undefined) {
    own = own.slice(0, signatureAt);
    signature = true;
  }
  const first = own.findIndex((line) => line.trim() !== "");
  const closing = closingOf(own, first);
  if (closing !== undefined) {
    if (closing.signature) signature = true;
    own = own.slice(0, closing.line);
    if (closing.keep !== "") own.push(closing.keep);
  }
  let greeting: string | undefined;
  if (first !== -1 && first < own.length) {
    const found = greetingOf(own[first] as string);
    if (found !== undefined) {
      greeting = found.greeting;
      own[first] = found.rest;
    }
  }
  return {
    body: own.join("\n").trim(),
    greeting,
    closing: closing?.closing,
    quoted: quotes.quoted,
    signature,
  };
}

/**
 * The closing among the last lines: the lowest closing line under which stand only short lines that are
 * not sentences (a name, a title, contact data), with the closings right above it, or a closing ending the last
 * line of text ("… confirmed its condition. Best regards, Team"). `line` is where the cut starts and
 * `keep` what stays of that line.
 */
function closingOf(
  lines: readonly string[],
  first: number,
): { line: number; keep: string; closing: string; signature: boolean } | undefined {
  let found: number | undefined;
  let stop = -1;
  let seen = 0;
  let last = true;
  for (let i = lines.length - 1; i > first; i--) {
    const line = lines[i] as string;
    const text = line.trim();
    if (text === "") continue;
    const closing = isClosing(text, last);
    last = false;
    if (closing) found = i;
    // Names and contact lines stand under a closing, never above it: above one, only another closing
    // ("Thanks again!" over "Best regards,") belongs to it.
    else if (found !== undefined || !isSignatureLine(line) || ++seen > maxUnderClosing) {
      stop = i;
      break;
    }
  }
  if (found !== undefined) {
    const under = lines.slice(found + 1).filter((line) => line.trim() !== "");
    return {
      line: found,
      keep: "",
      closing: (lines[found] as string).trim(),
      signature: under.length >= 2 || under.some(holdsContact),
    };
  }
  // A closing written at the end of the last sentence, with at most a name or two under it.
  const at = stop === -1 ? first : stop;
  if (at < 0) return undefined;
  const line = (lines[at] as string).trimEnd();
  const tailFrom = Math.max(0, line.length - 80);
  let boundary = -1;
  for (let i = line.length - 2; i >= tailFrom; i--) {
    if (".!?".includes(line.charAt(i)) && line.charAt(i + 1) === " ") {
      boundary = i + 1;
      break;
    }
  }
  if (boundary === -1) return undefined;
  const tail = line.slice(boundary).trim();
  if (!isClosing(tail)) return undefined;
  const under = lines.slice(at + 1).filter((text) => text.trim() !== "");
  if (under.length > 2) return undefined;
  return { line: at, keep: line.slice(0, boundary).trimEnd(), closing: tail, signature: false };
}
