import { isPlaceholder, numberToken, sentenceEnd } from "./tokens.js";

/** A word in at least this share of members is the line's own. */
const coreShare = 0.8;
/** A word held by at most this share of members, and by as many of the others, varies. */
const varyingShare = 0.25;
/** Shared words between two varying words that make them two places, not one phrase. */
const placesApart = 3;

/**
 * Which members of a young cluster belong to another template, or undefined when all belong together.
 * Two templates may share nearly all their words ("this is a friendly reminder … is due" / "this is a
 * final reminder … was due") and be read into one cluster; a template's own variation may not show
 * that. What tells them apart is that their words alternate together in two places: a word held by some
 * members and another held by the others, and on one side a second word, far from the first, held by
 * the same members. A choice alternates in one place; an optional sentence has no words on the other
 * side; independent variations (a choice and a greeting) are not held by the same members. Members are
 * token sequences (sentence ends in them), at most 31.
 */
export function otherTemplate(members: readonly (readonly string[])[]): boolean[] | undefined {
  const n = members.length;
  if (n < 8 || n > 31) return undefined;
  const all = 2 ** n - 1;
  const held = new Map<string, number>();
  for (const [at, tokens] of members.entries()) {
    for (const token of tokens) {
      if (token === sentenceEnd || token === numberToken || isPlaceholder(token)) continue;
      held.set(token, (held.get(token) ?? 0) | (1 << at));
    }
  }
  const core = new Set<string>();
  const varying: [string, number][] = [];
  for (const [token, mask] of held) {
    const count = bits(mask);
    if (count >= coreShare * n) core.add(token);
    else if (count >= varyingShare * n && n - count >= varyingShare * n) varying.push([token, mask]);
  }
  // Held by "nearly" the same members: a typo or a word left out makes a member or two disagree.
  const slack = Math.max(1, Math.floor(n / 10));
  for (const [word, mask] of varying) {
    // The other side: a word held by (nearly) exactly the members that do not hold this one.
    if (!varying.some(([, other]) => bits((other ^ ~mask) & all) <= slack)) continue;
    const along = varying.filter(([other, otherMask]) => other !== word && bits(otherMask ^ mask) <= slack);
    const twoPlaces = along.some(([other]) =>
      members.some((tokens, at) => (mask & (1 << at)) !== 0 && apart(tokens, word, other, core)),
    );
    if (twoPlaces) return members.map((_, at) => (mask & (1 << at)) !== 0);
  }
  return undefined;
}

/** Whether two words of a member are separated by enough of the line's own words to be two places. */
function apart(tokens: readonly string[], a: string, b: string, core: ReadonlySet<string>): boolean {
  const from = tokens.indexOf(a);
  const to = tokens.indexOf(b);
  if (from === -1 || to === -1) return false;
  let between = 0;
  for (let at = Math.min(from, to) + 1; at < Math.max(from, to); at++)
    if (core.has(tokens[at] as string)) between++;
  return between >= placesApart;
}

function bits(mask: number): number {
  let count = 0;
  for (let rest = mask >>> 0; rest !== 0; rest &= rest - 1) count++;
  return count;
}
