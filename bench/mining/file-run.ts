/**
 * Time and CPU time of one pass over a history read from a file, as a company's export is mined. The
 * lines are written to a temporary file first (not timed) and the pass reads them back with
 * `historyLines`, as `formletter mine` does: nothing else runs beside it, and no time is subtracted. A streamed pass (see `streamingRun`)
 * builds its lines on the calling thread; while every core is busy, taking that time off the clock
 * credits the pass with the whole of it, though the building slowed the pass by about half of it.
 * Memory is not measured here: a pass run after another in one process reuses the pages the first one's
 * heap left mapped, so its resident memory hardly rises (measure the pass first, or streamed).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { historyLines } from "formletter/mine";
import { clocked } from "./clocked.js";

export interface FileRun {
  readonly lines: number;
  readonly seconds: number;
  readonly cpuSeconds: number;
}

/** Lines written to the file at a time: a million of them joined would be one string of about 2 GB. */
const writeEvery = 10_000;

/** Writes `lines` to a temporary file and runs `pass` over the lines read back from it, one at a time. */
export async function fileRun(
  lines: Iterable<string>,
  pass: (lines: AsyncIterable<string | { readonly problem: string }>) => Promise<unknown>,
): Promise<FileRun> {
  const folder = mkdtempSync(join(tmpdir(), "formletter-mine-"));
  const path = join(folder, "history.jsonl");
  try {
    writeFileSync(path, "");
    let part: string[] = [];
    for (const line of lines) {
      part.push(line);
      if (part.length < writeEvery) continue;
      writeFileSync(path, `${part.join("\n")}\n`, { flag: "a" });
      part = [];
    }
    if (part.length > 0) writeFileSync(path, `${part.join("\n")}\n`, { flag: "a" });
    part = [];
    let count = 0;
    async function* counted(): AsyncGenerator<string | { readonly problem: string }> {
      for await (const line of historyLines(path)) {
        count++;
        yield line;
      }
    }
    const clock = await clocked(() => pass(counted()));
    return { lines: count, ...clock };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
