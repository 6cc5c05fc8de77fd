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
export function digitsHeld(rendering: string, digits: HeldDigits | undefined): boolean {
  if (digits === undefined) return true;
  const own = textDigits(rendering);
  return own === "" || digits.holds(own);
}

/**
 * The digits of a text (see {@link textDigits}), for asking many times whether a run of digits is among
 * them: a ticket's dates, amounts and phone numbers are many, and searching the digits for each is most
 * of what ruling them out costs. The runs of four digits they hold are read first: a run of four or more
 * whose first or last four digits are not among them is not; any other is searched for.
 */
export class HeldDigits {
  constructor(readonly digits: string) {}

  /**
   * Whether some run of four digits (a number of 0 to 9999: "0305" is 305) is among the text's digits:
   * a run that begins with four that are not is not either.
   */
  holdsFour(four: number): boolean {
    if (quadsOf !== this) readQuads(this);
    return ((quads[four >>> 5] as number) & (1 << (four & 31))) !== 0;
  }

  /** Whether `run` (ASCII digits) is among the text's digits, in one piece. */
  holds(run: string): boolean {
    const length = run.length;
    if (length >= 4) {
      if (quadsOf !== this) readQuads(this);
      if (!quadHeld(run, 0) || !quadHeld(run, length - 4)) return false;
    }
    return this.digits.includes(run);
  }
}

// One bit per four-digit run, 0000 to 9999, of the digits last asked about: a ticket's index asks about
// one text's digits many times, then another's.
const quads = new Uint32Array(313);
let quadsOf: HeldDigits | undefined;

function readQuads(held: HeldDigits): void {
  quads.fill(0);
  const { digits } = held;
  let quad = 0;
  for (let at = 0; at < digits.length; at++) {
    quad = (quad % 1000) * 10 + (digits.charCodeAt(at) - 0x30);
    if (at >= 3) quads[quad >>> 5] = (quads[quad >>> 5] as number) | (1 << (quad & 31));
  }
  quadsOf = held;
}

function quadHeld(run: string, at: number): boolean {
  const quad =
    (run.charCodeAt(at) - 0x30) * 1000 +
    (run.charCodeAt(at + 1) - 0x30) * 100 +
    (run.charCodeAt(at + 2) - 0x30) * 10 +
    (run.charCodeAt(at + 3) - 0x30);
  return ((quads[quad >>> 5] as number) & (1 << (quad & 31))) !== 0;
}
