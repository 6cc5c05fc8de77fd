import { templateError } from "../errors.js";
import { merged } from "../merged.js";
import type { Part } from "./text-parts.js";

/**
 * What a template's own text may write right beside an amount a ceiling counts. A digit, a decimal mark
 * before a digit, a sign, a multiplier letter ("k", "M", 万) or another value written against the amount
 * changes the amount the reader sees ("{{amount}}0", "1{{amount}}", "{{amount}}k") while the ceiling
 * counts the record's. Every way the sections can fall is followed, so a section cannot hide a neighbour.
 */

/** What comes next to a value: a character of the text with the one after it, another value, or nothing. */
type Neighbour =
  | { readonly kind: "text"; readonly character: string; readonly following: string }
  | { readonly kind: "value"; readonly tag: string };

// Letters of scripts written with spaces between words: one glued to a number reads as its unit or
// multiplier ("12k"). CJK, Thai and other scripts without spaces write words against numbers, so only
// their number words are refused.
const spacedLetter = /[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}]/u;
const numberWord = /[十百千万萬亿億兆拾佰仟]/u;
const digitLike = /[\p{N}]/u;
const sign = /[-+\u2212\u2012-\u2015\uFE63\uFF0B\uFF0D]/u;
const invisible = /[\p{Cf}\p{Mn}\p{Me}]/gu;
const decimalMark = /[.,'\u2019\u066B\u066C\u00B7\u02D9\u2024\uFF0C\uFF0E]/u;

/** Why `character` (then `following`) may not touch an amount, or undefined when it may. */
function gluedBy(character: string, following: string, side: "before" | "after"): string | undefined {
  const folded = character.normalize("NFKC");
  if (digitLike.test(folded)) return `the digit "${character}"`;
  if (spacedLetter.test(folded)) return `the letter "${character}"`;
  if (numberWord.test(folded)) return `the number word "${character}"`;
  if (side === "before" && sign.test(folded)) return `the sign "${character}"`;
  if (decimalMark.test(folded) && digitLike.test(following.normalize("NFKC")))
    return `"${side === "after" ? character + following : following + character}", which continues the number`;
  return undefined;
}

/** Each part list with the parts (and text) in reverse, so one walk finds the neighbours on both sides. */
function reversed(parts: readonly Part[]): Part[] {
  return [...parts].reverse().map((part): Part => {
    if (part.type === "text") return { type: "text", text: [...part.text].reverse().join("") };
    if (part.type === "section") return merged(part, { parts: reversed(part.parts) });
    return part;
  });
}

/**
 * The first neighbours of every value of `parts`, in reading order: for each value of `tags`, what the
 * text can show right after it, through every way the sections fall. Memoised per list and index, so
 * nested or repeated sections cost their size, not their combinations.
 */
function neighboursAfter(
  parts: readonly Part[],
  tags: ReadonlySet<string>,
  found: (tag: string, next: Neighbour) => void,
): void {
  const memo = new Map<readonly Part[], Map<number, readonly Neighbour[]>>();
  const next = (list: readonly Part[], index: number, after: () => readonly Neighbour[]) => {
    const byIndex = memo.get(list) ?? new Map<number, readonly Neighbour[]>();
    memo.set(list, byIndex);
    const known = byIndex.get(index);
    if (known !== undefined) return known;
    const out = firstOf(list, index, after);
    byIndex.set(index, out);
    return out;
  };
  const firstOf = (
    list: readonly Part[],
    index: number,
    after: () => readonly Neighbour[],
  ): readonly Neighbour[] => {
    const part = list[index];
    if (part === undefined) return after();
    if (part.type === "value") return [{ kind: "value", tag: part.tag }];
    const rest = () => next(list, index + 1, after);
    if (part.type === "text") {
      // Invisible characters (zero-width spaces, joiners, bidi marks) part nothing a reader sees.
      const [character, following = ""] = [...part.text.replace(invisible, "").slice(0, 4)];
      return character === undefined ? rest() : [{ kind: "text", character, following }];
    }
    // A section is shown or not: either its first part or what follows it comes next.
    return [...next(part.parts, 0, rest), ...rest()];
  };
  const walk = (list: readonly Part[], after: () => readonly Neighbour[]) => {
    list.forEach((part, index) => {
      if (part.type === "section") walk(part.parts, () => next(list, index + 1, after));
      else if (part.type === "value" && tags.has(part.tag))
        for (const neighbour of next(list, index + 1, after)) found(part.tag, neighbour);
    });
  };
  walk(parts, () => []);
}

/**
 * The first problem of `parts` (one text of a template): the counted value's tag and a sentence naming
 * what touches it, or undefined when every amount of `tags` stands apart.
 */
export function amountNeighbourProblem(
  parts: readonly Part[],
  tags: ReadonlySet<string>,
): { readonly tag: string; readonly message: string } | undefined {
  if (tags.size === 0) return undefined;
  let problem: { tag: string; message: string } | undefined;
  for (const side of ["after", "before"] as const) {
    neighboursAfter(side === "after" ? parts : reversed(parts), tags, (tag, neighbour) => {
      if (problem !== undefined) return;
      const why =
        neighbour.kind === "value"
          ? `the value {{${neighbour.tag}}}`
          : gluedBy(neighbour.character, neighbour.following, side);
      if (why !== undefined)
        problem = {
          tag,
          message: `{{${tag}}} is counted by a ceiling, and ${why} is written right ${side} it, so the message would show another amount than the one counted; put a space or a word between them`,
        };
    });
  }
  return problem;
}

/**
 * Throws a `DefinitionError` naming template, slot and fix when any text of a template (subject, body,
 * HTML as a reader sees it) writes something against an amount one of its ceilings counts.
 */
export function checkAmountsApart(
  id: string,
  ceilings: readonly { readonly values: readonly string[] }[],
  texts: readonly (readonly Part[] | undefined)[],
): void {
  const tags = new Set(ceilings.flatMap((ceiling) => ceiling.values));
  for (const parts of texts) {
    const problem = parts === undefined ? undefined : amountNeighbourProblem(parts, tags);
    // A ceiling's value is "<slot>.<field>": the slot is what the error names.
    if (problem !== undefined) templateError(id, problem.message, problem.tag.split(".")[0]);
  }
}
