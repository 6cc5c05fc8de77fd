/**
 * Grouping accuracy, the measure the log-parsing field reports on Loghub (Zhu et al., "Tools and
 * Benchmarks for Automated Log Parsing", ICSE-SEIP 2019; logparser's evaluator): the share of lines whose
 * predicted group holds exactly the lines of their true group. A group split in two or merged with
 * another counts none of its lines, so the measure rewards finding templates whole, not nearly.
 */

/**
 * The grouping accuracy of `predicted` group labels against `truth`, line by line. Lines whose true
 * label is undefined are left out (of the score and of the predicted groups), as the field's evaluator
 * leaves out lines without a true template. Throws a RangeError when the lengths differ or no line has
 * a true label: both are mistakes of the caller, not results.
 */
export function groupingAccuracy(
  predicted: ArrayLike<string | number>,
  truth: ArrayLike<string | number | undefined>,
): number {
  if (predicted.length !== truth.length)
    throw new RangeError(
      `groupingAccuracy: ${predicted.length} predicted labels for ${truth.length} true labels; give one of each per line`,
    );
  const trueSizes = new Map<string | number, number>();
  // Per predicted group: its size, and its one true label, or null once two true labels meet in it.
  const groups = new Map<string | number, { size: number; label: string | number | null }>();
  let scored = 0;
  for (let line = 0; line < truth.length; line++) {
    const label = truth[line];
    if (label === undefined) continue;
    scored++;
    trueSizes.set(label, (trueSizes.get(label) ?? 0) + 1);
    const key = predicted[line] as string | number;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { size: 1, label });
    else {
      group.size++;
      if (group.label !== label) group.label = null;
    }
  }
  if (scored === 0)
    throw new RangeError("groupingAccuracy: no line has a true label, so there is nothing to score");
  let accurate = 0;
  for (const { size, label } of groups.values())
    if (label !== null && trueSizes.get(label) === size) accurate += size;
  return accurate / scored;
}
