import { isPlaceholder } from "./tokens.js";

/** Words and word pairs from which a line is held to the threshold as set: about thirty words. */
const fullLength = 60;
/** A sentence's end: a word, then a full stop, a question or an exclamation mark, then a space or the end. */
const sentenceEnds = /\p{L}[.!?]["')\]]*(?=\s|$)/gu;

/**
 * The share of words and word pairs a message must have in common with a cluster to join it as it is
 * read. Prose — a message written about records (it holds a placeholder) or of two sentences or more —
 * may differ by as much as the threshold allows: a person words it anew each time. A line of one
 * statement holding no placeholder is read as a program writes it, where every word counts: one word in
 * another's place ("VM Paused" / "VM Stopped", "GET" / "POST") changes a third of a five-word line's
 * words and pairs, and is another message. So the share such a line needs rises towards all of it as it
 * gets shorter (what it may miss grows with the square of its length): at ten words or fewer, no
 * word may be another. Lines split so at a word that is a value (a user name, a host) are merged once
 * every line is read (see `variablePlaceGroups`).
 */
export function joinThreshold(
  threshold: number,
  text: string,
  words: ReadonlySet<string>,
  pairs: ReadonlySet<string>,
): number {
  for (const word of words) if (isPlaceholder(word)) return threshold;
  if ((text.match(sentenceEnds) ?? []).length >= 2) return threshold;
  return 1 - (1 - threshold) * Math.min(1, (words.size + pairs.size) / fullLength);
}
