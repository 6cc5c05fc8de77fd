/**
 * Template recovery: whether each true template came out as one candidate a reviewer can adopt. Grouping
 * accuracy says how many lines were grouped exactly; this says, per template, how much of it its best
 * cluster holds (recall) and how much of that cluster is it (precision). A template split in two shows as
 * low recall; one merged with another, or with free-form messages, as low precision.
 */

export interface TemplateRecovery {
  readonly template: string;
  readonly lines: number;
  readonly recall: number;
  readonly precision: number;
}

/** The least recall and precision for a template to count as recovered. */
export const recoveredAt = 0.95;

/**
 * Each true template's best cluster (the one holding most of its lines, the smaller of two holding as
 * many), with its recall and precision.
 * `templates` has one entry per line, undefined for a line of no template.
 */
export function templateRecovery(
  groups: ArrayLike<number>,
  templates: readonly (string | undefined)[],
): TemplateRecovery[] {
  if (groups.length !== templates.length)
    throw new RangeError(`templateRecovery: ${groups.length} groups for ${templates.length} lines`);
  const groupSizes = new Map<number, number>();
  const byTemplate = new Map<string, Map<number, number>>();
  for (let line = 0; line < groups.length; line++) {
    const group = groups[line] as number;
    groupSizes.set(group, (groupSizes.get(group) ?? 0) + 1);
    const template = templates[line];
    if (template === undefined) continue;
    let counts = byTemplate.get(template);
    if (counts === undefined) {
      counts = new Map();
      byTemplate.set(template, counts);
    }
    counts.set(group, (counts.get(group) ?? 0) + 1);
  }
  return [...byTemplate]
    .map(([template, counts]) => {
      let lines = 0;
      let best = -1;
      let held = 0;
      for (const [group, count] of counts) {
        lines += count;
        // Of two clusters holding as many of its lines, the purer one is its best.
        const purer = count === held && (groupSizes.get(group) as number) < (groupSizes.get(best) as number);
        if (count > held || purer) [best, held] = [group, count];
      }
      return { template, lines, recall: held / lines, precision: held / (groupSizes.get(best) as number) };
    })
    .sort((a, b) => b.lines - a.lines || (a.template < b.template ? -1 : 1));
}

/** How many templates were recovered, and the weakest recall and precision among all of them. */
export function recoverySummary(recovery: readonly TemplateRecovery[]): {
  recovered: number;
  templates: number;
  worstRecall: number;
  worstPrecision: number;
} {
  return {
    recovered: recovery.filter((entry) => entry.recall >= recoveredAt && entry.precision >= recoveredAt)
      .length,
    templates: recovery.length,
    worstRecall: Math.min(...recovery.map((entry) => entry.recall)),
    worstPrecision: Math.min(...recovery.map((entry) => entry.precision)),
  };
}
