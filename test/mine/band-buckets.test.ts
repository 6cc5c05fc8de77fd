import { describe, expect, it } from "vitest";
import { BandBuckets } from "../../src/mine/band-buckets.js";
import { SignatureIndex, signature } from "../../src/mine/minhash.js";

function bucket(buckets: BandBuckets, band: number, key: number): number[] {
  const slot = buckets.find(band, key);
  if (slot < 0) return [];
  return Array.from({ length: buckets.sizeAt(slot) }, (_, place) => buckets.entryAt(slot, place));
}

describe("the buckets of the signature index", () => {
  it("keep each band's keys apart, in the order added, up to their capacity, as they grow", () => {
    const buckets = new BandBuckets(3);
    // Far more keys than the first table holds, so it grows several times while buckets fill.
    for (let entry = 0; entry < 20_000; entry++) buckets.add(0, entry % 5_000, entry);
    for (let entry = 0; entry < 2_000; entry++) buckets.add(31, entry, -entry);
    expect(bucket(buckets, 0, 0)).toEqual([0, 5_000, 10_000]);
    expect(bucket(buckets, 0, 4_008)).toEqual([4_008, 9_008, 14_008]);
    // The same key in another band is another bucket; a key never added has none.
    expect(bucket(buckets, 31, 7)).toEqual([-7]);
    expect(bucket(buckets, 1, 0)).toEqual([]);
    expect(bucket(buckets, 0, 123_456)).toEqual([]);
  });

  it("hold an entry added twice under one key twice, as the index counts shared bands", () => {
    const buckets = new BandBuckets(32);
    buckets.add(4, 77, 1);
    buckets.add(4, 77, 2);
    buckets.add(4, 77, 1);
    expect(bucket(buckets, 4, 77)).toEqual([1, 2, 1]);
  });

  it("keep every bucket's entries in order as buckets outgrow their blocks and others take the blocks left", () => {
    const buckets = new BandBuckets(32);
    // Buckets filled a few entries at a time, in turns, so blocks are given up and taken again between them.
    for (let round = 0; round < 40; round++)
      for (let key = 0; key < 300; key++)
        for (let entry = 0; entry < (key % 3) + 1; entry++)
          buckets.add(key % 32, key, key * 1_000 + round * 3 + entry);
    for (const key of [0, 1, 2, 151, 299]) {
      const added = Array.from({ length: 40 }, (_, round) =>
        Array.from({ length: (key % 3) + 1 }, (_, entry) => key * 1_000 + round * 3 + entry),
      ).flat();
      expect(bucket(buckets, key % 32, key)).toEqual(added.slice(0, 32));
    }
  });
});

describe("the signature index's candidates", () => {
  it("are the ones sharing the most bands when more are met than asked for, else all in the order met", () => {
    const words = (count: number, from = 0) =>
      new Set(Array.from({ length: count }, (_, at) => `word${from + at}`));
    const index = new SignatureIndex<string>();
    const asked = signature(words(40));
    index.add(signature(words(40, 30)), "far");
    index.add(signature(words(40, 4)), "near");
    index.add(asked, "same");
    index.add(signature(words(40, 10)), "nearer than far");
    expect(index.candidates(asked, 2)).toEqual(["same", "near"]);
    expect(index.candidates(asked, 1)).toEqual(["same"]);
    // "far" shares no band; the three others are within a limit of three.
    expect(index.candidates(asked, 3)).toEqual(["near", "same", "nearer than far"]);
    expect(index.candidates(asked)).toEqual(["near", "same", "nearer than far"]);
  });
});

describe("the signature index's nearest candidates", () => {
  it("are those a stable sort by shared bands would rank first, ties in the order first met", () => {
    // A fixed pseudo-random walk: signatures from a small vocabulary, so entries share many bands.
    let seed = 12345;
    const next = (below: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % below;
    };
    const words = () => new Set(Array.from({ length: 3 + next(6) }, () => `w${next(12)}`));
    const index = new SignatureIndex<number>();
    const added: Uint32Array[] = [];
    // Fewer entries than a bucket holds, so every shared band is met.
    for (let entry = 0; entry < 30; entry++) {
      const of = signature(words());
      added.push(of);
      index.add(of, entry);
    }
    for (let asked = 0; asked < 200; asked++) {
      const of = signature(words());
      const limit = 1 + next(8);
      // Bands are two rows; an entry is met first in the first band it shares, in the order added.
      const met: { entry: number; shared: number; first: number }[] = [];
      added.forEach((other, entry) => {
        const bands = Array.from({ length: 32 }, (_, band) => band).filter(
          (band) => other[2 * band] === of[2 * band] && other[2 * band + 1] === of[2 * band + 1],
        );
        if (bands.length > 0) met.push({ entry, shared: bands.length, first: bands[0] as number });
      });
      met.sort((a, b) => a.first - b.first || a.entry - b.entry);
      const expected =
        met.length <= limit ? met : [...met].sort((a, b) => b.shared - a.shared).slice(0, limit);
      expect(index.candidates(of, limit)).toEqual(expected.map(({ entry }) => entry));
    }
  });
});
