import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { Catalog } from "../catalog.js";
import { type Decision, escalate } from "../decision.js";
import {
  type AccumulatorOptions,
  createMetricsAccumulator,
  type DecisionObservation,
} from "./accumulator.js";
import { type HistoryTicket, parseHistoryLine } from "./history.js";
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
  const maxLineBytes = options.maxLineBytes ?? defaultMaxLineBytes;
  if (!Number.isInteger(maxLineBytes) || maxLineBytes < 1)
    throw new RangeError("maxLineBytes must be a whole number ≥ 1");
  const totalBytes = (await stat(path)).size;
  let line = 0;
  let bytes = 0;
  const progress = () => options.onProgress?.({ lines: line, bytes, totalBytes });

  const replayLine = (raw: Buffer) => {
    line += 1;
    if (line % progressEvery === 0) progress();
    const ticket = readLine(raw);
    if (ticket === undefined) return;
    if ("problem" in ticket) {
      metrics.addMalformed(line, ticket.problem);
      return;
    }
    // Only a catalog that is not createCatalog's (whose decide never throws) can throw here: the
    // replay stops with its error.
    metrics.add(observe(catalog, line, ticket));
  };

  // Lines are cut from the file's bytes here rather than by readline, so a line is checked as UTF-8
  // on its own (readline would turn bad bytes into U+FFFD silently) and a line over `maxLineBytes` is
  // skipped as it streams by instead of being held whole. Each chunk's lines are decided before the
  // next chunk is read: memory stays at one chunk plus one line, and no promise is made per line.
  const pieces: Buffer[] = [];
  let pending = 0;
  let overlong = false;
  const input = createReadStream(path);
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      if (options.signal?.aborted) break;
      bytes += chunk.length;
      let from = 0;
      for (let end = chunk.indexOf(newline); end !== -1; end = chunk.indexOf(newline, from)) {
        const part = chunk.subarray(from, end);
        from = end + 1;
        if (overlong || pending + part.length > maxLineBytes) {
          line += 1;
          metrics.addMalformed(line, `longer than ${maxLineBytes} bytes`);
        } else if (pending === 0) {
          replayLine(part);
        } else {
          pieces.push(part);
          replayLine(Buffer.concat(pieces, pending + part.length));
        }
        pieces.length = 0;
        pending = 0;
        overlong = false;
      }
      const rest = chunk.subarray(from);
      if (overlong || rest.length === 0) continue;
      if (pending + rest.length > maxLineBytes) {
        overlong = true;
        pieces.length = 0;
        pending = 0;
      } else {
        // A copy: the stream may reuse its buffer.
        pieces.push(Buffer.from(rest));
        pending += rest.length;
      }
    }
    if (!options.signal?.aborted) {
      if (overlong) {
        line += 1;
        metrics.addMalformed(line, `longer than ${maxLineBytes} bytes`);
      } else if (pending > 0) {
        replayLine(Buffer.concat(pieces, pending));
      }
    }
  } finally {
    input.destroy();
  }
  progress();
  return metrics.report(options);
}

const newline = 0x0a;
const defaultMaxLineBytes = 16 * 1_048_576;
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** One line's ticket, a problem, or undefined for a blank line. */
function readLine(raw: Buffer): ReturnType<typeof parseHistoryLine> | undefined {
  const end = raw.length > 0 && raw[raw.length - 1] === 0x0d ? raw.length - 1 : raw.length;
  let text: string;
  try {
    text = utf8.decode(raw.subarray(0, end));
  } catch {
    return { problem: "not valid UTF-8" };
  }
  if (text.trim() === "") return undefined;
  return parseHistoryLine(text);
}

/**
 * Decides one ticket as the outbox would, without a store. The line's `ticketId` is the ticket's: records
 * without one get it, as a loader's would; records naming another ticket are `records_invalid`.
 */
function observe(catalog: Pick<Catalog, "decide">, line: number, ticket: HistoryTicket): DecisionObservation {
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
  return {
    at: ticket.at,
    template: decision.template,
    outcome: decision.outcome,
    reason: decision.outcome === "escalate" ? decision.reason : undefined,
    tags: ticket.tags,
    line,
    ...(decision.outcome === "escalate" ? { detail: decision.detail } : {}),
  };
}
