import { hash } from "node:crypto";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { Catalog } from "../core/decision/catalog.js";
import { type Decision, escalate } from "../core/decision/decision.js";
import { type HistoryTicket, parseHistoryLine } from "./history.js";
import { LineCutter } from "./line-cutter.js";

/** How far a pass over a history file has got. */
export interface HistoryProgress {
  readonly lines: number;
  /** Bytes read from the file so far (read ahead of the lines visited by up to one chunk). */
  readonly bytes: number;
  readonly totalBytes: number;
}

/** Options of {@link readHistory}. */
export interface HistoryReadOptions {
  /** Called every few thousand lines and once at the end; a progress bar, say. */
  readonly onProgress?: (progress: HistoryProgress) => void;
  /** Stops reading; the lines read so far have been visited. */
  readonly signal?: AbortSignal;
  /** Longest line read, in bytes; a longer one is a problem, never held in memory. @default 16777216 */
  readonly maxLineBytes?: number;
  /** Lines without `output` are tickets too: a file of tickets whose proposals are not recorded. @default false */
  readonly outputOptional?: boolean;
}

/** What a visitor of {@link readHistory} is told about one line. */
export interface HistoryVisitor {
  ticket(ticket: HistoryTicket, line: number): void;
  problem(line: number, problem: string): void;
}

const progressEvery = 4096;
const defaultMaxLineBytes = 16 * 1_048_576;

/**
 * Reads a history file (JSON Lines of `{ ticketId, records, output, tags?, at? }`) line by line in
 * constant memory, handing each ticket or each line's problem to `visit`; blank lines are skipped. Every
 * pass over a history (a replay, a review of two catalogs) reads it this way, so they count lines alike.
 */
export async function readHistory(
  path: string,
  visit: HistoryVisitor,
  options: HistoryReadOptions = {},
): Promise<void> {
  const maxLineBytes = options.maxLineBytes ?? defaultMaxLineBytes;
  if (!Number.isInteger(maxLineBytes) || maxLineBytes < 1)
    throw new RangeError("maxLineBytes must be a whole number ≥ 1");
  const totalBytes = (await stat(path)).size;
  let line = 0;
  let bytes = 0;
  const progress = () => options.onProgress?.({ lines: line, bytes, totalBytes });
  const each = (cut: string | { readonly problem: string }) => {
    line += 1;
    if (line % progressEvery === 0) progress();
    if (typeof cut !== "string") return visit.problem(line, cut.problem);
    if (cut.trim() === "") return;
    const ticket = parseHistoryLine(cut, options.outputOptional !== true);
    if ("problem" in ticket) visit.problem(line, ticket.problem);
    else visit.ticket(ticket, line);
  };
  // Each chunk's lines are visited before the next chunk is read (see LineCutter).
  const cutter = new LineCutter(maxLineBytes);
  const input = createReadStream(path);
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      if (options.signal?.aborted) break;
      bytes += chunk.length;
      cutter.push(chunk, each);
    }
    if (!options.signal?.aborted) cutter.end(each);
  } finally {
    input.destroy();
  }
  progress();
}

/**
 * Decides one history ticket as the outbox would, without a store. The line's `ticketId` is the ticket's:
 * records without one get it, as a loader's would; records naming another ticket are `records_invalid`.
 */
export function decideHistoryTicket(catalog: Pick<Catalog, "decide">, ticket: HistoryTicket): Decision {
  const { ticketId, records } = ticket;
  const isObject = typeof records === "object" && records !== null && !Array.isArray(records);
  const recordsId = isObject ? (records as { ticketId?: unknown }).ticketId : undefined;
  if (recordsId !== undefined && recordsId !== ticketId)
    return escalate({
      reason: "records_invalid",
      detail: "records.ticketId differs from the line's ticketId: records of another ticket",
      ticketId,
    });
  return catalog.decide(
    ticket.output,
    isObject && recordsId === undefined ? { ...records, ticketId } : records,
  );
}

/** A sent message's destination as a digest: first contact is counted without keeping addresses. */
export function destinationDigest(decision: Decision): string | undefined {
  return decision.outcome === "send"
    ? hash("sha256", `${decision.message.channel}\u0000${decision.message.to}`, "base64")
    : undefined;
}
