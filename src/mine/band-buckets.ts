/**
 * The buckets of a MinHash index: for each band and key, the entry numbers added under it, in the order
 * added, at most `capacity` of them. Kept in typed arrays (an open-addressing table of buckets, each a
 * chain of entries) rather than a map of arrays: a history of a million messages adds tens of millions
 * of band keys, most of them once, and a map entry with an array of one costs ten times as much memory
 * and is slower to find.
 */
export class BandBuckets {
  /** Per slot: its band plus one (0 for a free slot), its key, its first and last item, its count. */
  private bandOf = new Uint8Array(1 << 12);
  private keyOf = new Int32Array(1 << 12);
  private first = new Int32Array(1 << 12);
  private last = new Int32Array(1 << 12);
  private counts = new Uint8Array(1 << 12);
  private slotsUsed = 0;
  /** Per item (from 1; 0 ends a chain): the entry number it holds and the next item of its bucket. */
  private entryOf: Int32Array = new Int32Array(1 << 12);
  private next: Int32Array = new Int32Array(1 << 12);
  private items = 1;

  constructor(private readonly capacity: number) {}

  /** Adds `entry` under the band's key, unless that bucket already holds `capacity` items. */
  add(band: number, key: number, entry: number): void {
    let slot = this.slotOf(band, key);
    if (this.bandOf[slot] === 0) {
      if ((this.slotsUsed + 1) * 2 > this.bandOf.length) {
        this.growSlots();
        slot = this.slotOf(band, key);
      }
      this.slotsUsed++;
      this.bandOf[slot] = band + 1;
      this.keyOf[slot] = key;
      const item = this.newItem(entry);
      this.first[slot] = item;
      this.last[slot] = item;
      this.counts[slot] = 1;
      return;
    }
    const count = this.counts[slot] as number;
    if (count >= this.capacity) return;
    const item = this.newItem(entry);
    this.next[this.last[slot] as number] = item;
    this.last[slot] = item;
    this.counts[slot] = count + 1;
  }

  /**
   * The first item under the band's key, 0 when there is none; with {@link entryAt} and {@link after},
   * a bucket is read in the order added without making anything.
   */
  firstItem(band: number, key: number): number {
    const slot = this.slotOf(band, key);
    return this.bandOf[slot] === 0 ? 0 : (this.first[slot] as number);
  }

  /** The entry number an item holds. */
  entryAt(item: number): number {
    return this.entryOf[item] as number;
  }

  /** The item after this one in its bucket, 0 after the last. */
  after(item: number): number {
    return this.next[item] as number;
  }

  /** The slot holding the band's key, or the free slot where it would go (linear probing). */
  private slotOf(band: number, key: number): number {
    const mask = this.bandOf.length - 1;
    let slot = (Math.imul(key ^ Math.imul(band + 1, 0x9e3779b1), 0x85ebca6b) >>> 7) & mask;
    for (;;) {
      const held = this.bandOf[slot] as number;
      if (held === 0 || (held === band + 1 && this.keyOf[slot] === key)) return slot;
      slot = (slot + 1) & mask;
    }
  }

  private newItem(entry: number): number {
    if (this.items >= this.entryOf.length) {
      this.entryOf = grown(this.entryOf);
      this.next = grown(this.next);
    }
    const item = this.items++;
    this.entryOf[item] = entry;
    this.next[item] = 0;
    return item;
  }

  private growSlots(): void {
    const [bandOf, keyOf, first, last, counts] = [
      this.bandOf,
      this.keyOf,
      this.first,
      this.last,
      this.counts,
    ];
    const size = bandOf.length * 2;
    this.bandOf = new Uint8Array(size);
    this.keyOf = new Int32Array(size);
    this.first = new Int32Array(size);
    this.last = new Int32Array(size);
    this.counts = new Uint8Array(size);
    for (let old = 0; old < bandOf.length; old++) {
      const band = bandOf[old] as number;
      if (band === 0) continue;
      const slot = this.slotOf(band - 1, keyOf[old] as number);
      this.bandOf[slot] = band;
      this.keyOf[slot] = keyOf[old] as number;
      this.first[slot] = first[old] as number;
      this.last[slot] = last[old] as number;
      this.counts[slot] = counts[old] as number;
    }
  }
}

function grown(array: Int32Array): Int32Array {
  const bigger = new Int32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}
