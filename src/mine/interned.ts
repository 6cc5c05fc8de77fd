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

/**
 * One string for each pair of neighbouring tokens ("a b"), found by its two pooled tokens: a message's
 * pairs are looked up in clusters' counts, which hold the same strings, rather than written anew.
 * Bounded as the tokens are.
 */
const pairPool = new Map<string, Map<string, string>>();
let pairsPooled = 0;
const maxPairs = 1 << 18;

/** The pair of two tokens as one string, pooled. */
export function pairOf(first: string, second: string): string {
  let after = pairPool.get(first);
  const known = after?.get(second);
  if (known !== undefined) return known;
  const pair = `${first} ${second}`;
  if (pairsPooled >= maxPairs) return pair;
  if (after === undefined) {
    after = new Map();
    pairPool.set(first, after);
  }
  after.set(second, pair);
  pairsPooled++;
  return pair;
}
