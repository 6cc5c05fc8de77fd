/**
 * One string for each distinct token, shared by every sequence and count that holds it: a history's
 * clusters keep their members' tokens, and most tokens are a few thousand words written again and again.
 * Each pooled token has a number (its id: 0, 1, 2… in the order pooled), so reading messages into
 * clusters can mark and count tokens in typed arrays rather than hash their text again and again.
 * Bounded: past {@link maxTokens} distinct tokens, new ones are kept as they are, with no id (a flood of
 * one-off words costs what it did before, no more).
 */
const pool = new Map<string, number>();
const pooled: string[] = [];
const maxTokens = 1 << 20;

/** The tokens with each replaced by the pooled string of the same text (the array itself is changed). */
export function interned(tokens: string[]): string[] {
  for (let at = 0; at < tokens.length; at++) {
    const token = tokens[at] as string;
    const id = pool.get(token);
    if (id !== undefined) tokens[at] = pooled[id] as string;
    else if (pooled.length < maxTokens) {
      pool.set(token, pooled.length);
      pooled.push(token);
    }
  }
  return tokens;
}

/**
 * The id of a pooled token, -1 for one not pooled. A token's text is pooled once and for good, so two
 * tokens of one text have one id, and a token with no id is like no token with one.
 */
export function tokenId(token: string): number {
  return pool.get(token) ?? -1;
}

/**
 * One string for each pair of neighbouring tokens ("a b"), found by its two tokens' ids: a message's
 * pairs are looked up in clusters' counts, which hold the same strings, rather than written anew. Each
 * pooled pair has an id too. Bounded as the tokens are. The pairs are kept in an open-addressing table
 * of typed arrays keyed by the two ids (found with no string hashed), their strings by pair id.
 */
const pairTexts: string[] = [];
const maxPairs = 1 << 18;
/** Per slot: the first token's id plus one (0 for a free slot), the second's id, the pair's id. */
let slotFirst = new Int32Array(1 << 12);
let slotSecond = new Int32Array(1 << 12);
let slotPair = new Int32Array(1 << 12);

/**
 * The id of the pair of two pooled tokens (by id), pooled if new; -1 when either has no id or the pool
 * is full and holds no such pair (then it never will: a pair with no id is like no pair with one).
 */
export function pairId(first: number, second: number): number {
  if (first < 0 || second < 0) return -1;
  let slot = pairSlot(first, second);
  if (slotFirst[slot] !== 0) return slotPair[slot] as number;
  if (pairTexts.length >= maxPairs) return -1;
  if ((pairTexts.length + 1) * 2 > slotFirst.length) {
    growPairSlots();
    slot = pairSlot(first, second);
  }
  const id = pairTexts.length;
  pairTexts.push(`${pooled[first] as string} ${pooled[second] as string}`);
  slotFirst[slot] = first + 1;
  slotSecond[slot] = second;
  slotPair[slot] = id;
  return id;
}

/** The string of a pooled pair, by its id. */
export function pairText(id: number): string {
  return pairTexts[id] as string;
}

/** The pair of two tokens as one string, pooled. */
export function pairOf(first: string, second: string): string {
  const id = pairId(tokenId(first), tokenId(second));
  return id < 0 ? `${first} ${second}` : (pairTexts[id] as string);
}

/** The slot holding the pair of two token ids, or the free slot where it would go (linear probing). */
function pairSlot(first: number, second: number): number {
  const mask = slotFirst.length - 1;
  let slot = (Math.imul(first ^ Math.imul(second + 1, 0x9e3779b1), 0x85ebca6b) >>> 7) & mask;
  for (;;) {
    const held = slotFirst[slot] as number;
    if (held === 0 || (held === first + 1 && slotSecond[slot] === second)) return slot;
    slot = (slot + 1) & mask;
  }
}

function growPairSlots(): void {
  const [firsts, seconds, pairs] = [slotFirst, slotSecond, slotPair];
  slotFirst = new Int32Array(firsts.length * 2);
  slotSecond = new Int32Array(firsts.length * 2);
  slotPair = new Int32Array(firsts.length * 2);
  for (let old = 0; old < firsts.length; old++) {
    const first = firsts[old] as number;
    if (first === 0) continue;
    const slot = pairSlot(first - 1, seconds[old] as number);
    slotFirst[slot] = first;
    slotSecond[slot] = seconds[old] as number;
    slotPair[slot] = pairs[old] as number;
  }
}
