/**
 * mineHistory over 100,000 generated messages of known templates: time, and the resident memory it
 * adds at its peak (memory must follow clusters, not lines: lines are generated as they are read).
 * Goal: under 60 s and 300 MB on the 2-core reference machine.
 */
import { mineHistory } from "formletter/mine";
import { historyCorpus, historyRecords } from "../examples/data/history-corpus.js";
import { figure, report } from "./measure.js";

const messages = 100_000;
function* lines() {
  for (const { line } of historyCorpus({ messages, seed: 9 })) yield JSON.stringify(line);
}

process.stdout.write(`\nmineHistory() — ${figure(messages)} free-text messages, 8 templates, 4 businesses\n`);
globalThis.gc?.();
const baseline = process.memoryUsage().rss;
let peak = baseline;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 20);
const start = performance.now();
const cpuStart = process.cpuUsage();
const result = await mineHistory(historyRecords, lines());
const seconds = (performance.now() - start) / 1000;
const cpu = process.cpuUsage(cpuStart);
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss);
const templatable = result.candidates.filter((candidate) => candidate.templatable).length;
report("messages a second", figure(messages / seconds));
report("time (goal < 60 s)", `${seconds.toFixed(1)} s`);
// CPU time does not count waiting for a busy machine's other work, so it stays comparable between runs.
report("CPU time", `${((cpu.user + cpu.system) / 1e6).toFixed(1)} s`);
report("resident memory added at peak (goal < 300 MB)", `${figure((peak - baseline) / 1e6)} MB`);
report("clusters found / templatable", `${figure(result.candidates.length)} / ${templatable}`);
report(
  "predicted escalation, full catalog",
  `${((result.coverage.at(-1)?.escalationRate ?? 1) * 100).toFixed(1)}%`,
);
