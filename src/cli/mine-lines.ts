import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { ReplayProgress } from "../metrics/replay.js";

/** Options of {@link historyLines}. */
export interface HistoryLinesOptions {
  /** Longest line read, in bytes; a longer one is a problem, skipped without being held. @default 16777216 */
  readonly maxLineBytes?: number;
  /** Called every few thousand lines and once at the end. */
  readonly onProgress?: (progress: ReplayProgress) => void;
}

const newline = 0x0a;
const progressEvery = 1024;
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * The lines of a history file, one at a time, cut from its bytes: a line that is not UTF-8 or is longer
 * than `maxLineBytes` comes as a `problem` (never held whole, never silently repaired), so memory holds
 * one chunk and one line whatever the file.
 */
export async function* historyLines(
  path: string,
  options: HistoryLinesOptions = {},
): AsyncGenerator<string | { readonly problem: string }> {
  const maxLineBytes = options.maxLineBytes ?? 16 * 1_048_576;
  const totalBytes = (await stat(path)).size;
  const tooLong = { problem: `longer than ${maxLineBytes} bytes` };
  let lines = 0;
  let bytes = 0;
  let pieces: Buffer[] = [];
  let pending = 0;
  let overlong = false;
  const input = createReadStream(path);
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      let from = 0;
      for (let end = chunk.indexOf(newline); end !== -1; end = chunk.indexOf(newline, from)) {
        const part = chunk.subarray(from, end);
        from = end + 1;
        lines += 1;
        if (options.onProgress !== undefined && lines % progressEvery === 0)
          options.onProgress({ lines, bytes, totalBytes });
        if (overlong || pending + part.length > maxLineBytes) yield tooLong;
        else yield decode(pending === 0 ? part : Buffer.concat([...pieces, part], pending + part.length));
        pieces = [];
        pending = 0;
        overlong = false;
      }
      const rest = chunk.subarray(from);
      if (overlong || rest.length === 0) continue;
      if (pending + rest.length > maxLineBytes) {
        overlong = true;
        pieces = [];
        pending = 0;
      } else {
        // A copy: the stream may reuse its buffer.
        pieces.push(Buffer.from(rest));
        pending += rest.length;
      }
    }
    if (overlong) yield tooLong;
    else if (pending > 0) yield decode(Buffer.concat(pieces, pending));
  } finally {
    input.destroy();
  }
  options.onProgress?.({ lines, bytes: totalBytes, totalBytes });
}

function decode(raw: Buffer): string | { readonly problem: string } {
  const end = raw.length > 0 && raw[raw.length - 1] === 0x0d ? raw.length - 1 : raw.length;
  try {
    return utf8.decode(raw.subarray(0, end));
  } catch {
    return { problem: "not valid UTF-8" };
  }
}
