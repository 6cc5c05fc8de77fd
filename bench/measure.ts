/** Small helpers shared by the benchmarks: timed loops and aligned figures. */

/** Runs `fn` for about `seconds` after a warm-up and returns operations per second (best of 3 rounds). */
export function opsPerSecond(fn: () => unknown, seconds = 1): number {
  for (let i = 0; i < 20_000; i++) fn();
  let best = 0;
  for (let round = 0; round < 3; round++) {
    let count = 0;
    const start = performance.now();
    const end = start + (seconds * 1000) / 3;
    let now = start;
    while (now < end) {
      for (let i = 0; i < 1_000; i++) fn();
      count += 1_000;
      now = performance.now();
    }
    best = Math.max(best, (count / (now - start)) * 1000);
  }
  return best;
}

/** "1,234,567" */
export function figure(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}

/** Prints one result line: a label padded to a column, then the figure. */
export function report(label: string, value: string): void {
  process.stdout.write(`  ${label.padEnd(52)} ${value}\n`);
}
