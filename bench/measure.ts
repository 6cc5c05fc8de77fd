/** Small helpers shared by the benchmarks: timed loops, CPU time and aligned figures. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { Session } from "node:inspector/promises";

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

/**
 * CPU seconds (user + system) used so far by process `root` and each of its children, by process id,
 * read from /proc; undefined where there is no /proc. Take two readings while the processes run and
 * subtract per process (see `cpuBetween`).
 */
export function processTreeCpu(root: number): Map<number, number> | undefined {
  if (!existsSync("/proc")) return undefined;
  // Linux reports times in clock ticks of 1/100 s (USER_HZ) on every common architecture.
  const ticksPerSecond = 100;
  const used = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // Fields after the command name, which may itself hold spaces and parentheses.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(entry) === root || Number(fields[1]) === root)
        used.set(Number(entry), (Number(fields[11]) + Number(fields[12])) / ticksPerSecond);
    } catch {
      // The process ended while it was being read.
    }
  }
  return used;
}

/** CPU seconds used between two readings of `processTreeCpu`, by the processes alive at the second. */
export function cpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let seconds = 0;
  for (const [pid, used] of after) seconds += used - (before.get(pid) ?? 0);
  return seconds;
}

/**
 * Bytes this process has handed to write calls so far (`wchar` in /proc/self/io: every thread, the
 * SQLite checkpointer's included), or undefined where there is no such file. Unlike a time, it does not
 * move with the machine's speed.
 */
export function bytesWritten(): number | undefined {
  try {
    const line = readFileSync("/proc/self/io", "utf8")
      .split("\n")
      .find((entry) => entry.startsWith("wchar:"));
    return line === undefined ? undefined : Number(line.slice("wchar:".length));
  } catch {
    return undefined;
  }
}

/**
 * The bytes the JavaScript heap allocated while `work` ran, estimated by V8's sampling heap profiler (a
 * sample every 4 KB on average, collected objects included). Like the bytes written, it does not move with
 * the machine's speed: a change that makes every call allocate more shows here in one run.
 */
export async function bytesAllocated(work: () => Promise<void>): Promise<number> {
  const session = new Session();
  session.connect();
  try {
    await session.post("HeapProfiler.enable");
    await session.post("HeapProfiler.startSampling", {
      samplingInterval: 4096,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    await work();
    const { profile } = await session.post("HeapProfiler.stopSampling");
    let total = 0;
    const add = (node: typeof profile.head): void => {
      total += node.selfSize;
      for (const child of node.children) add(child);
    };
    add(profile.head);
    return total;
  } finally {
    session.disconnect();
  }
}
