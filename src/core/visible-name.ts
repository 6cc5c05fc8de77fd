/**
 * Names a person reads: who acted on a queue item, and the ticket and run a relay token is for. One rule
 * for every way in (`outbox.queue.*` and `openHumanQueue`, the relay's operator tokens and minting,
 * `formletter queue … --by`), so a name that is blank to the eye, or that turns the text after it
 * around, never reaches the audit log, a log line or a reviewer's screen. Plain functions, no schema
 * library: the queue, the relay and the command line all hold names to it.
 */

/** Longest name, in UTF-16 units. */
export const maxNameLength = 200;

// Control (C0, DEL, C1), format (bidi controls and isolates, zero-width characters, tag characters),
// line and paragraph separators, lone surrogates, private use, unassigned, and every default-ignorable
// code point (Hangul fillers, variation selectors): none of them shows as itself.
const hidden = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Co}\p{Cn}\p{Default_Ignorable_Code_Point}]/u;
// A letter, digit, punctuation mark or symbol that draws ink; U+2800 (the blank Braille pattern) is a
// symbol that shows nothing.
const ink = /[\p{L}\p{N}\p{P}\p{S}]/u;

/** The rule, as every refusal of a name states it: written once, here. */
export const visibleNameRule = `1 to ${maxNameLength} characters, one or more of them visible, and none a control, invisible or bidi character`;

/** True when `text` is a string of 1 to 200 characters holding something a reader sees, and nothing hidden. */
export function isVisibleName(text: unknown): text is string {
  return (
    typeof text === "string" &&
    text.length >= 1 &&
    text.length <= maxNameLength &&
    !hidden.test(text) &&
    ink.test(text.replaceAll("\u2800", ""))
  );
}

/**
 * Who acts on a queue item, trimmed, or undefined when `value` breaks the rule (after trimming: spaces
 * around a name are not part of it).
 */
export function actorNameOf(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const name = value.trim();
  return isVisibleName(name) ? name : undefined;
}

/**
 * True for an id held to the rule as written: an id is compared as given, so one with spaces around it
 * is refused rather than trimmed into another id.
 */
export function isVisibleId(value: unknown): value is string {
  return isVisibleName(value) && value.trim() === value;
}
