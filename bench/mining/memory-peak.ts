/**
 * The resident memory a pass adds at its peak. Mining awaits each line without giving timers a turn, so
 * a sampling timer would never fire while it runs: the line source samples (see {@link MemoryPeak.sample}),
 * and the process's own high-water mark is taken too when the pass raised it (the merge after the last
 * line is covered that way).
 */
import v8 from "node:v8";
import { runInNewContext } from "node:vm";

// Node hides `gc` without --expose-gc; the flag can still be set at run time and `gc` read from a new context.
v8.setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

export class MemoryPeak {
  private readonly baseline: number;
  private readonly highWaterBefore: number;
  private peak: number;

  /** Starts after a full collection, so the memory a pass adds is not the garbage of the one before. */
  constructor() {
    collectGarbage();
    this.baseline = process.memoryUsage.rss();
    this.highWaterBefore = process.resourceUsage().maxRSS * 1024;
    this.peak = this.baseline;
  }

  sample(): void {
    this.peak = Math.max(this.peak, process.memoryUsage.rss());
  }

  /** The peak over the baseline, in MB, once the pass is over. */
  megabytesAdded(): number {
    this.sample();
    const highWaterAfter = process.resourceUsage().maxRSS * 1024;
    // The high-water mark is the process's whole life: it says something about this pass only if it rose.
    if (highWaterAfter > this.highWaterBefore) this.peak = Math.max(this.peak, highWaterAfter);
    return (this.peak - this.baseline) / 1e6;
  }
}
