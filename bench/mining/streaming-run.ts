/**
 * Time, CPU time and peak resident memory of one pass over a streamed history. Mining awaits each line
 * without giving timers a turn, so a sampling timer would never fire while it runs: the line source
 * samples memory itself (every `sampleEvery` lines), and the process's own high-water mark is taken too
 * when the pass raised it (the merge pass after the last line is read is covered that way). The time spent
 * building the lines is clocked apart, so a fast pass is not hidden behind a slow generator.
 */
import v8 from "node:v8";
import { runInNewContext } from "node:vm";

export interface StreamingRun {
  readonly lines: number;
  readonly seconds: number;
  /** Of `seconds`, the time spent building the lines the pass read. */
  readonly sourceSeconds: number;
  /** CPU time does not count waiting for a busy machine's other work, so it stays comparable between runs. */
  readonly cpuSeconds: number;
  readonly peakMegabytesAdded: number;
}

const sampleEvery = 1_000;

// A full collection before each pass, so the memory it adds is not the garbage of the one before. Node
// hides `gc` without --expose-gc; the flag can still be set at run time and `gc` read from a new context.
v8.setFlagsFromString("--expose-gc");
const collect = runInNewContext("gc") as () => void;

/**
 * Runs `pass` over `source`, handing it the same items counted and with memory sampled as they are read.
 */
export async function streamingRun<T>(
  source: Iterable<T>,
  pass: (items: Iterable<T>) => Promise<unknown> | unknown,
): Promise<StreamingRun> {
  collect();
  const baseline = process.memoryUsage.rss();
  const highWaterBefore = process.resourceUsage().maxRSS * 1024;
  let peak = baseline;
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
      if (lines % sampleEvery === 0) peak = Math.max(peak, process.memoryUsage.rss());
      yield next.value;
    }
  }
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  await pass(counted());
  const seconds = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  peak = Math.max(peak, process.memoryUsage.rss());
  const highWaterAfter = process.resourceUsage().maxRSS * 1024;
  // The high-water mark is the process's whole life: it says something about this pass only if it rose.
  if (highWaterAfter > highWaterBefore) peak = Math.max(peak, highWaterAfter);
  return {
    lines,
    seconds,
    sourceSeconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    peakMegabytesAdded: (peak - baseline) / 1e6,
  };
}
