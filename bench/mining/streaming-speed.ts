/**
 * Speed and memory of `mine` on a history too big to hold, beside the Drain baseline on the same lines:
 * both read the lines straight from the generator, so the memory a pass adds is what the miner keeps
 * (clusters), never the history itself, and times are given net of building the lines. `mine` also reads
 * the same lines from a file, as a company's export is mined: the time a user waits, with nothing taken
 * off (see `fileRun` for why the streamed time flatters it). Memory is measured on the streamed pass,
 * which runs first: the same mining, holding the same clusters.
 */
import { mineHistory } from "formletter/mine";
import { figure, report } from "../measure.js";
import { drainOptions } from "./corpus-scores.js";
import { Drain } from "./drain.js";
import { type FileRun, fileRun } from "./file-run.js";
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
  const fromFile = await fileRun(jsonOf(history.messages()), (lines) => mineHistory(history.records, lines));
  const drain = await streamingRun(history.messages(), (items) => {
    const parser = new Drain(drainOptions);
    for (const item of items) parser.add(item.text);
  });
  const row = printTable(
    `${figure(messages)} messages of ${history.name}, streamed from the generator (time net of generating the lines, CPU time with them) and read from a file`,
    ["pass", "time", "generating", "CPU time", "peak RSS added", "lines/s"],
    [16, 9, 10, 9, 14, 10],
  );
  const net = (run: StreamingRun) => Math.max(run.seconds - run.sourceSeconds, 1e-3);
  // Time, time generating, CPU time, peak memory added, lines a second.
  const cells = (run: StreamingRun | FileRun, seconds: number, generating: string) => [
    `${seconds.toFixed(1)} s`,
    generating,
    `${run.cpuSeconds.toFixed(1)} s`,
    "peakMegabytesAdded" in run ? `${figure(run.peakMegabytesAdded)} MB` : "as streamed",
    figure(run.lines / seconds),
  ];
  row(["mine, streamed", ...cells(mine, net(mine), `${mine.sourceSeconds.toFixed(1)} s`)]);
  row(["mine, from a file", ...cells(fromFile, fromFile.seconds, "—")]);
  row(["Drain, streamed", ...cells(drain, net(drain), `${drain.sourceSeconds.toFixed(1)} s`)]);
  const bound = goal.megabytes ?? Number.POSITIVE_INFINITY;
  const goalText = `≤ ${goal.seconds} s${goal.megabytes === undefined ? ", memory bounded" : ` and ≤ ${goal.megabytes} MB`}`;
  const verdict = (seconds: number, megabytes: number) =>
    seconds <= goal.seconds && megabytes <= bound ? "met" : "missed";
  report(`goal: mine streamed ${goalText}`, verdict(net(mine), mine.peakMegabytesAdded));
  report(`goal: mine from a file ${goalText}`, verdict(fromFile.seconds, mine.peakMegabytesAdded));
}
