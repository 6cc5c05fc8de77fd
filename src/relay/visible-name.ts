/**
 * Names a person reads: who acted on a queue item, and the ticket and run a token is for. One rule for
 * every way in (the operator token's subject, the relay's minting, `formletter queue … --by`), so a
 * name that is blank to the eye, or that turns the text after it around, never reaches the audit log,
 * a log line or a reviewer's screen.
 */
import { z } from "zod";

/** Longest name, in UTF-16 units: the queue's own limit on who acts. */
export const maxNameLength = 200;

// Control (C0, DEL, C1), format (bidi controls and isolates, zero-width characters, tag characters),
// line and paragraph separators, lone surrogates, private use, unassigned, and every default-ignorable
// code point (Hangul fillers, variation selectors): none of them shows as itself.
const hidden = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Co}\p{Cn}\p{Default_Ignorable_Code_Point}]/u;
// A letter, digit, punctuation mark or symbol that draws ink; U+2800 (the blank Braille pattern) is a
// symbol that shows nothing.
const ink = /[\p{L}\p{N}\p{P}\p{S}]/u;

/** True when `text` holds something a reader sees, and nothing hidden. */
export function isVisibleName(text: string): boolean {
  return !hidden.test(text) && ink.test(text.replaceAll("\u2800", ""));
}

/** The rule, as every refusal of a name states it: written once, here. */
export const visibleNameRule = `1 to ${maxNameLength} characters, one or more of them visible, and none a control, invisible or bidi character`;

// How a refusal of a name states what was expected (see refusal.ts): the rule, never the value.
const expectName = { params: { expected: { kind: "name" } } };

/** Who acts on a queue item: an operator token's subject, and `--by` of `formletter queue`. Trimmed. */
export const actorName = z
  .string()
  .trim()
  .min(1)
  .max(maxNameLength)
  .refine(isVisibleName, expectName)
  .meta({ description: `Who acts on the queue, as the audit log names them: ${visibleNameRule}.` });

/**
 * The ticket or run a task token is for, shown in the audit log and the relay's log lines. An id is
 * compared as written, so one with spaces around it is refused rather than trimmed into another id.
 */
export const tokenSubject = z
  .string()
  .max(maxNameLength)
  .refine((text) => isVisibleName(text) && text.trim() === text, expectName)
  .meta({ description: `A ticket or run id: ${visibleNameRule}, with no space at either end.` });
