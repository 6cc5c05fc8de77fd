/**
 * Cold start of the built package, as whole processes: `import("formletter")` beside `import("zod")`,
 * every subpath's import, and `formletter --version` and `--help`. Each case is a new `node` process;
 * the cases take turns round after round, so a busy spell of the machine falls on all of them, and each
 * is given as the minimum and the median of its rounds. Then the files each import loads, counted by
 * bench/loaded-files.mjs (a module load hook for ES modules, `require.cache` for CommonJS ones).
 *
 * Runs after `npm run build` (`npm run bench` does), or alone: `npx tsx bench/cold-start.ts`.
 */
import { spawnSync } from "node:child_process";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { subpaths } from "../subpaths.js";
import { report } from "./measure.js";

const root = fileURLToPath(new URL("../", import.meta.url));
const probe = fileURLToPath(new URL("./loaded-files.mjs", import.meta.url));
const cli = "dist/cli/index.js";
const rounds = Number(process.env.COLD_START_ROUNDS ?? 11);

interface Case {
  readonly label: string;
  /** The node arguments that start it, from the repository's root. */
  readonly argv: readonly string[];
  /** The probe's arguments that count its files. */
  readonly probe: readonly string[];
}

// A bare specifier in `node -e` resolves from the working directory: the repository's root, where
// "formletter" is the package itself (its `exports`, pointing into dist/).
const importOf = (specifier: string): Case => ({
  label: `import("${specifier}")`,
  argv: ["--input-type=module", "-e", `await import(${JSON.stringify(specifier)})`],
  probe: [specifier],
});
const command = (argument: string): Case => ({
  label: `formletter ${argument}`,
  argv: [cli, argument],
  probe: ["--run", cli, argument],
});

// Node starting and exiting with nothing to load: the part of every figure no package can change, and a
// gauge of how busy the machine was.
const bare: Case = { label: "node, nothing imported", argv: ["-e", "0"], probe: ["node:os"] };

const cases: readonly Case[] = [
  importOf("zod"),
  ...subpaths.map((subpath) => importOf(subpath.specifier)),
  command("--version"),
  command("--help"),
  bare,
];

/** What a failed process said: its error's line, not the source line Node prints above it. */
const failure = (stderr: string) => {
  const lines = stderr.trim().split("\n");
  return (lines.find((line) => /\b\w*Error\b/.test(line)) ?? lines.at(-1) ?? "").slice(0, 160);
};

// Prints the process's own CPU time (all its threads, from its start) as it exits: on a busy machine
// the wall time mostly measures the wait for a core, the CPU time what the start itself costs.
const cpuAtExit = `data:text/javascript,process.on("exit",()=>{const u=process.cpuUsage();process.stderr.write("\\ncpu-us "+(u.user+u.system)+"\\n")})`;

interface Timing {
  readonly wall: number;
  readonly cpu: number;
}

/** Milliseconds the process took from spawn to exit and of CPU, or why it failed. */
function timeOnce(entry: Case): Timing | string {
  const start = performance.now();
  const child = spawnSync(process.execPath, ["--import", cpuAtExit, ...entry.argv], {
    cwd: root,
    encoding: "utf8",
  });
  const wall = performance.now() - start;
  if (child.status !== 0) return failure(child.stderr);
  const cpu = Number(/cpu-us (\d+)\s*$/.exec(child.stderr)?.[1] ?? Number.NaN) / 1000;
  return { wall, cpu };
}

/** The files the case loads: how many, and how many of them are each package's. */
function filesOf(entry: Case): { total: number; packages: Map<string, number> } | string {
  const child = spawnSync(process.execPath, [probe, ...entry.probe], { cwd: root, encoding: "utf8" });
  if (child.status !== 0) return failure(child.stderr);
  // A program run writes its own output to stdout: the probe's list is then stderr's last line.
  const printed = entry.probe[0] === "--run" ? child.stderr : child.stdout;
  const files = JSON.parse(printed.trim().split("\n").at(-1) ?? "[]") as string[];
  const packages = new Map<string, number>();
  for (const file of files) {
    const name = /[\\/]node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(file)?.[1] ?? "(formletter)";
    packages.set(name, (packages.get(name) ?? 0) + 1);
  }
  return { total: files.length, packages };
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
};

process.stdout.write(
  `\nCold start: whole processes, ${rounds} rounds taking turns (load average ${loadavg()
    .map((load) => load.toFixed(1))
    .join(" ")})\n`,
);
const times = new Map<Case, Timing[]>(cases.map((entry) => [entry, []]));
const failures = new Map<Case, string>();
for (let round = 0; round < rounds; round++) {
  // Each round in another order, so no case always runs right after the same one.
  const order = round % 2 === 0 ? cases : [...cases].reverse();
  for (const entry of order) {
    if (failures.has(entry)) continue;
    const timing = timeOnce(entry);
    if (typeof timing === "string") failures.set(entry, timing);
    else times.get(entry)?.push(timing);
  }
}

const summary = (entry: Case, measure: keyof Timing = "wall") => {
  const values = (times.get(entry) ?? []).map((timing) => timing[measure]);
  return { min: Math.min(...values), median: median(values) };
};
for (const entry of cases) {
  const failed = failures.get(entry);
  if (failed !== undefined) {
    report(entry.label, `fails: ${failed}`);
    continue;
  }
  const { min, median: middle } = summary(entry);
  const cpu = summary(entry, "cpu");
  const files = filesOf(entry);
  const byPackage =
    typeof files === "string"
      ? ""
      : [...files.packages]
          .sort((a, b) => b[1] - a[1])
          .map(([name, count]) => `${name} ${count}`)
          .join(", ");
  const loaded =
    typeof files === "string"
      ? `files not counted: ${files}`
      : `${files.total} files${byPackage === "" ? "" : ` (${byPackage})`}`;
  report(
    entry.label,
    `min ${min.toFixed(0)} ms, median ${middle.toFixed(0)} ms (CPU ${cpu.min.toFixed(0)}, ${cpu.median.toFixed(0)} ms); ${loaded}`,
  );
}

const [zod, formletter] = cases as [Case, Case];
const commands = cases.slice(-3, -1);
const goals = [zod, formletter, ...commands];
if (goals.some((entry) => failures.has(entry)))
  throw new Error("cold start: a case the goals compare failed (above); is dist/ built?");
const ratio = (statistic: "min" | "median", measure: keyof Timing = "wall") =>
  (summary(formletter, measure)[statistic] / summary(zod, measure)[statistic]).toFixed(2);
report(
  'import("formletter") / import("zod")',
  `${ratio("min")} at the minimum, ${ratio("median")} at the median (goal ≤ 1.5); CPU ${ratio("min", "cpu")}, ${ratio("median", "cpu")}`,
);
for (const entry of commands) {
  const { min, median: middle } = summary(entry);
  const bareMedian = summary(bare).median.toFixed(0);
  report(
    `${entry.label}, goal ≤ 300 ms`,
    `min ${min.toFixed(0)} ms, median ${middle.toFixed(0)} ms: ${middle <= 300 ? "met" : "not met"} (node alone: median ${bareMedian} ms; CPU median ${summary(entry, "cpu").median.toFixed(0)} ms)`,
  );
}
