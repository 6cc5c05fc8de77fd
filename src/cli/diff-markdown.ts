import { escapeHtml } from "../core/definition/channels.js";
import { printableLine } from "../core/message/sanitize.js";
import type { DiffReview } from "../review/diff-review.js";
import { inline } from "./checklist-format.js";
import {
  capacityLines,
  changeHeading,
  changeParts,
  messageCounts,
  ratesLine,
  runsHtml,
  translationLines,
} from "./diff-runs.js";
import { changeLines, countsLine, type ReviewSources, renamedIds } from "./diff-text.js";

/**
 * The review as markdown for a pull-request comment: review items first, then the counts (templates,
 * messages, rate, capacity), then the templates and the changed messages folded. Every text from a
 * definition is escaped, and message text (record values) is shown only inside escaped `<pre>` blocks:
 * a role, a file name or a customer's name cannot add markup to the comment.
 */
export function reviewMarkdown(review: DiffReview, sources: ReviewSources): string {
  const lines = ["### Template review", ""];
  if (review.items.length === 0) lines.push("No review items.");
  else {
    lines.push(`**${review.items.length} review item${review.items.length === 1 ? "" : "s"}**`, "");
    for (const item of review.items)
      lines.push(`- \`${item.kind}\` **${inline(item.template)}**: ${inline(item.detail)}`);
  }
  lines.push("", `- ${inline(countsLine(review))}`);
  if (review.messages !== null)
    lines.push(`- messages over the ${review.messages.source}: ${inline(messageCounts(review.messages))}`);
  if (review.rates !== null) lines.push(`- ${inline(ratesLine(review.rates))}`);
  const translations = translationLines(review);
  if (translations.length > 0) lines.push(`- may be outdated: ${translations.map(inline).join("; ")}`);
  const capacity = capacityLines(review);
  if (capacity.length > 0) lines.push(`- capacity per message: ${capacity.map(inline).join("; ")}`);
  lines.push("");
  const renamed = renamedIds(review);
  const rows = [
    ...review.renamed.map(
      (pair) =>
        `| renamed | ${inline(pair.from)} → ${inline(pair.to)} | \`${pair.version}\` | \`${pair.version}\` | | |`,
    ),
    ...review.added
      .filter((side) => !renamed.has(side.id))
      .map((side) => `| added | ${inline(side.id)} | | \`${side.version}\` | | |`),
    ...review.removed
      .filter((side) => !renamed.has(side.id))
      .map((side) => `| removed | ${inline(side.id)} | \`${side.version}\` | | | |`),
    ...review.changed.map(
      (change) =>
        `| changed | ${inline(change.id)} | \`${change.base}\` | \`${change.head}\` | ${change.parts.join(", ")} | ${changeLines(change).map(inline).join("<br>")} |`,
    ),
  ];
  if (rows.length > 0) {
    lines.push(
      "<details><summary>Templates</summary>",
      "",
      "| change | template | base | head | parts | settings |",
      "| --- | --- | --- | --- | --- | --- |",
      ...rows,
      "",
      "</details>",
      "",
    );
  }
  const changes = review.messages?.changes ?? [];
  if (changes.length > 0) {
    const more = review.messages?.more ?? 0;
    lines.push(
      `<details><summary>Changed messages (${changes.length}${more > 0 ? ` of ${changes.length + more}` : ""})</summary>`,
      "",
    );
    for (const change of changes) {
      const parts = changeParts(change).map(({ part, runs }) => `${part}: ${runsHtml(runs)}`);
      // One <pre> a change, its text escaped: inside an HTML block markdown is not read.
      lines.push(`<pre>${escapeHtml(printableLine(changeHeading(change)))}`, ...parts, "</pre>", "");
    }
    lines.push("</details>", "");
  }
  lines.push(
    `base ${inline(sources.base)} (\`${review.base.version}\`), head ${inline(sources.head)} (\`${review.head.version}\`)`,
  );
  return `${lines.join("\n")}\n`;
}
