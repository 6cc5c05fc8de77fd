/**
 * `mine` against the log-parsing field's reference, on histories written the way people write: the
 * generated corpora of the tests (four businesses, plain text and mail exports, English and German, 15%
 * free-form, some recipients in no record) and the bundled example. In one run, beside the Drain
 * baseline on the same lines: grouping accuracy and lines a second, template recovery, the predicted
 * escalation rate against the truth (over 40 corpora), and time and memory on 100,000 streamed messages
 * (a million with MINE_BENCH_MILLION=1).
 *
 *   npm run bench                        (every benchmark, building first)
 *   npm run build && npx tsx --tsconfig bench/tsconfig.json bench/mine.ts
 */
import { corpusDomains } from "../test/fixtures/corpora/corpus.js";
import { figure, report } from "./measure.js";
import { type CorpusScores, rateOfHistory, scoreHistory } from "./mining/corpus-scores.js";
import { exampleHistory, rotatedCorpus } from "./mining/message-corpora.js";
import {
  holdsTruth,
  type RateOutcome,
  rateCoverage,
  rateGoalHeld,
  rateGoalPoints,
} from "./mining/rate-coverage.js";
import { printStreamingSpeed } from "./mining/streaming-speed.js";
import { percent, points, printTable } from "./mining/table.js";
import { recoveredAt, recoverySummary } from "./mining/template-recovery.js";

const corpusMessages = 2_000;
const rateCorpora = 40;
// Every domain in both styles; corpus i has seed i + 1, so these are also the first of the 40 rate corpora.
const shown = corpusDomains.length * 2;
const fixed = (value: number) => value.toFixed(3);

process.stdout.write(
  `\nmine — ${shown} generated corpora (${corpusDomains.join(", ")}; plain and mail; English and German) and the bundled example, ${figure(corpusMessages)} messages each\n`,
);

const scores: CorpusScores[] = [];
const accuracyRow = printTable(
  "Grouping accuracy (share of lines grouped exactly as their template) and lines a second; Drain: depth 4, similarity 0.4, no masks",
  ["corpus", "mine", "lines/s", "Drain", "lines/s", "mine − Drain"],
  [18, 7, 9, 7, 9, 12],
);
for (let index = 0; index <= shown; index++) {
  const history =
    index < shown
      ? rotatedCorpus(corpusDomains, index, index + 1, corpusMessages)
      : exampleHistory(9, corpusMessages);
  const score = await scoreHistory(history);
  scores.push(score);
  accuracyRow([
    score.name,
    fixed(score.mine.accuracy),
    figure(score.mine.linesPerSecond),
    fixed(score.drain.accuracy),
    figure(score.drain.linesPerSecond),
    (score.mine.accuracy >= score.drain.accuracy ? "+" : "−") +
      fixed(Math.abs(score.mine.accuracy - score.drain.accuracy)),
  ]);
}
const generated = scores.slice(0, shown);
const mean = (pick: (score: CorpusScores) => number) =>
  generated.reduce((sum, score) => sum + pick(score), 0) / generated.length;
accuracyRow([
  "mean (generated)",
  fixed(mean((s) => s.mine.accuracy)),
  "",
  fixed(mean((s) => s.drain.accuracy)),
]);
report(
  "mine ≥ Drain on every message corpus (goal)",
  scores.every((score) => score.mine.accuracy >= score.drain.accuracy) ? "yes" : "no",
);

const recoveryRow = printTable(
  `Template recovery: each true template's best cluster; recovered = recall and precision ≥ ${recoveredAt}`,
  ["corpus", "templates", "recovered", "worst recall", "worst precision", "clusters", "templatable"],
  [18, 9, 9, 12, 15, 8, 11],
);
for (const score of scores) {
  const summary = recoverySummary(score.recovery);
  recoveryRow([
    score.name,
    String(summary.templates),
    String(summary.recovered),
    summary.worstRecall.toFixed(2),
    summary.worstPrecision.toFixed(2),
    String(score.candidates),
    String(score.templatable),
  ]);
}
const missed = scores.flatMap((score) =>
  score.recovery
    .filter((entry) => entry.recall < recoveredAt || entry.precision < recoveredAt)
    .map((entry) => ({ corpus: score.name, ...entry })),
);
if (missed.length > 0) {
  process.stdout.write("  not recovered:\n");
  for (const entry of missed)
    process.stdout.write(
      `    ${entry.corpus.padEnd(18)} ${entry.template.padEnd(30)} ${String(entry.lines).padStart(5)} lines  recall ${entry.recall.toFixed(2)}  precision ${entry.precision.toFixed(2)}\n`,
    );
}

const rateRow = printTable(
  "Predicted escalation rate of the full catalog (95% interval) beside the true share (free-form + recipient in no record)",
  ["corpus", "predicted", "interval", "true", "points off", "holds"],
  [18, 9, 15, 6, 10, 5],
);
const interval = (outcome: RateOutcome) => `${percent(outcome.low)}–${percent(outcome.high)}`;
for (const { name, rate } of scores)
  rateRow([
    name,
    percent(rate.predicted),
    interval(rate),
    percent(rate.truth),
    points(rate.predicted - rate.truth),
    holdsTruth(rate) ? "yes" : "no",
  ]);

// The rest of the 40 corpora, rotating domains and styles; the first ones were scored above.
const rates = generated.map((score, index) => ({ name: score.name, seed: index + 1, ...score.rate }));
for (let index = shown; index < rateCorpora; index++) {
  const history = rotatedCorpus(corpusDomains, index, index + 1, corpusMessages);
  rates.push({ name: history.name, seed: index + 1, ...(await rateOfHistory(history)) });
}
const coverage = rateCoverage(rates);
const coverageRow = printTable(
  `Over ${rateCorpora} generated corpora (seeds 1–${rateCorpora}, domains and styles in turn, ${figure(corpusMessages)} messages each)`,
  ["measure", "figure", "goal"],
  [40, 12, 12],
);
coverageRow([
  "interval holds the true share",
  `${coverage.held} / ${coverage.corpora}`,
  `≥ ${Math.ceil(rateGoalHeld * coverage.corpora)}`,
]);
coverageRow(["largest |predicted − true|, points", (coverage.worst * 100).toFixed(1), `≤ ${rateGoalPoints}`]);
coverageRow(["mean |predicted − true|, points", (coverage.mean * 100).toFixed(1), ""]);
for (const rate of rates.filter(
  (rate) => !holdsTruth(rate) || Math.abs(rate.predicted - rate.truth) * 100 > rateGoalPoints,
))
  process.stdout.write(
    `  off goal: ${rate.name} (seed ${rate.seed}): predicted ${percent(rate.predicted)} (${interval(rate)}), true ${percent(rate.truth)}\n`,
  );

// The mail export of the last domain: the hardest style, read straight from the generator.
const speedHistory = (messages: number) => rotatedCorpus(corpusDomains, shown - 1, 9, messages);
await printStreamingSpeed(speedHistory(100_000), 100_000, { seconds: 15, megabytes: 300 });
if (process.env.MINE_BENCH_MILLION === "1")
  await printStreamingSpeed(speedHistory(1_000_000), 1_000_000, { seconds: 150 });
else
  process.stdout.write(
    "\n  1,000,000 messages (goal ≤ 150 s, memory bounded): skipped; set MINE_BENCH_MILLION=1 to run it\n",
  );
