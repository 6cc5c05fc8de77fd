import type { CatalogComparison } from "../review/compare-catalogs.js";
import { inline } from "./checklist-format.js";
import { countsLine, type ReviewSources } from "./diff-text.js";

/**
 * The review as markdown for a pull-request comment: review items first, then the counts, then the
 * templates in a folded table. Every text from a definition is escaped: a role or file name cannot
 * add markup to the comment.
 */
export function reviewMarkdown(comparison: CatalogComparison, sources: ReviewSources): string {
  const lines = ["### Template review", ""];
  if (comparison.items.length === 0) lines.push("No review items.");
  else {
    lines.push(`**${comparison.items.length} review item${comparison.items.length === 1 ? "" : "s"}**`, "");
    for (const item of comparison.items)
      lines.push(`- \`${item.kind}\` **${inline(item.template)}**: ${inline(item.detail)}`);
  }
  lines.push("", inline(countsLine(comparison)), "");
  const rows = [
    ...comparison.added.map((side) => `| added | ${inline(side.id)} | | \`${side.version}\` | |`),
    ...comparison.removed.map((side) => `| removed | ${inline(side.id)} | \`${side.version}\` | | |`),
    ...comparison.changed.map(
      (change) =>
        `| changed | ${inline(change.id)} | \`${change.base}\` | \`${change.head}\` | ${change.parts.join(", ")} |`,
    ),
  ];
  if (rows.length > 0) {
    lines.push(
      "<details><summary>Templates</summary>",
      "",
      "| change | template | base | head | parts |",
      "| --- | --- | --- | --- | --- |",
      ...rows,
      "",
      "</details>",
      "",
    );
  }
  lines.push(
    `base ${inline(sources.base)} (\`${comparison.base.version}\`), head ${inline(sources.head)} (\`${comparison.head.version}\`)`,
  );
  return `${lines.join("\n")}\n`;
}
