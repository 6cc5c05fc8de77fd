/**
 * A line as it is counted when telling boilerplate from template text: lower-cased, quote markers and
 * punctuation gone, each run of digits one "0" (a team line with another phone number or date is still
 * the same line), white space single, at most 200 characters. Lines that recur across many messages of
 * different templates (a team line, a pleasantry) are boilerplate, whatever their numbers.
 *
 * @example
 * import { lineKey } from "formletter/mine";
 * lineKey("> Your Acme team · +49 30 1234-567"); // "your acme team 0 0 0 0"
 */
export function lineKey(line: string): string {
  return line
    .slice(0, 2_000)
    .toLowerCase()
    .replace(/\p{Nd}+/gu, "0")
    .replace(/[^\p{L}\p{M}0]+/gu, " ")
    .trim()
    .slice(0, 200);
}
