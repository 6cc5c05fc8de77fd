import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { createInterface } from "node:readline";
import type { Catalog } from "../catalog.js";
import type { Decision } from "../decision.js";
import {
  type AccumulatorOptions,
  createMetricsAccumulator,
  type DecisionObservation,
} from "./accumulator.js";
import { parseHistoryLine } from "./history.js";
import type { EscalationReport, ReportOptions } from "./report.js";

/** How far a replay has got. */
export interface ReplayProgress {
  readonly lines: number;
  /** Bytes read from the file so far (read ahead of the lines decided by up to one chunk). */
  readonly bytes: number;
  readonly totalBytes: number;
}

/** Options of {@link replayHistory}. */
export interface ReplayOptions extends Omit<AccumulatorOptions, "source">, ReportOptions {
  /** Called every few thousand lines and once at the end; a progress bar, say. */
  readonly onProgress?: (progress: ReplayProgress) => void;
  /** Stops reading; the report covers the lines read so far. */
  readonly signal?: AbortSignal;
}

const progressEvery = 4096;

/**
 * Replays a history file — JSON Lines of `{ ticketId, records, output, tags?, at? }` — through
 * `catalog.decide()`: the escalation rate a catalog would have had on those tickets, before shipping it.
 * Reads line by line (constant memory whatever the file's size); nothing is delivered or stored. A line
 * that cannot be read is counted with its line number and skipped. As in the outbox, records whose
 * `ticketId` is not the line's are `records_invalid`.
 *
 * @example
 * import { formatSummary, replayHistory } from "formletter";
 * const report = await replayHistory(catalog, "history.jsonl");
 * process.stdout.write(formatSummary(report));
 */
export async function replayHistory(
  catalog: Pick<Catalog, "decide">,
  path: string,
  options: ReplayOptions = {},
): Promise<EscalationReport> {
  const metrics = createMetricsAccumulator({ ...options, source: "replay" });
  const totalBytes = (await stat(path)).size;
  const input = createReadStream(path, { encoding: "utf8" });
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let line = 0;
  let failure: { error: unknown } | undefined;
  const progress = () => options.onProgress?.({ lines: line, bytes: input.bytesRead, totalBytes });
  const stop = () => lines.close();
  options.signal?.addEventListener("abort", stop, { once: true });
  // Each line is decided synchronously inside the "line" event, so readline hands over the next chunk
  // only when this one is done: memory stays at one chunk, and no promise is made per line.
  lines.on("line", (text) => {
    if (failure !== undefined) return;
    line += 1;
    try {
      if (line % progressEvery === 0) progress();
      if (text.length === 0 || text.trim() === "") return;
      const ticket = parseHistoryLine(text);
      if ("problem" in ticket) {
        metrics.addMalformed(line, ticket.problem);
        return;
      }
      metrics.add(observe(catalog, ticket.ticketId, ticket.records, ticket.output, ticket.at, ticket.tags));
    } catch (error) {
      // Only a catalog that is not createCatalog's (whose decide never throws) can get here.
      failure = { error };
      stop();
    }
  });
  try {
    await new Promise<void>((resolve, reject) => {
      lines.once("close", resolve);
      input.once("error", reject);
    });
  } finally {
    options.signal?.removeEventListener("abort", stop);
    input.destroy();
  }
  if (failure !== undefined) throw failure.error;
  progress();
  return metrics.report(options);
}

/** Decides one ticket as the outbox would, without a store: the records must be this ticket's. */
function observe(
  catalog: Pick<Catalog, "decide">,
  ticketId: string,
  records: unknown,
  output: unknown,
  at: number | undefined,
  tags: Readonly<Record<string, string>> | undefined,
): DecisionObservation {
  const recordsId =
    typeof records === "object" && records !== null
      ? (records as { ticketId?: unknown }).ticketId
      : undefined;
  const decision: Decision =
    recordsId === ticketId
      ? catalog.decide(output, records)
      : { outcome: "escalate", reason: "records_invalid", detail: "records of another ticket", ticketId };
  return {
    at,
    template: decision.template,
    outcome: decision.outcome,
    reason: decision.outcome === "escalate" ? decision.reason : undefined,
    tags,
  };
}
