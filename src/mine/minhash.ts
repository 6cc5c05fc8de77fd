/**
 * MinHash signatures and their locality-sensitive index: near-duplicate skeletons found in time linear
 * in the number of messages. Two sets' signatures agree at each position with probability equal to their
 * Jaccard similarity; banding them makes similar sets share a bucket with high probability.
 */

import { BandBuckets } from "./band-buckets.js";

/** Positions of a signature; `bands × rows` of the index. */
export const signatureLength = 64;
const bands = 32;
const rows = signatureLength / bands;
/** Most entries one bucket holds; an entry is still found through its other bands. */
const maxBucket = 32;

// Fixed seeds: the same history always gives the same clusters.
const seeds = Uint32Array.from({ length: signatureLength }, (_, i) =>
  mix32(0x9e3779b9 ^ Math.imul(i + 1, 0x85ebca6b)),
);

/**
 * The MinHash signature of a set of strings (an empty set gives a signature of no other set). With
 * `ids`, the items' token ids in the set's order (see `tokenId`; -1 for one with none), an item's hashed
 * values are computed once for its id and read again after.
 */
export function signature(items: ReadonlySet<string>, ids?: readonly number[]): Uint32Array {
  const out = new Uint32Array(signatureLength).fill(0xffffffff);
  let at = 0;
  for (const item of items) {
    const id = ids === undefined ? -1 : (ids[at++] as number);
    if (id >= 0 && id < valuesKept) {
      const values = tokenValues(id, item);
      const from = id * signatureLength;
      for (let i = 0; i < signatureLength; i++) {
        const value = values[from + i] as number;
        if (value < (out[i] as number)) out[i] = value;
      }
      continue;
    }
    const base = fnv1a(item);
    for (let i = 0; i < signatureLength; i++) {
      const value = mix32(base ^ (seeds[i] as number));
      if (value < (out[i] as number)) out[i] = value;
    }
  }
  return out;
}

/**
 * Each token's hashed values (one per position of a signature), by token id, for the first
 * {@link valuesKept} ids: a history writes a few thousand distinct words again and again, and hashing
 * each word 64 times for every message holding it is most of what a signature costs. At most 4 MB.
 */
const valuesKept = 1 << 14;
let keptValues = new Uint32Array(0);
/** Whether an id's values were computed, by id. */
let kept = new Uint8Array(0);

/** The array holding the values of a token (by id, below {@link valuesKept}), from `id × 64`. */
function tokenValues(id: number, token: string): Uint32Array {
  if (id >= kept.length) {
    const size = Math.min(valuesKept, Math.max(1024, kept.length * 2, id + 1));
    const values = new Uint32Array(size * signatureLength);
    values.set(keptValues);
    keptValues = values;
    const known = new Uint8Array(size);
    known.set(kept);
    kept = known;
  }
  if (kept[id] === 0) {
    const base = fnv1a(token);
    for (let i = 0; i < signatureLength; i++)
      keptValues[id * signatureLength + i] = mix32(base ^ (seeds[i] as number));
    kept[id] = 1;
  }
  return keptValues;
}

/** The share of positions where two signatures agree: an estimate of the sets' Jaccard similarity. */
export function similarity(a: Uint32Array, b: Uint32Array): number {
  let same = 0;
  for (let i = 0; i < signatureLength; i++) if (a[i] === b[i]) same++;
  return same / signatureLength;
}

/**
 * Buckets of signatures by band: candidates for a signature are the entries sharing any band with it.
 * Entries are numbered in the order they are first added; a band's two rows are hashed to one small
 * integer key (a collision only adds a candidate, which scoring then judges).
 */
export class SignatureIndex<T> {
  // A full bucket takes no more: messages that share a band with very many clusters (free text from a
  // small vocabulary) would otherwise make each look-up, and the whole run, quadratic.
  private readonly buckets = new BandBuckets(maxBucket);
  private readonly entries: T[] = [];
  private readonly numbers = new Map<T, number>();
  /** Bands shared with the signature being looked up, by entry number; zeroed after each look-up. */
  private shared = new Uint8Array(64);
  /**
   * The entries met in the order first met (as many places as {@link shared}) and the nearest of them,
   * in the look-up under way: reused, not made per look-up.
   */
  private met = new Int32Array(64);
  private readonly top: number[] = [];

  add(of: Uint32Array, entry: T): void {
    let number = this.numbers.get(entry);
    if (number === undefined) {
      number = this.entries.length;
      this.entries.push(entry);
      this.numbers.set(entry, number);
      if (number >= this.shared.length) {
        const grown = new Uint8Array(this.shared.length * 2);
        grown.set(this.shared);
        this.shared = grown;
        this.met = new Int32Array(grown.length);
      }
    }
    for (let band = 0; band < bands; band++) this.buckets.add(band, bandKey(of, band), number);
  }

  /**
   * The entries sharing a band with the signature, those sharing the most bands first (the nearest,
   * since each band agrees with probability the similarity squared; ties in the order first met), at
   * most `limit` of them.
   */
  candidates(of: Uint32Array, limit = Number.POSITIVE_INFINITY): T[] {
    if (limit < 1) return [];
    const shared = this.shared;
    const met = this.met;
    let metCount = 0;
    const buckets = this.buckets;
    for (let band = 0; band < bands; band++) {
      const slot = buckets.find(band, bandKey(of, band));
      if (slot < 0) continue;
      const size = buckets.sizeAt(slot);
      if (size === 1) {
        const number = buckets.entryAt(slot, 0);
        if (shared[number] === 0) met[metCount++] = number;
        shared[number] = (shared[number] as number) + 1;
        continue;
      }
      // A bigger bucket's entries lie side by side: read in one go.
      const pool = buckets.pool;
      const start = buckets.blockAt(slot);
      for (let place = start; place < start + size; place++) {
        const number = pool[place] as number;
        const count = shared[number] as number;
        // Written in any case, kept only when first met (count 0): no branch to mispredict.
        met[metCount] = number;
        metCount += (count - 1) >>> 31;
        shared[number] = count + 1;
      }
    }
    // The `limit` sharing the most, as a stable sort by count would give them (equal counts keep the
    // order they were first met in): chosen by insertion into a short list, with no sort of them all.
    const top = this.top;
    top.length = 0;
    if (metCount <= limit) for (let at = 0; at < metCount; at++) top.push(met[at] as number);
    else
      for (let place = 0; place < metCount; place++) {
        const number = met[place] as number;
        const count = shared[number] as number;
        if (top.length >= limit && count <= (shared[top[top.length - 1] as number] as number)) continue;
        // Moved down past those sharing fewer (the last falls off a full list), as an insertion sort does.
        let at = top.length < limit ? top.length : limit - 1;
        for (; at > 0 && (shared[top[at - 1] as number] as number) < count; at--)
          top[at] = top[at - 1] as number;
        top[at] = number;
      }
    for (let place = 0; place < metCount; place++) shared[met[place] as number] = 0;
    return top.map((number) => this.entries[number] as T);
  }
}

/** A band's rows as one integer small enough for the engine to keep unboxed. */
function bandKey(of: Uint32Array, band: number): number {
  let key = of[band * rows] as number;
  for (let row = 1; row < rows; row++)
    key = mix32(Math.imul(key, 0x9e3779b1) ^ (of[band * rows + row] as number));
  return key >>> 2;
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** murmur3's finaliser: spreads every input bit over the output. */
function mix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
