import { isBlank } from "./blank.js";
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
  const newlines = !(text.includes("\r") || text.includes("\u2028") || text.includes("\u2029"));
  const lines = newlines ? text.split("\n") : text.split(lineBreak);
  // Most mails hold no fullwidth colon, many no colon at all: one search of the text each spares a
  // search of each line.
  const quotes = cutQuotes(lines, text.includes("：") ? "any" : text.includes(":") ? "ascii" : "none");
  // The writer's own lines are `own` up to `end`: each cut moves `end`. They are the mail's lines when
  // the quoted ones all stand under them, as in most replies; copied only when quoted lines stand among
  // the writer's.
  let own = lines;
  let end = quotes.end;
  while (end > 0 && quotes.quotedLine[end - 1]) end--;
  for (let i = 0; i < end; i++) {
    if (!quotes.quotedLine[i]) continue;
    own = [];
    for (let j = 0; j < quotes.end; j++) if (!quotes.quotedLine[j]) own.push(lines[j] as string);
    end = own.length;
    break;
  }
  let signature = false;
  // A legal notice under the message is cut first: the signature and the closing stand above it.
  const disclaimerAt = disclaimerStart(own, end);
  if (disclaimerAt !== undefined) {
    end = disclaimerAt;
    signature = true;
  }
  const signatureAt = signatureStart(own, end);
  if (signatureAt !== undefined) {
    end = signatureAt;
    signature = true;
  }
  let first = 0;
  while (first < end && isBlank(own[first] as string)) first++;
  if (first === end) first = -1;
  const closing = closingOf(own, first, end);
  if (closing !== undefined) {
    if (closing.signature) signature = true;
    end = closing.line;
  }
  const keep = closing?.keep ?? "";
  // The greeting opens the first line with text, which may be what is kept of a closing's line.
  const opening =
    first === -1 ? undefined : first < end ? own[first] : first === end && keep !== "" ? keep : undefined;
  const found = opening === undefined ? undefined : greetingOf(opening);
  let body: string;
  if (own === lines && newlines && keep === "" && (found === undefined || found.rest === "")) {
    // The body is then a stretch of the text as written (from under a greeting that fills its line):
    // cut from it, not joined from its lines.
    const from = found === undefined ? 0 : first + 1;
    body = from >= end ? "" : text.slice(lineStart(lines, from), lineStart(lines, end) - 1).trim();
  } else {
    const kept = own.slice(0, end);
    if (keep !== "") kept.push(keep);
    if (found !== undefined) kept[first] = found.rest;
    body = kept.join("\n").trim();
  }
  return {
    body,
    greeting: found?.greeting,
    closing: closing?.closing,
    quoted: quotes.quoted,
    signature,
  };
}

/** Where line `index` of a text split at "\n" starts in it (the text's length plus one past the last). */
function lineStart(lines: readonly string[], index: number): number {
  let at = 0;
  for (let i = 0; i < index; i++) at += (lines[i] as string).length + 1;
  return at;
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
  end: number,
): { line: number; keep: string; closing: string; signature: boolean } | undefined {
  let found: number | undefined;
  let stop = -1;
  let seen = 0;
  let last = true;
  for (let i = end - 1; i > first; i--) {
    const line = lines[i] as string;
    if (isBlank(line)) continue;
    const text = line.trim();
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
    let under = 0;
    let contact = false;
    for (let i = found + 1; i < end; i++) {
      const line = lines[i] as string;
      if (isBlank(line)) continue;
      under++;
      // Contact data is looked for only while it decides: two lines under the closing are a signature.
      if (under < 2 && !contact) contact = holdsContact(line);
    }
    return {
      line: found,
      keep: "",
      closing: (lines[found] as string).trim(),
      signature: under >= 2 || contact,
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
  let under = 0;
  for (let i = at + 1; i < end; i++) if (!isBlank(lines[i] as string)) under++;
  if (under > 2) return undefined;
  return { line: at, keep: line.slice(0, boundary).trimEnd(), closing: tail, signature: false };
}
