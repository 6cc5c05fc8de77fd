/**
 * The buckets of a MinHash index: for each band and key, the entry numbers added under it, in the order
 * added, at most `capacity` of them. Kept in typed arrays (an open-addressing table of buckets) rather
 * than a map of arrays: a history of a million messages adds tens of millions of band keys, most of them
 * once, and a map entry with an array of one costs ten times as much memory and is slower to find. A
 * bucket of one entry holds it in its slot; a bigger one holds its entries side by side in a block of a
 * shared pool (4, 8, 16… places, moved to a block twice as big when full, the old block used again), so
 * a look-up reads each bucket in one go rather than item by item across memory.
 */
export class BandBuckets {
  /** Per slot: its band plus one (0 for a free slot), its key, its count, its entry or its block. */
  private bandOf = new Uint8Array(1 << 12);
  private keyOf = new Int32Array(1 << 12);
  private counts = new Uint8Array(1 << 12);
  /** The entry itself for a bucket of one, else where its block starts in {@link pool}. */
  private at = new Int32Array(1 << 12);
  private slotsUsed = 0;
  private entries = new Int32Array(1 << 12);
  private poolUsed = 0;
  /** Blocks given up when their bucket moved to a bigger one, by size, to be used again. */
  private readonly freeBlocks = new Map<number, number[]>();

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
      this.at[slot] = entry;
      this.counts[slot] = 1;
      return;
    }
    const count = this.counts[slot] as number;
    if (count >= this.capacity) return;
    const size = blockSize(count);
    if (count === 1 || count === size) {
      // Moved to a bigger block (a bucket of one has none yet), its entries kept in order.
      const block = this.newBlock(blockSize(count + 1));
      if (count === 1) this.entries[block] = this.at[slot] as number;
      else {
        const from = this.at[slot] as number;
        this.entries.copyWithin(block, from, from + count);
        this.freeBlock(from, size);
      }
      this.at[slot] = block;
    }
    this.entries[(this.at[slot] as number) + count] = entry;
    this.counts[slot] = count + 1;
  }

  /** The slot of the band's key's bucket, -1 when there is none: read it with {@link sizeAt} and {@link entryAt}. */
  find(band: number, key: number): number {
    const slot = this.slotOf(band, key);
    return this.bandOf[slot] === 0 ? -1 : slot;
  }

  /** How many entries the bucket at a slot holds. */
  sizeAt(slot: number): number {
    return this.counts[slot] as number;
  }

  /** The entry at a place of the bucket at a slot, in the order added. */
  entryAt(slot: number, place: number): number {
    return this.counts[slot] === 1
      ? (this.at[slot] as number)
      : (this.entries[(this.at[slot] as number) + place] as number);
  }

  /** The entries of all buckets of two or more, each bucket's side by side from its {@link blockAt}. */
  get pool(): Int32Array {
    return this.entries;
  }

  /** Where the entries of the bucket at a slot holding two or more start in {@link pool}. */
  blockAt(slot: number): number {
    return this.at[slot] as number;
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

  private newBlock(size: number): number {
    const free = this.freeBlocks.get(size)?.pop();
    if (free !== undefined) return free;
    if (this.poolUsed + size > this.entries.length) {
      const bigger = new Int32Array(Math.max(this.entries.length * 2, this.poolUsed + size));
      bigger.set(this.entries);
      this.entries = bigger;
    }
    const block = this.poolUsed;
    this.poolUsed += size;
    return block;
  }

  private freeBlock(block: number, size: number): void {
    const free = this.freeBlocks.get(size);
    if (free === undefined) this.freeBlocks.set(size, [block]);
    else free.push(block);
  }

  private growSlots(): void {
    const [bandOf, keyOf, counts, at] = [this.bandOf, this.keyOf, this.counts, this.at];
    const size = bandOf.length * 2;
    this.bandOf = new Uint8Array(size);
    this.keyOf = new Int32Array(size);
    this.counts = new Uint8Array(size);
    this.at = new Int32Array(size);
    for (let old = 0; old < bandOf.length; old++) {
      const band = bandOf[old] as number;
      if (band === 0) continue;
      const slot = this.slotOf(band - 1, keyOf[old] as number);
      this.bandOf[slot] = band;
      this.keyOf[slot] = keyOf[old] as number;
      this.counts[slot] = counts[old] as number;
      this.at[slot] = at[old] as number;
    }
  }
}

/** The places of the block holding a bucket of `count` entries (two or more): 4, 8, 16… */
function blockSize(count: number): number {
  let size = 4;
  while (size < count) size *= 2;
  return size;
}
