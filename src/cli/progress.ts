import { SingleBar } from "cli-progress";
import type { ReplayProgress } from "../metrics/replay.js";
import type { CliIo } from "./output.js";

/** A progress bar on the terminal, or nothing when output is piped (a log would fill with redraws). */
export interface Progress {
  update(progress: ReplayProgress): void;
  stop(): void;
}

const megabytes = (bytes: number) => (bytes / 1_048_576).toFixed(1);

/** A bar over the file's bytes on `io.progress` when it is a terminal; undefined otherwise. */
export function progressBar(io: CliIo, label: string): Progress | undefined {
  const stream = io.progress;
  if (stream?.isTTY !== true) return undefined;
  const bar = new SingleBar({
    stream,
    format: `${label} |{bar}| {percentage}% · {done}/{size} MB · {lines} lines · {perSecond} lines/s`,
    barsize: 30,
    hideCursor: true,
    clearOnComplete: true,
    fps: 5,
  });
  const started = performance.now();
  let running = false;
  return {
    update({ lines, bytes, totalBytes }) {
      const payload = {
        done: megabytes(Math.min(bytes, totalBytes)),
        size: megabytes(totalBytes),
        lines: lines.toLocaleString("en-US"),
        perSecond: Math.round(lines / Math.max(0.001, (performance.now() - started) / 1000)).toLocaleString(
          "en-US",
        ),
      };
      if (!running) {
        bar.start(Math.max(1, totalBytes), 0, payload);
        running = true;
      }
      bar.update(Math.min(bytes, totalBytes), payload);
    },
    stop() {
      if (running) bar.stop();
      running = false;
    },
  };
}
