import { hostDotCharacters } from "../core/scan/characters.js";
import { asciiDigits } from "./ascii-digits.js";
import {
  type IdentifierKind,
  identifiersIn,
  replaceIdentifiers,
  shownIdentifier,
} from "./literal-identifiers.js";
import type { ValueIndex } from "./mask.js";

/** An identifier a message held that no record of its ticket holds, as a report may show it. */
export interface IdentifierSeen {
  readonly kind: IdentifierKind;
  /** Defanged and cut (see `shownIdentifier`): never the identifier as the history wrote it. */
  readonly shown: string;
}

/**
 * What stands in a skeleton where an identifier was left out: not a word, so it is never template text,
 * a choice or a gap a choice could take; the drafter drops it.
 */
export const leftOutMark = "\u2327";

/**
 * Takes every identifier masking left in a message's skeleton (an e-mail address, phone or other long
 * number, URL or host, id-shaped token, as the outbound scan finds them) out of it: one a record of the
 * ticket holds, however it was written (other digits, look-alike dots, other dashes, spaced or
 * bracketed at-signs), becomes that field's placeholder; any other is replaced by {@link leftOutMark}
 * (placeholders inside it kept) and returned, shown defanged, for the report. Mined text is untrusted:
 * what the history repeated is not for that reason text every recipient may be sent.
 */
export function resolveIdentifiers(
  skeleton: string,
  index: ValueIndex,
): { readonly skeleton: string; readonly leftOut: readonly IdentifierSeen[] } {
  const found = identifiersIn(skeleton);
  // Most skeletons hold none: nothing is made for them.
  if (found.length === 0) return { skeleton, leftOut: noneLeftOut };
  let held: Map<string, string> | undefined;
  const leftOut: IdentifierSeen[] = [];
  const resolved = replaceIdentifiers(
    skeleton,
    ({ kind, token, tags }) => {
      held ??= heldForms(index);
      const field = tags.length === 0 ? held.get(formOf(kind, token)) : undefined;
      if (field !== undefined) return field;
      leftOut.push({ kind, shown: shownIdentifier(kind, token) });
      // Spaces around, so the words on either side stay apart when the mark is dropped.
      return ` ${leftOutMark}${tags.map((value) => `${value}${leftOutMark}`).join("")} `;
    },
    found,
  );
  return { skeleton: resolved, leftOut };
}

const noneLeftOut: readonly IdentifierSeen[] = Object.freeze([]);

/** Every value of the ticket in its compared forms (see {@link formOf}), to its placeholder. */
function heldForms(index: ValueIndex): Map<string, string> {
  const forms = new Map<string, string>();
  const add = (form: string, value: string) => {
    if (!forms.has(form)) forms.set(form, value);
  };
  for (const [rendering, value] of index.values) {
    add(canonical(rendering, true), value);
    if (!/\p{L}/u.test(rendering)) {
      const digits = digitsOf(rendering);
      if (digits.length >= 7) add(`#${digits}`, value);
    }
  }
  for (const [digits, value] of index.phones) add(`#${digits}`, value);
  return forms;
}

/** How an identifier is compared with record values: a number by its digits, anything else canonical. */
function formOf(kind: IdentifierKind, token: string): string {
  return kind === "phone" ? `#${digitsOf(token)}` : canonical(token, kind === "id");
}

const hostDots = new RegExp(`[${hostDotCharacters}]`, "gu");
const bracketedAt = /[\p{Ps}\p{Pi}]\s*(?:at|@)\s*[\p{Pe}\p{Pf}]/giu;
const bracketedDot = /[\p{Ps}\p{Pi}]\s*(?:dot|\.)\s*[\p{Pe}\p{Pf}]/giu;
const dashes = /[\p{Pd}\u2212]/gu;

/**
 * One spelling of an identifier: compatibility forms folded, lower case, digits of any script as ASCII,
 * written-out at-signs and dots and their look-alikes as "@" and ".", any dash as "-", no spaces. An
 * Arabic-Indic zero is both a digit and a dot a reader takes for one: in an id it is read as a digit
 * (`digitsFirst`), in an address or URL as a dot.
 */
function canonical(text: string, digitsFirst: boolean): string {
  const folded = text.normalize("NFKC").toLowerCase();
  const read = (spelled: string) =>
    spelled
      .replace(bracketedAt, "@")
      .replace(bracketedDot, ".")
      .replace(hostDots, ".")
      .replace(dashes, "-")
      .replace(/\s+/g, "");
  return digitsFirst ? read(asciiDigits(folded)) : asciiDigits(read(folded));
}

/** The digits of a text, of any script, as ASCII digits in order. */
function digitsOf(text: string): string {
  return asciiDigits(text.normalize("NFKC")).replace(/\D+/g, "");
}
