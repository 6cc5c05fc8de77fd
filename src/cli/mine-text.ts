import { printableLine } from "../core/message/sanitize.js";
import { percent } from "../metrics/summary.js";
import type { CandidateTemplate } from "../mine/candidate.js";
import type { CatalogDraft } from "../mine/draft.js";
import { kindName } from "../mine/literal-identifiers.js";
import type { CoveragePoint, MiningReport } from "../mine/mine-history.js";
import { table } from "./output.js";

/** Most clusters listed in the text output; the rest are counted. */
const listedClusters = 20;

const interval = (row: { low: number; high: number }) => `${percent(row.low)}–${percent(row.high)}`;
const count = (value: number) => value.toLocaleString("en-US");

/**
 * Human decisions a day as a band, rounded outwards as the escalation report's projection is: one
 * decimal under ten, whole numbers above.
 */
export function perDayBand(band: { low: number; high: number } | undefined): string {
  if (band === undefined) return "-";
  const small = band.high < 10;
  const down = (value: number) => (small ? Math.floor(value * 10) / 10 : Math.floor(value));
  const up = (value: number) => (small ? Math.ceil(value * 10) / 10 : Math.ceil(value));
  const show = (value: number) => (small ? value.toFixed(1) : value.toLocaleString("en-US"));
  return `${show(down(band.low))}–${show(up(band.high))}`;
}

/** The coverage curve's rows, shared by the text and HTML reports. */
export function coverageRows(coverage: readonly CoveragePoint[]): string[][] {
  return coverage.map((point) => [
    String(point.k),
    percent(point.coverage),
    percent(point.escalationRate),
    interval(point.interval),
    perDayBand(point.humanPerDay),
  ]);
}

export const coverageHeaders = ["k", "coverage", "escalation", "95% CI", "human decisions a day"];

/** What the reports say of one identifier left out: "URL or host name hxxps[:]//acme[.]example (40 messages)". */
export interface IdentifierRow {
  readonly kind: string;
  readonly text: string;
  readonly count: number;
  /** Found in the drafted text (`--emit`) rather than in the messages. */
  readonly drafted: boolean;
}

/** The identifiers left out of a cluster, shared by the text and HTML reports: its messages', then its draft's. */
export function identifierRows(
  candidate: CandidateTemplate,
  draft: CatalogDraft | undefined,
): IdentifierRow[] {
  return [
    ...candidate.identifiersLeftOut.map((entry) => ({ ...entry, drafted: false })),
    ...(draft?.identifiersLeftOut ?? [])
      .filter((entry) => entry.cluster === candidate.id)
      .map(({ kind, text, count }) => ({ kind, text, count, drafted: true })),
  ];
}

/** One identifier as the reports write it: already defanged, still to be escaped for its medium. */
export function identifierText(row: IdentifierRow): string {
  const times = row.drafted
    ? `${count(row.count)} time(s) in the drafted text`
    : `${count(row.count)} message(s)`;
  return `${kindName(row.kind)} ${row.text} (${times})`;
}

/** The template `--emit` drafted from a cluster, if any. */
export function templateOf(
  candidate: CandidateTemplate,
  draft: CatalogDraft | undefined,
): string | undefined {
  return draft?.templates.find((template) => template.cluster === candidate.id)?.id;
}

/** Clusters with an identifier left out, for the report's summary line. */
function clustersWithIdentifiers(report: MiningReport, draft: CatalogDraft | undefined): number {
  return report.candidates.filter((candidate) => identifierRows(candidate, draft).length > 0).length;
}

/**
 * The mining report as text: what was read, the new-recipient rate, the coverage curve, then each
 * cluster with its skeleton, slots, choice candidates and residue. Every value from the history is
 * written through `printableLine`, so none can start a line of its own.
 */
export function formatMining(report: MiningReport, title: string, draft?: CatalogDraft): string {
  const lines: string[] = [title, ""];
  lines.push(`messages read: ${count(report.messages)} · malformed lines: ${count(report.malformed)}`);
  for (const problem of report.problems.slice(0, 5)) {
    lines.push(`  line ${problem.line}: ${printableLine(problem.problem)}`);
  }
  if (report.malformed > 5) lines.push(`  and ${count(report.malformed - 5)} more`);
  const fresh = report.newRecipients;
  lines.push(
    `new recipients (no record of the ticket holds the address): ${count(fresh.count)} of ${count(report.messages)} = ${percent(fresh.rate)} (95% CI ${interval(fresh.interval)})`,
  );
  if (report.recipientSources.length > 0) {
    lines.push(
      `recipients found in: ${report.recipientSources.map((row) => `${printableLine(row.source)} ${count(row.count)}`).join(", ")}`,
    );
  }
  lines.push(
    report.messagesPerDay === undefined
      ? "messages a day: unknown (no message has a time)"
      : `messages a day: ${report.messagesPerDay.toFixed(1)}`,
  );
  if (report.language !== undefined)
    lines.push(`written in: ${printableLine(report.language)} (drafts write dates in its order of digits)`);
  if (report.locales.length > 0)
    lines.push(
      `dates also read in: ${report.locales.map(printableLine).join(", ")} (besides English and the languages records name)`,
    );
  const withIdentifiers = clustersWithIdentifiers(report, draft);
  if (withIdentifiers > 0) {
    lines.push(
      `identifiers seen in history, left out (no record holds them; never template text): in ${count(withIdentifiers)} cluster(s), listed under each`,
    );
  }
  lines.push("", "Coverage curve: a catalog of the k biggest templatable clusters");
  if (report.coverage.length === 0) lines.push("  no cluster is big and regular enough to be a template");
  else lines.push(table(coverageHeaders, coverageRows(report.coverage)).trimEnd());
  const templatable = report.candidates.filter((candidate) => candidate.templatable).length;
  const noRecipient = report.candidates.filter(
    (candidate) => candidate.notTemplatable === "recipient-not-in-records",
  ).length;
  lines.push(
    "",
    `Clusters: ${count(report.candidates.length)}, of which ${count(templatable)} templatable (biggest first)${noRecipient === 0 ? "" : `; ${count(noRecipient)} more big enough but sent to recipients no record holds`}`,
  );
  for (const candidate of report.candidates.slice(0, listedClusters))
    lines.push(...clusterLines(candidate, draft));
  if (report.candidates.length > listedClusters) {
    lines.push("", `and ${count(report.candidates.length - listedClusters)} smaller clusters (see --json)`);
  }
  return `${lines.join("\n")}\n`;
}

function clusterLines(candidate: CandidateTemplate, draft: CatalogDraft | undefined): string[] {
  const lines = [
    "",
    `#${candidate.id} · ${count(candidate.size)} messages · ${candidate.templatable ? "templatable" : `not templatable (${notTemplatableText[candidate.notTemplatable ?? "too-few-messages"]})`} · residue ${percent(candidate.residue)} · recipients in records ${count(candidate.recipientsResolved)}${candidate.recipient === undefined ? "" : ` (${printableLine(candidate.recipient.source)})`}`,
    `  skeleton: ${printableLine(clip(candidate.skeleton || candidate.examples[0] || "", 240))}`,
  ];
  if (candidate.slots.length > 0) lines.push(`  slots: ${candidate.slots.map(printableLine).join(", ")}`);
  if (candidate.choiceWords.length > 0) {
    lines.push(
      `  choice candidates: ${candidate.choiceWords.map((choice) => `${printableLine(choice.word)} (${choice.count})`).join(", ")}`,
    );
  }
  const template = templateOf(candidate, draft);
  if (template !== undefined) lines.push(`  drafted as template: ${printableLine(template)}`);
  for (const row of identifierRows(candidate, draft)) {
    lines.push(`  identifier seen in history, left out: ${printableLine(identifierText(row))}`);
  }
  return lines;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Why a cluster is not templatable, as the report says it. */
export const notTemplatableText = {
  "too-few-messages": "too few messages",
  "too-much-residue": "too much free text",
  "recipient-not-in-records": "no recipient in the records",
} as const;
