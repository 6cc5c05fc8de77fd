/**
 * A worker thread reading history lines for mining: each batch it is sent comes back read
 * ({@link readLine}), without the tickets' records, which the thread that profiles them reads itself.
 */
import { parentPort, workerData } from "node:worker_threads";
import { type ReadLine, readLine } from "./read-line.js";
import type { ReadAnswer, ReaderMessage, ReaderRequest, ReaderSetup } from "./worker-pool.js";

function run(port: NonNullable<typeof parentPort>, setup: ReaderSetup): void {
  port.on("message", (request: ReaderRequest) => {
    if ("warmUp" in request) {
      warmUp(request.warmUp, setup);
      port.postMessage({ ready: true } satisfies ReaderMessage);
      return;
    }
    let answer: ReadAnswer;
    try {
      const read: ReadLine[] = [];
      for (const line of request.lines)
        read.push(withoutRecords(readLine(setup.definition, line, setup.options)));
      answer = { id: request.id, read };
    } catch (error) {
      answer = { id: request.id, failed: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(answer);
  });
}

/** Reads the lines and throws the readings away: the code that reads batches is compiled before the first. */
function warmUp(lines: readonly string[], setup: ReaderSetup): void {
  for (const line of lines) {
    try {
      readLine(setup.definition, line, setup.options);
    } catch {
      // A line that cannot be read throws again when it is sent in its batch.
    }
  }
}

function withoutRecords(read: ReadLine): ReadLine {
  if (read === undefined || "problem" in read) return read;
  const { records: _, ...message } = read;
  return message;
}

if (parentPort !== null) run(parentPort, workerData as ReaderSetup);
