import type { CollectionSchemas, RecordsDefinition } from "../core/definition/define-records.js";
import { type Interval, wilsonInterval } from "../metrics/wilson.js";
import { boilerplateWords } from "./boilerplate.js";
import { type CandidateOptions, type CandidateTemplate, candidateOf } from "./candidate.js";
import { type ClusterOptions, type ClusterState, Clusters } from "./clusters.js";
import { MergeHelper } from "./few-placer.js";
import { readFirst } from "./first-lines.js";
import { parseSentMessage } from "./history-line.js";
import { ticketLocales, type ValueIndexOptions } from "./mask.js";
import { fewForHelper, mergeClusters } from "./merge-clusters.js";
import { readInOrder } from "./read-in-order.js";
import type { LineProblem } from "./read-line.js";
import { languageOf } from "./record-locales.js";
import { RecordProfile, type RecordProfileSummary } from "./record-profile.js";
import { localesWritten } from "./written-locales.js";

/** Options of {@link mineHistory}. */
export interface MineOptions extends ClusterOptions, CandidateOptions, Pick<ValueIndexOptions, "locales"> {
  /** The zone dates are rendered in when looking for them in the text. @default "UTC" */
  readonly timeZone?: string;
  /** Most catalog sizes on the coverage curve. @default 20 */
  readonly maxTemplates?: number;
  /** Most malformed lines listed (all are counted). @default 20 */
  readonly maxProblems?: number;
  /**
   * Called for each message read, with its line number (from 1) and its cluster's `id`; called again
   * for a line whose message moved to another cluster while the history was read (the last call holds).
   */
  readonly onMessage?: (line: number, cluster: number) => void;
  /**
   * Worker threads reading lines (parsing and masking them) while this thread clusters them, in order:
   * the report is the same with any number. 0 reads every line on this thread. By default a history is
   * read here until it proves long (1,024 lines), then also on one worker per core but the one
   * clustering, once the worker has warmed up on those lines.
   * Unless 0, a long history's merge also places part of its one-off messages on one more thread.
   */
  readonly workers?: number;
  /**
   * Also look for dates in the languages the history's first messages write month names in, where the
   * records name none (see {@link languageSample}). @default true
   */
  readonly inferLocales?: boolean;
  /**
   * Fewest messages a cluster needs to be templatable, as a share of the history's messages (besides
   * `minSize`): 0.005 is 5 of 1,000. A few free-form messages that read alike are no template. @default 0.005
   */
  readonly minShare?: number;
}

export type { LineProblem } from "./read-line.js";

/** One point of the coverage curve: a catalog of the `k` biggest templatable clusters. */
export interface CoveragePoint {
  readonly k: number;
  /** Messages such a catalog would have sent: in one of its clusters, to a recipient in the records. */
  readonly covered: number;
  readonly coverage: number;
  /** The predicted escalation rate: every other message goes to a person. */
  readonly escalationRate: number;
  readonly interval: Interval;
  /** Human decisions a day at the history's message rate (undefined without `at` times). */
  readonly humanPerDay: { readonly low: number; readonly high: number } | undefined;
}

/** What {@link mineHistory} found. */
export interface MiningReport {
  readonly messages: number;
  readonly malformed: number;
  /** The first malformed lines, with line numbers from 1. */
  readonly problems: readonly { readonly line: number; readonly problem: string }[];
  /** Messages whose recipient no record of their ticket holds: a template could not have sent them. */
  readonly newRecipients: { readonly count: number; readonly rate: number; readonly interval: Interval };
  /** Where the recipients that were found come from (`seller.email`), most frequent first. */
  readonly recipientSources: readonly { readonly source: string; readonly count: number }[];
  /** Clusters as candidate templates, biggest first. */
  readonly candidates: readonly CandidateTemplate[];
  readonly coverage: readonly CoveragePoint[];
  /** Messages a day over the history's time span; undefined without `at` times. */
  readonly messagesPerDay: number | undefined;
  /** Fields of dates, phones and currencies in the records, and the keys records share: drafts join on them. */
  readonly profile: RecordProfileSummary;
  /**
   * Languages dates were looked for in besides English and those each ticket's records name: `locales`,
   * then those the history's first messages write month names in (see {@link languageSample}).
   */
  readonly locales: readonly string[];
  /**
   * The language the history's first messages are written in, when it is not English: the one their
   * month names name, else the one most of their records name. Drafts write dates in its order.
   */
  readonly language: string | undefined;
}

/** Messages read first for the languages a history writes its dates in. */
export const languageSample = 500;

const day = 86_400_000;

/** What a ticket the record profile does not read is observed as: its records are never parsed again. */
const noRecords = {};

/**
 * Mines a history of free-text messages (JSON lines, see {@link parseSentMessage}; a reader may hand a
 * line it could not read as a {@link LineProblem}) for the templates
 * that would replace them: masks each ticket's record values into placeholders, clusters the skeletons,
 * and predicts the escalation rate of a catalog of the k biggest clusters. Streams: memory grows with
 * clusters, not lines.
 *
 * @example
 * import { historyLines, mineHistory } from "formletter/mine";
 * const report = await mineHistory(records, historyLines("history.jsonl"));
 */
export async function mineHistory<S extends CollectionSchemas>(
  definition: RecordsDefinition<S>,
  lines: AsyncIterable<string | LineProblem> | Iterable<string | LineProblem>,
  options: MineOptions = {},
): Promise<MiningReport> {
  const records = definition as unknown as RecordsDefinition;
  const workers = options.workers;
  if (workers !== undefined && !(Number.isSafeInteger(workers) && workers >= 0))
    throw new RangeError(
      `mineHistory: workers must be a whole number ≥ 0 (0 reads every line on the calling thread), not ${String(workers)}`,
    );
  const minShare = options.minShare;
  if (minShare !== undefined && !(Number.isFinite(minShare) && minShare >= 0 && minShare <= 1))
    throw new RangeError(
      `mineHistory: minShare must be a share from 0 to 1 of the history's messages (0.005 is 5 of 1,000), not ${String(minShare)}`,
    );
  // A message moved to another cluster while reading is told again.
  const clusters = new Clusters(options, (line, cluster) => options.onMessage?.(line, cluster.id));
  const profile = new RecordProfile({ collections: records.names });
  const sources = new Map<string, number>();
  const problems: { line: number; problem: string }[] = [];
  const maxProblems = options.maxProblems ?? 20;
  let messages = 0;
  let malformed = 0;
  let newRecipients = 0;
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  const { first: sample, all } =
    options.inferLocales === false ? { first: [], all: lines } : await readFirst(lines, languageSample);
  const languages = historyLanguages(records, sample);
  const locales = [...new Set([...(options.locales ?? []), ...languages.added])];
  for await (const batch of readInOrder(records, all, { ...options, locales })) {
    for (let at = 0; at < batch.read.length; at++) {
      const read = batch.read[at];
      if (read === undefined) continue;
      const lineNumber = batch.first + at;
      if ("problem" in read) {
        malformed += 1;
        if (problems.length < maxProblems) problems.push({ line: lineNumber, problem: read.problem });
        continue;
      }
      messages += 1;
      // A worker hands a message without its records: they are parsed again only when the profile reads them.
      profile.observe(
        read.records ??
          (profile.readsNext
            ? (parseSentMessage(batch.lines[at] as string) as { readonly records: unknown }).records
            : noRecords),
      );
      if (read.at !== undefined) {
        first = Math.min(first, read.at);
        last = Math.max(last, read.at);
      }
      if (read.source === undefined) newRecipients += 1;
      else sources.set(read.source, (sources.get(read.source) ?? 0) + 1);
      // Compared by what the message says; kept with its greeting, which may name the recipient.
      const cluster = clusters.add(
        read.skeleton,
        read.source === undefined ? undefined : `${read.channel}:${read.source}`,
        {
          identity: read.identity,
          ...(read.subject === undefined ? {} : { subject: read.subject }),
          identifiers: read.identifiers,
          tag: lineNumber,
        },
      );
      options.onMessage?.(lineNumber, cluster.id);
    }
  }

  const read = clusters.finish();
  // The merge places a long history's messages-or-two on two threads, as lines were read on two.
  const helper = workers !== 0 && read.length >= fewForHelper ? MergeHelper.start() : undefined;
  let merged: ClusterState[];
  try {
    merged = mergeClusters(read, options, helper);
  } finally {
    await helper?.close();
  }
  const boilerplate = boilerplateWords(merged, options.minSize ?? 3);
  const candidates = merged
    .map((cluster) =>
      candidateOf(cluster, { ...options, minSize: templateFloor(options, messages) }, boilerplate),
    )
    .sort((a, b) => b.size - a.size || (a.skeleton < b.skeleton ? -1 : 1));
  const span = last - first;
  const messagesPerDay = messages > 1 && span > 0 ? (messages / span) * day : undefined;
  const coverage: CoveragePoint[] = [];
  let covered = 0;
  const templatable = candidates.filter((candidate) => candidate.templatable);
  for (const [at, candidate] of templatable.slice(0, options.maxTemplates ?? 20).entries()) {
    covered += candidate.recipientsResolved;
    const escalated = messages - covered;
    const interval = wilsonInterval(escalated, messages);
    coverage.push({
      k: at + 1,
      covered,
      coverage: messages === 0 ? 0 : covered / messages,
      escalationRate: messages === 0 ? 0 : escalated / messages,
      interval,
      humanPerDay:
        messagesPerDay === undefined
          ? undefined
          : { low: interval.low * messagesPerDay, high: interval.high * messagesPerDay },
    });
  }
  return {
    messages,
    malformed,
    problems,
    newRecipients: {
      count: newRecipients,
      rate: messages === 0 ? 0 : newRecipients / messages,
      interval: wilsonInterval(newRecipients, messages),
    },
    recipientSources: [...sources]
      .map(([source, count]) => ({ source, count }))
      .sort((a, b) => b.count - a.count || (a.source < b.source ? -1 : 1)),
    candidates,
    coverage,
    messagesPerDay,
    profile: profile.summary(),
    locales,
    language: languages.main,
  };
}

/**
 * The languages the messages among `lines` write month names in (see {@link localesWritten}), but for
 * those their records name: where records name languages, each ticket's dates are looked for in its
 * own, and a ticket naming none is taken to be written in English. `main` is the history's language
 * when not English: the first written one, else the one the records of most messages name.
 */
function historyLanguages(
  records: RecordsDefinition,
  lines: readonly (string | LineProblem)[],
): {
  readonly added: string[];
  readonly main: string | undefined;
} {
  const texts: string[] = [];
  const named = new Map<string, number>();
  for (const line of lines) {
    if (typeof line !== "string") continue;
    const message = parseSentMessage(line);
    if ("problem" in message) continue;
    texts.push(message.subject === undefined ? message.text : `${message.subject}\n${message.text}`);
    const languages = new Set(ticketLocales(records, message.records).map(languageOf));
    for (const language of languages) named.set(language, (named.get(language) ?? 0) + 1);
  }
  const written = localesWritten(texts);
  let main: string | undefined = written[0];
  if (main === undefined) {
    const [top] = [...named].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    if (top !== undefined && top[0] !== "en" && top[1] * 2 > texts.length) main = top[0];
  }
  return { added: written.filter((locale) => !named.has(languageOf(locale))), main };
}

/**
 * Fewest messages a templatable cluster holds: `minSize`, and `minShare` of the history's messages. A
 * template is something a business sends regularly; a few messages that happen to read alike are not
 * one, and counting them as covered would understate the escalation rate.
 */
function templateFloor(options: MineOptions, messages: number): number {
  return Math.max(options.minSize ?? 3, Math.ceil((options.minShare ?? defaultMinShare) * messages));
}

const defaultMinShare = 0.005;
