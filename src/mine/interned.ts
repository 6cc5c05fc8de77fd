/**
 * One string for each distinct token, shared by every sequence and count that holds it: a history's
 * clusters keep their members' tokens, and most tokens are a few thousand words written again and again.
 * Bounded: past {@link maxTokens} distinct tokens, new ones are kept as they are (a flood of one-off
 * words costs what it did before, no more).
 */
const pool = new Map<string, string>();
const maxTokens = 1 << 20;

/** The tokens with each replaced by the pooled string of the same text (the array itself is changed). */
export function interned(tokens: string[]): string[] {
  for (let at = 0; at < tokens.length; at++) {
    const token = tokens[at] as string;
    const known = pool.get(token);
    if (known !== undefined) tokens[at] = known;
    else if (pool.size < maxTokens) pool.set(token, token);
  }
  return tokens;
}
