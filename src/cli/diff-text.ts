import { printableLine } from "../core/message/sanitize.js";
import type { CatalogComparison, ChangedTemplate } from "../review/compare-catalogs.js";
import type { DiffReview } from "../review/diff-review.js";
import {
  capacityLines,
  changeHeading,
  changeParts,
  messageCounts,
  ratesLine,
  runsText,
  translationLines,
} from "./diff-runs.js";

/** Where the two catalogs (and the tickets or history) came from, as the review names them. */
export interface ReviewSources {
  readonly base: string;
  readonly head: string;
  /** The tickets or history file the messages were compared over. */
  readonly over?: string;
}

/** The review for a terminal: review items first, then templates, capacity, messages and rates. */
export function reviewText(review: DiffReview, sources: ReviewSources): string {
  const lines = [
    `base ${sources.base} (version ${review.base.version}, ${review.base.templates} templates)`,
    `head ${sources.head} (version ${review.head.version}, ${review.head.templates} templates)`,
    "",
  ];
  if (review.items.length === 0) lines.push("review items: none");
  else {
    lines.push(`review items: ${review.items.length}`);
    for (const item of review.items) lines.push(`  ${item.kind}  ${item.template}: ${item.detail}`);
  }
  lines.push("", countsLine(review));
  const renamed = renamedIds(review);
  for (const pair of review.renamed)
    lines.push(`  renamed   ${printableLine(pair.from)} → ${printableLine(pair.to)} (${pair.version})`);
  for (const side of review.added)
    if (!renamed.has(side.id)) lines.push(`  added     ${printableLine(side.id)} (${side.version})`);
  for (const side of review.removed)
    if (!renamed.has(side.id)) lines.push(`  removed   ${printableLine(side.id)} (${side.version})`);
  for (const change of review.changed) {
    lines.push(
      `  changed   ${printableLine(change.id)} (${change.base} → ${change.head}): ${change.parts.join(", ")}`,
    );
    for (const line of changeLines(change)) lines.push(`    ${line}`);
  }
  const translations = translationLines(review);
  if (translations.length > 0)
    lines.push(
      "",
      "may be outdated (the default text changed, this locale's did not):",
      ...translations.map((line) => `  ${line}`),
    );
  const capacity = capacityLines(review);
  if (capacity.length > 0) lines.push("", "capacity per message:", ...capacity.map((line) => `  ${line}`));
  const { messages, rates } = review;
  if (messages !== null) {
    lines.push(
      "",
      `messages over the ${messages.source} ${printableLine(sources.over ?? "")}: ${messageCounts(messages)}`,
    );
    if (messages.malformed > 0) lines.push(`  ${messages.malformed} lines skipped: not a ticket`);
    if (messages.notEnumerated > 0)
      lines.push(`  ${messages.notEnumerated} proposals past the limit per template not compared`);
    for (const change of messages.changes) {
      lines.push(`  ${changeHeading(change)}`);
      for (const { part, runs } of changeParts(change))
        lines.push(`    ${part}: ${runsText(runs).replaceAll("\n", "\n      ")}`);
    }
    if (messages.more > 0) lines.push(`  … ${messages.more} more (--max-messages lists more)`);
  }
  if (rates !== null) lines.push("", ratesLine(rates));
  return `${lines.join("\n")}\n`;
}

/** "templates: 1 added, 0 removed, 2 changed, 5 unchanged", and how many of the added were renamed. */
export function countsLine(comparison: CatalogComparison): string {
  const renamed =
    comparison.renamed.length === 0
      ? ""
      : `; ${comparison.renamed.length} renamed (an added and a removed with the same content)`;
  return `templates: ${comparison.added.length} added, ${comparison.removed.length} removed, ${comparison.changed.length} changed, ${comparison.unchanged} unchanged${renamed}`;
}

/** The ids of both sides of every rename. */
export function renamedIds(comparison: CatalogComparison): Set<string> {
  return new Set(comparison.renamed.flatMap((pair) => [pair.from, pair.to]));
}

/** "audience: seller → buyer": each setting of a changed template that differs, one line each. */
export function changeLines(change: ChangedTemplate): string[] {
  return change.changes.map(
    (entry) => `${printableLine(entry.what)}: ${printableLine(entry.base)} → ${printableLine(entry.head)}`,
  );
}
