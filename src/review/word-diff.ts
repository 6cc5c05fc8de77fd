/** One run of a word-level diff: words both sides share, or words only one side has. */
export interface WordRun {
  readonly op: "same" | "removed" | "added";
  readonly text: string;
}

/**
 * Past this many cells (words of the changed middle of one side times the other's) the middle is shown
 * as one removed and one added run rather than aligned: a message is short, and a review must not stall
 * on a pathological pair.
 */
const maxCells = 1_000_000;

/**
 * A word-level diff of two texts: runs whose texts, joined, give `before` (same and removed) and `after`
 * (same and added). Whitespace is kept with the word it follows, so a reflowed line shows as changed.
 * The common start and end are matched first, the rest by a longest common subsequence of words.
 */
export function wordDiff(before: string, after: string): WordRun[] {
  const a = words(before);
  const b = words(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA -= 1;
    endB -= 1;
  }
  const runs: WordRun[] = [];
  const push = (op: WordRun["op"], text: string) => {
    if (text === "") return;
    const last = runs[runs.length - 1];
    if (last !== undefined && last.op === op) runs[runs.length - 1] = { op, text: last.text + text };
    else runs.push({ op, text });
  };
  push("same", a.slice(0, start).join(""));
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  if (midA.length * midB.length > maxCells) {
    push("removed", midA.join(""));
    push("added", midB.join(""));
  } else {
    for (const [op, word] of alignWords(midA, midB)) push(op, word);
  }
  push("same", a.slice(endA).join(""));
  return runs;
}

/** True when the diff has a run that is not shared. */
export function hasChange(runs: readonly WordRun[]): boolean {
  return runs.some((run) => run.op !== "same");
}

/** Words with the whitespace that follows each, and leading whitespace as a word of its own. */
function words(text: string): string[] {
  return text.match(/\s+|\S+\s*/g) ?? [];
}

/** The words of both sides in order, by a longest common subsequence (removed before added). */
function alignWords(a: readonly string[], b: readonly string[]): [WordRun["op"], string][] {
  const width = b.length + 1;
  const lengths = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lengths[i * width + j] =
        a[i] === b[j]
          ? (lengths[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(lengths[(i + 1) * width + j] ?? 0, lengths[i * width + j + 1] ?? 0);
    }
  }
  const out: [WordRun["op"], string][] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push(["same", a[i] as string]);
      i += 1;
      j += 1;
    } else if ((lengths[(i + 1) * width + j] ?? 0) >= (lengths[i * width + j + 1] ?? 0)) {
      out.push(["removed", a[i] as string]);
      i += 1;
    } else {
      out.push(["added", b[j] as string]);
      j += 1;
    }
  }
  for (; i < a.length; i++) out.push(["removed", a[i] as string]);
  for (; j < b.length; j++) out.push(["added", b[j] as string]);
  return out;
}
