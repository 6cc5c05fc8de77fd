/** Clusters one identity item leads to: past this, the item says too little to look through. */
const maxPostings = 256;
/** Share of a root's identity a cluster must hold for the root to be one of its candidates. */
const minShare = 0.2;

/**
 * The roots of a merge pass (clusters kept so far, by the order they were added), found by the identity
 * items (words and word pairs) they share with a cluster being placed: the bigger clusters it is aligned
 * with. Each item leads to the roots holding it, up to {@link maxPostings} of them.
 */
export class RootIndex {
  private readonly postings = new Map<string, number[]>();
  /** Per root, how many identity items it has. */
  private identitySizes = new Int32Array(256);
  private roots = 0;
  /** Per root, how many items the cluster being placed shares with it; zeroed after each look-up. */
  private counts = new Int32Array(256);
  /** The roots met in a look-up, each once. */
  private met = new Int32Array(256);

  /** Adds a root by its identity items (each once); it is known by the number of roots added before it. */
  add(identity: readonly string[]): void {
    const at = this.roots++;
    if (at >= this.identitySizes.length) {
      this.identitySizes = grown(this.identitySizes);
      this.counts = grown(this.counts);
      this.met = grown(this.met);
    }
    this.identitySizes[at] = identity.length;
    for (const item of identity) {
      const list = this.postings.get(item);
      if (list === undefined) this.postings.set(item, [at]);
      else if (list.length <= maxPostings) list.push(at);
    }
  }

  /**
   * The `most` roots sharing the most identity items with a cluster's (fewer roots first on a tie), of
   * those it shares at least a fifth of their identity with: a bigger cluster sharing less cannot hold
   * half of its line.
   */
  nearest(identity: readonly string[], most: number): number[] {
    const { counts, met, identitySizes } = this;
    let metCount = 0;
    for (const item of identity) {
      const list = this.postings.get(item);
      if (list === undefined || list.length > maxPostings) continue;
      for (let k = 0; k < list.length; k++) {
        const at = list[k] as number;
        if (counts[at] === 0) met[metCount++] = at;
        counts[at] = (counts[at] as number) + 1;
      }
    }
    // The best `most`, by count and then order, kept sorted as the met roots are read.
    const top: number[] = [];
    const topCounts: number[] = [];
    for (let k = 0; k < metCount; k++) {
      const at = met[k] as number;
      const count = counts[at] as number;
      counts[at] = 0;
      if (count < minShare * (identitySizes[at] as number)) continue;
      let place = top.length;
      while (
        place > 0 &&
        ((topCounts[place - 1] as number) < count ||
          ((topCounts[place - 1] as number) === count && (top[place - 1] as number) > at))
      )
        place--;
      if (place >= most) continue;
      top.splice(place, 0, at);
      topCounts.splice(place, 0, count);
      if (top.length > most) {
        top.pop();
        topCounts.pop();
      }
    }
    return top;
  }
}

function grown(array: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}
