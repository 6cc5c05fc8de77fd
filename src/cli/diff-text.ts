import type { CatalogComparison } from "../review/compare-catalogs.js";

/** Where the two catalogs came from, as the review names them. */
export interface ReviewSources {
  readonly base: string;
  readonly head: string;
}

/** The review for a terminal: review items first, then what was added, removed and changed. */
export function reviewText(comparison: CatalogComparison, sources: ReviewSources): string {
  const lines = [
    `base ${sources.base} (version ${comparison.base.version}, ${comparison.base.templates} templates)`,
    `head ${sources.head} (version ${comparison.head.version}, ${comparison.head.templates} templates)`,
    "",
  ];
  if (comparison.items.length === 0) lines.push("review items: none");
  else {
    lines.push(`review items: ${comparison.items.length}`);
    for (const item of comparison.items) lines.push(`  ${item.kind}  ${item.template}: ${item.detail}`);
  }
  lines.push("", countsLine(comparison));
  for (const side of comparison.added) lines.push(`  added     ${side.id} (${side.version})`);
  for (const side of comparison.removed) lines.push(`  removed   ${side.id} (${side.version})`);
  for (const change of comparison.changed)
    lines.push(`  changed   ${change.id} (${change.base} → ${change.head}): ${change.parts.join(", ")}`);
  return `${lines.join("\n")}\n`;
}

/** "templates: 1 added, 0 removed, 2 changed, 5 unchanged". */
export function countsLine(comparison: CatalogComparison): string {
  return `templates: ${comparison.added.length} added, ${comparison.removed.length} removed, ${comparison.changed.length} changed, ${comparison.unchanged} unchanged`;
}
