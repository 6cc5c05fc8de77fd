/**
 * MinHash signatures and their locality-sensitive index: near-duplicate skeletons found in time linear
 * in the number of messages. Two sets' signatures agree at each position with probability equal to their
 * Jaccard similarity; banding them makes similar sets share a bucket with high probability.
 */

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

/** The MinHash signature of a set of strings (an empty set gives a signature of no other set). */
export function signature(items: ReadonlySet<string>): Uint32Array {
  const out = new Uint32Array(signatureLength).fill(0xffffffff);
  for (const item of items) {
    const base = fnv1a(item);
    for (let i = 0; i < signatureLength; i++) {
      const value = mix32(base ^ (seeds[i] as number));
      if (value < (out[i] as number)) out[i] = value;
    }
  }
  return out;
}

/** The share of positions where two signatures agree: an estimate of the sets' Jaccard similarity. */
export function similarity(a: Uint32Array, b: Uint32Array): number {
  let same = 0;
  for (let i = 0; i < signatureLength; i++) if (a[i] === b[i]) same++;
  return same / signatureLength;
}

/** Buckets of signatures by band: candidates for a signature are the entries sharing any band with it. */
export class SignatureIndex<T> {
  private readonly buckets = new Map<string, T[]>();

  add(of: Uint32Array, entry: T): void {
    for (const key of bandKeys(of)) {
      const bucket = this.buckets.get(key);
      if (bucket === undefined) this.buckets.set(key, [entry]);
      // A full bucket takes no more: messages that share a band with very many clusters (free text
      // from a small vocabulary) would otherwise make each look-up, and the whole run, quadratic.
      else if (bucket.length < maxBucket) bucket.push(entry);
    }
  }

  /**
   * The entries sharing a band with the signature, those sharing the most bands first (the nearest,
   * since each band agrees with probability the similarity squared), at most `limit` of them.
   */
  candidates(of: Uint32Array, limit = Number.POSITIVE_INFINITY): T[] {
    const found = new Map<T, number>();
    for (const key of bandKeys(of)) {
      for (const entry of this.buckets.get(key) ?? []) found.set(entry, (found.get(entry) ?? 0) + 1);
    }
    const ranked = [...found];
    if (ranked.length > limit) ranked.sort((a, b) => b[1] - a[1]);
    return ranked.slice(0, limit).map(([entry]) => entry);
  }
}

function bandKeys(of: Uint32Array): string[] {
  const keys: string[] = [];
  for (let band = 0; band < bands; band++) {
    let key = `${band}`;
    for (let row = 0; row < rows; row++) key += `:${(of[band * rows + row] as number).toString(36)}`;
    keys.push(key);
  }
  return keys;
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
