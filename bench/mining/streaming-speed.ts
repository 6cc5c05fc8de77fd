/**
 * Speed and memory of `mine` on a history too big to hold, beside the Drain baseline on the same lines:
 * both read the lines straight from the generator, so the memory a pass adds is what the miner keeps
 * (clusters), never the history itself. Times are given net of building the lines.
 */
import { mineHistory } from "formletter/mine";
import { figure, report } from "../measure.js";
import { drainOptions } from "./corpus-scores.js";
import { Drain } from "./drain.js";
import type { LabelledHistory } from "./message-corpora.js";
import { type StreamingRun, streamingRun } from "./streaming-run.js";
import { printTable } from "./table.js";

export interface SpeedGoal {
  readonly seconds: number;
  /** Peak resident memory added; undefined where the goal is only that it stays bounded. */
  readonly megabytes?: number;
}

function* jsonOf(items: Iterable<{ readonly json: string }>): Generator<string> {
  for (const item of items) yield item.json;
}

/** Mines `history` and runs Drain over it, each streamed once, and prints a table and the goal's verdict. */
export async function printStreamingSpeed(
  history: LabelledHistory,
  messages: number,
  goal: SpeedGoal,
): Promise<void> {
  const mine = await streamingRun(history.messages(), (items) => mineHistory(history.records, jsonOf(items)));
  const drain = await streamingRun(history.messages(), (items) => {
    const parser = new Drain(drainOptions);
    for (const item of items) parser.add(item.text);
  });
  const row = printTable(
    `${figure(messages)} messages of ${history.name}, streamed from the generator (time net of generating the lines, CPU time with them)`,
    ["pass", "time", "generating", "CPU time", "peak RSS added", "lines/s"],
    [6, 9, 10, 9, 14, 10],
  );
  const net = (run: StreamingRun) => Math.max(run.seconds - run.sourceSeconds, 1e-3);
  for (const [name, run] of [
    ["mine", mine],
    ["Drain", drain],
  ] as const)
    row([
      name,
      `${net(run).toFixed(1)} s`,
      `${run.sourceSeconds.toFixed(1)} s`,
      `${run.cpuSeconds.toFixed(1)} s`,
      `${figure(run.peakMegabytesAdded)} MB`,
      figure(run.lines / net(run)),
    ]);
  const met =
    net(mine) <= goal.seconds && mine.peakMegabytesAdded <= (goal.megabytes ?? Number.POSITIVE_INFINITY);
  report(
    `goal: mine ≤ ${goal.seconds} s${goal.megabytes === undefined ? ", memory bounded" : ` and ≤ ${goal.megabytes} MB`}`,
    met ? "met" : "missed",
  );
}
