import { isAscii } from "../core/scan/characters.js";
import { asciiDigits } from "./ascii-digits.js";

/**
 * The digits a text holds, in order, with everything between them removed: compatibility forms folded
 * and digits of any script as ASCII, as identifiers are compared ("CL‐18138", "١٨١٣٨", "05.03.2026" →
 * "18138", "18138", "05032026").
 *
 * A value written in a message, as a rendering or another way of writing an identifier, has its digits
 * together in the message's digits: a rendering whose digits are not there cannot match, so it need
 * not be made, indexed or looked for. That is most of them: a ticket holds many dates and amounts, a
 * message names a few.
 */
export function textDigits(text: string): string {
  // Folding is needed only where a character is outside ASCII; most texts and renderings are not.
  const folded = isAscii(text) ? text : asciiDigits(text.normalize("NFKC"));
  return folded.replace(/\D+/g, "");
}

/** Whether a rendering may be in a text whose digits are `digits`: all of its digits, together, are. */
export function digitsHeld(rendering: string, digits: string | undefined): boolean {
  if (digits === undefined) return true;
  const own = textDigits(rendering);
  return own === "" || digits.includes(own);
}
