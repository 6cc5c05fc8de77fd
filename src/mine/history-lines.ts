import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { type CutLine, LineCutter } from "../metrics/line-cutter.js";
import type { ReplayProgress } from "../metrics/replay.js";

/** Options of {@link historyLines}. */
export interface HistoryLinesOptions {
  /** Longest line read, in bytes; a longer one is a problem, skipped without being held. @default 16777216 */
  readonly maxLineBytes?: number;
  /** Called every few thousand lines and once at the end. */
  readonly onProgress?: (progress: ReplayProgress) => void;
}

const progressEvery = 1024;

/**
 * The lines of a history file, one at a time, cut from its bytes: a line that is not UTF-8 or is longer
 * than `maxLineBytes` comes as a `problem` (never held whole, never silently repaired), so memory holds
 * one chunk and one line whatever the file. What `formletter mine` reads a file with; about a third of
 * the CPU time of `node:readline`, which also decodes every line and replaces bad bytes silently.
 *
 * @example
 * import { historyLines, mineHistory } from "formletter/mine";
 * const report = await mineHistory(records, historyLines("history.jsonl"));
 */
export async function* historyLines(
  path: string,
  options: HistoryLinesOptions = {},
): AsyncGenerator<CutLine> {
  const maxLineBytes = options.maxLineBytes ?? 16 * 1_048_576;
  const totalBytes = (await stat(path)).size;
  const cutter = new LineCutter(maxLineBytes);
  const chunkLines: CutLine[] = [];
  const collect = (cut: CutLine) => chunkLines.push(cut);
  let lines = 0;
  let bytes = 0;
  const input = createReadStream(path);
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      cutter.push(chunk, collect);
      for (const cut of chunkLines) {
        lines += 1;
        if (options.onProgress !== undefined && lines % progressEvery === 0)
          options.onProgress({ lines, bytes, totalBytes });
        yield cut;
      }
      chunkLines.length = 0;
    }
    cutter.end(collect);
    for (const cut of chunkLines) {
      lines += 1;
      yield cut;
    }
  } finally {
    input.destroy();
  }
  options.onProgress?.({ lines, bytes: totalBytes, totalBytes });
}
