/**
 * Everything the benchmark reports about one labelled history, measured in one place so `mine` and the
 * Drain baseline always see the same lines: grouping accuracy and speed of both, template recovery and
 * the predicted escalation rate beside the truth.
 */
import type { DrainOptions } from "./drain.js";
import { drainParser } from "./drain-parser.js";
import { groupingAccuracy } from "./grouping-accuracy.js";
import type { LabelledHistory } from "./message-corpora.js";
import { minedGroups } from "./mined-groups.js";
import { type RateOutcome, rateOutcome } from "./rate-coverage.js";
import { type TemplateRecovery, templateRecovery } from "./template-recovery.js";

/** One generic configuration for every corpus: no masks, Drain's usual depth and threshold. */
export const drainOptions: DrainOptions = { depth: 4, similarity: 0.4, maxChildren: 100, masks: [] };
const drainBaseline = drainParser(drainOptions);

export interface ParserScore {
  readonly accuracy: number;
  readonly linesPerSecond: number;
}

export interface CorpusScores {
  readonly name: string;
  readonly lines: number;
  readonly mine: ParserScore;
  readonly drain: ParserScore;
  readonly candidates: number;
  readonly templatable: number;
  readonly recovery: readonly TemplateRecovery[];
  readonly rate: RateOutcome;
}

/** The fastest of repeated runs of `work` over about `budget` milliseconds, in seconds. */
function fastestSeconds(work: () => unknown, budget: number): number {
  let best = Number.POSITIVE_INFINITY;
  const until = performance.now() + budget;
  do {
    const start = performance.now();
    work();
    best = Math.min(best, performance.now() - start);
  } while (performance.now() < until);
  return Math.max(best, 1e-3) / 1000;
}

/** Scores `history`: its lines are held in memory, so give it thousands of lines, not millions. */
export async function scoreHistory(history: LabelledHistory): Promise<CorpusScores> {
  const messages = [...history.messages()];
  // A free-form message fits no template, so each is a group of its own in the truth.
  const truth = messages.map((message, line) => message.template ?? `free-form ${line}`);
  const mined = await minedGroups(
    history.records,
    messages.map((message) => message.json),
  );
  const texts = messages.map((message) => message.text);
  const drainGroups = drainBaseline.parse(texts);
  // Drain parses 2,000 lines in milliseconds: its fastest of repeated runs, as on Loghub.
  const drainSeconds = fastestSeconds(() => drainBaseline.parse(texts), 250);
  const escalating = messages.filter((message) => message.escalates).length;
  return {
    name: history.name,
    lines: messages.length,
    mine: {
      accuracy: groupingAccuracy(mined.groups, truth),
      linesPerSecond: messages.length / mined.seconds,
    },
    drain: { accuracy: groupingAccuracy(drainGroups, truth), linesPerSecond: messages.length / drainSeconds },
    candidates: mined.report.candidates.length,
    templatable: mined.report.candidates.filter((candidate) => candidate.templatable).length,
    recovery: templateRecovery(
      mined.groups,
      messages.map((message) => message.template),
    ),
    rate: rateOutcome(mined.report, escalating, messages.length),
  };
}

/** The predicted rate beside the truth, without the scores the rate does not need. */
export async function rateOfHistory(history: LabelledHistory): Promise<RateOutcome> {
  const messages = [...history.messages()];
  const mined = await minedGroups(
    history.records,
    messages.map((message) => message.json),
  );
  return rateOutcome(mined.report, messages.filter((message) => message.escalates).length, messages.length);
}
