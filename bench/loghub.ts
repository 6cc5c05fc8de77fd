/**
 * Grouping accuracy and lines per second on Loghub-2k: the Drain baseline with its published settings
 * per system, beside the published figure (it should reproduce within 0.03), and `mine`'s clustering with
 * one generic configuration for all systems, in the same run on the same lines.
 *
 *   npx tsx --tsconfig bench/tsconfig.json bench/loghub.ts <loghub folder>
 *
 * Without a folder it says how to get the files and exits 0, so the suite of benchmarks can include it.
 */

import { figure } from "./measure.js";
import { drainParser } from "./mining/drain-parser.js";
import { groupingAccuracy } from "./mining/grouping-accuracy.js";
import type { LineParser } from "./mining/line-parser.js";
import {
  checkLoghubFolder,
  type LabelledLines,
  LoghubDataError,
  loghubDataHelp,
  loghubSystems,
  readLoghubSystem,
} from "./mining/loghub.js";
import { mineParser } from "./mining/mine-parser.js";

/** Accuracy of one parser on one system's lines, and its best speed over repeated runs. */
function measure(parser: LineParser, lines: LabelledLines): { accuracy: number; linesPerSecond: number } {
  const accuracy = groupingAccuracy(parser.parse(lines.contents), lines.truth);
  // 2,000 lines take milliseconds: repeat for a quarter of a second and keep the fastest run.
  let best = Number.POSITIVE_INFINITY;
  const until = performance.now() + 250;
  do {
    const start = performance.now();
    parser.parse(lines.contents);
    best = Math.min(best, performance.now() - start);
  } while (performance.now() < until);
  return { accuracy, linesPerSecond: (lines.contents.length / Math.max(best, 1e-3)) * 1000 };
}

/** A difference with its sign, rounded first so that no "−0.000" is shown. */
function signed(value: number): string {
  const shown = Math.abs(value).toFixed(3);
  return `${value < 0 && Number(shown) !== 0 ? "−" : "+"}${shown}`;
}
const row = (cells: readonly string[]) =>
  `  ${cells[0]?.padEnd(12)}${cells
    .slice(1)
    .map((cell) => cell.padStart(13))
    .join("")}\n`;

function run(folder: string): number {
  checkLoghubFolder(folder);
  process.stdout.write(
    `\nLoghub-2k grouping accuracy — Drain with its published settings per system, mine with one configuration\n`,
  );
  process.stdout.write(row(["system", "Drain", "published", "difference", "lines/s", "mine", "lines/s"]));
  const sums = { drain: 0, published: 0, mine: 0, systems: 0 };
  const problems: string[] = [];
  for (const system of loghubSystems) {
    let lines: LabelledLines;
    try {
      lines = readLoghubSystem(folder, system);
    } catch (error) {
      if (!(error instanceof LoghubDataError)) throw error;
      problems.push(error.message.split("\n")[0] ?? error.message);
      process.stdout.write(row([system.name, error.missing ? "(missing)" : "(not read)"]));
      continue;
    }
    const drain = measure(drainParser(system), lines);
    const mine = measure(mineParser, lines);
    sums.drain += drain.accuracy;
    sums.published += system.published;
    sums.mine += mine.accuracy;
    sums.systems++;
    process.stdout.write(
      row([
        system.name,
        drain.accuracy.toFixed(3),
        system.published.toFixed(3),
        signed(drain.accuracy - system.published),
        figure(drain.linesPerSecond),
        mine.accuracy.toFixed(3),
        figure(mine.linesPerSecond),
      ]),
    );
  }
  if (sums.systems > 0) {
    const mean = (sum: number) => sum / sums.systems;
    process.stdout.write(
      row([
        sums.systems === loghubSystems.length ? "average" : `average (${sums.systems})`,
        mean(sums.drain).toFixed(3),
        mean(sums.published).toFixed(3),
        signed(mean(sums.drain) - mean(sums.published)),
        "",
        mean(sums.mine).toFixed(3),
      ]),
    );
  }
  if (problems.length === 0) return 0;
  process.stderr.write(`\n${problems.join("\n")}\n${loghubDataHelp}\n`);
  return 1;
}

const folder = process.argv[2];
if (folder === undefined) {
  process.stdout.write(`\nLoghub-2k benchmark skipped: name the folder of the files.\n${loghubDataHelp}\n`);
} else {
  try {
    process.exitCode = run(folder);
  } catch (error) {
    if (!(error instanceof LoghubDataError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 1;
  }
}
