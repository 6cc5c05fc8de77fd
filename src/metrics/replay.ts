import type { Catalog } from "../core/decision/catalog.js";
import { type AccumulatorOptions, createMetricsAccumulator } from "./accumulator.js";
import {
  decideHistoryTicket,
  destinationDigest,
  type HistoryProgress,
  type HistoryReadOptions,
  readHistory,
} from "./history-reader.js";
import type { EscalationReport, ReportOptions } from "./report.js";

/** How far a replay has got. */
export type ReplayProgress = HistoryProgress;

/** Options of {@link replayHistory}. */
export interface ReplayOptions
  extends Omit<AccumulatorOptions, "source">,
    ReportOptions,
    HistoryReadOptions {}

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
  // Destinations sent to so far, as digests (addresses are not kept).
  const destinations = new Set<string>();
  await readHistory(
    path,
    {
      problem: (line, problem) => metrics.addMalformed(line, problem),
      ticket(ticket, line) {
        // Only a catalog that is not createCatalog's (whose decide never throws) can throw here: the
        // replay stops with its error.
        const decision = decideHistoryTicket(catalog, ticket);
        metrics.add({
          at: ticket.at,
          template: decision.template,
          outcome: decision.outcome,
          reason: decision.outcome === "escalate" ? decision.reason : undefined,
          tags: ticket.tags,
          line,
          // The replayed decision's versions, never a version field the history line may carry.
          templateVersion: decision.templateVersion,
          catalogVersion: decision.catalogVersion,
          ...(decision.outcome === "escalate" ? { detail: decision.detail } : {}),
        });
        // First contact as the outbox would record it, for this history: a destination's first send.
        const destination = destinationDigest(decision);
        if (destination !== undefined && !destinations.has(destination)) {
          destinations.add(destination);
          metrics.addFirstContact();
        }
      },
    },
    options,
  );
  return metrics.report(options);
}
