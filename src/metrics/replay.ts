import { hash } from "node:crypto";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { Catalog } from "../core/decision/catalog.js";
import { type Decision, escalate } from "../core/decision/decision.js";
import {
  type AccumulatorOptions,
  createMetricsAccumulator,
  type DecisionObservation,
} from "./accumulator.js";
import { type HistoryTicket, parseHistoryLine } from "./history.js";
import { type CutLine, LineCutter } from "./line-cutter.js";
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
  /**
   * Longest line read, in bytes; a longer one is counted as malformed and skipped without being held in
   * memory. @default 16777216 (16 MiB)
   */
  readonly maxLineBytes?: number;
}

const progressEvery = 4096;

/**
 * Replays a history file — JSON Lines of `{ ticketId, records, output, tags?, at? }` — through
 * `catalog.decide()`: the escalation rate a catalog would have had on those tickets, before shipping it.
 * Reads line by line (constant memory whatever the file's size); nothing is delivered or stored. A line
 * that cannot be read is counted with its line number and skipped. The line's `ticketId` is the
 * ticket's: records without one get it, as a loader's would; records naming another ticket are
 * `records_invalid`. The report's `byReason[].examples` hold the first escalations of each reason with
 * their line number and detail.
 *
 * @example
 * import { formatSummary, replayHistory } from "formletter/metrics";
 * const report = await replayHistory(catalog, "history.jsonl");
 * process.stdout.write(formatSummary(report));
 */
export async function replayHistory(
  catalog: Pick<Catalog, "decide">,
  path: string,
  options: ReplayOptions = {},
): Promise<EscalationReport> {
  const metrics = createMetricsAccumulator({ ...options, source: "replay" });
  const maxLineBytes = options.maxLineBytes ?? defaultMaxLineBytes;
  if (!Number.isInteger(maxLineBytes) || maxLineBytes < 1)
    throw new RangeError("maxLineBytes must be a whole number ≥ 1");
  const totalBytes = (await stat(path)).size;
  let line = 0;
  let bytes = 0;
  const progress = () => options.onProgress?.({ lines: line, bytes, totalBytes });
  // Destinations sent to so far, as digests (addresses are not kept).
  const destinations = new Set<string>();

  const replayLine = (cut: CutLine) => {
    line += 1;
    if (line % progressEvery === 0) progress();
    if (typeof cut !== "string") {
      metrics.addMalformed(line, cut.problem);
      return;
    }
    if (cut.trim() === "") return;
    const ticket = parseHistoryLine(cut);
    if ("problem" in ticket) {
      metrics.addMalformed(line, ticket.problem);
      return;
    }
    // Only a catalog that is not createCatalog's (whose decide never throws) can throw here: the
    // replay stops with its error.
    const observed = observe(catalog, line, ticket);
    metrics.add(observed.observation);
    // First contact as the outbox would record it, for this history: a destination's first send.
    if (observed.destination !== undefined && !destinations.has(observed.destination)) {
      destinations.add(observed.destination);
      metrics.addFirstContact();
    }
  };

  // Each chunk's lines are decided before the next chunk is read (see LineCutter).
  const cutter = new LineCutter(maxLineBytes);
  const input = createReadStream(path);
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      if (options.signal?.aborted) break;
      bytes += chunk.length;
      cutter.push(chunk, replayLine);
    }
    if (!options.signal?.aborted) cutter.end(replayLine);
  } finally {
    input.destroy();
  }
  progress();
  return metrics.report(options);
}

const defaultMaxLineBytes = 16 * 1_048_576;

/**
 * Decides one ticket as the outbox would, without a store. The line's `ticketId` is the ticket's: records
 * without one get it, as a loader's would; records naming another ticket are `records_invalid`.
 */
function observe(
  catalog: Pick<Catalog, "decide">,
  line: number,
  ticket: HistoryTicket,
): { observation: DecisionObservation; destination: string | undefined } {
  const { ticketId, records } = ticket;
  const isObject = typeof records === "object" && records !== null && !Array.isArray(records);
  const recordsId = isObject ? (records as { ticketId?: unknown }).ticketId : undefined;
  const decision: Decision =
    recordsId !== undefined && recordsId !== ticketId
      ? escalate({
          reason: "records_invalid",
          detail: "records.ticketId differs from the line's ticketId: records of another ticket",
          ticketId,
        })
      : catalog.decide(
          ticket.output,
          isObject && recordsId === undefined ? { ...records, ticketId } : records,
        );
  const observation = {
    at: ticket.at,
    template: decision.template,
    outcome: decision.outcome,
    reason: decision.outcome === "escalate" ? decision.reason : undefined,
    tags: ticket.tags,
    line,
    ...(decision.outcome === "escalate" ? { detail: decision.detail } : {}),
  };
  const destination =
    decision.outcome === "send"
      ? hash("sha256", `${decision.message.channel}\u0000${decision.message.to}`, "base64")
      : undefined;
  return { observation, destination };
}
