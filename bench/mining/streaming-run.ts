/**
 * Time, CPU time and peak resident memory of one pass over a streamed history. The time spent building
 * the lines is clocked apart, so a fast pass is not hidden behind a slow generator.
 */
import { clocked } from "./clocked.js";
import { MemoryPeak } from "./memory-peak.js";

export interface StreamingRun {
  readonly lines: number;
  readonly seconds: number;
  /** Of `seconds`, the time spent building the lines the pass read. */
  readonly sourceSeconds: number;
  /** CPU time does not count waiting for a busy machine's other work, so it stays comparable between runs. */
  readonly cpuSeconds: number;
  readonly peakMegabytesAdded: number;
}

/** Lines between two samples of memory. */
const sampleEvery = 1_000;

/**
 * Runs `pass` over `source`, handing it the same items counted and with memory sampled as they are read.
 */
export async function streamingRun<T>(
  source: Iterable<T>,
  pass: (items: Iterable<T>) => Promise<unknown> | unknown,
): Promise<StreamingRun> {
  const memory = new MemoryPeak();
  let lines = 0;
  let sourceSeconds = 0;
  function* counted(): Generator<T> {
    const iterator = source[Symbol.iterator]();
    for (;;) {
      const before = performance.now();
      const next = iterator.next();
      sourceSeconds += (performance.now() - before) / 1000;
      if (next.done) return;
      lines++;
      if (lines % sampleEvery === 0) memory.sample();
      yield next.value;
    }
  }
  const clock = await clocked(() => pass(counted()));
  return { lines, ...clock, sourceSeconds, peakMegabytesAdded: memory.megabytesAdded() };
}
