// White space other than a single space between words: what normalizing changes beyond the case.
const unevenSpace = /[^\S ]| {2}|^ | $/;

/** Lower-case, every run of white space one space, trimmed: how text and values are compared. */
export function normalize(text: string): string {
  const lower = text.toLowerCase();
  return unevenSpace.test(lower) ? lower.replace(/\s+/g, " ").trim() : lower;
}
