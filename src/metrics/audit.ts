import { recordedVersions } from "../core/definition/template-content.js";
import type { AuditEvent } from "../store/store.js";
import { type AccumulatorOptions, createMetricsAccumulator, type MetricsAccumulator } from "./accumulator.js";
import type { EscalationReport, ReportOptions } from "./report.js";

/** Options of {@link reportFromAudit}. */
export interface AuditReportOptions extends Omit<AccumulatorOptions, "source">, ReportOptions {}

/**
 * The escalation report of an outbox's audit log, read in one pass: pass `outbox.audit.query(...)` or a
 * store's `queryAudit(...)`, which stream in pages, so memory stays flat however long the log is.
 * Decision events are the decisions; duplicates and failed deliveries are counted apart; every other
 * event (people claiming and closing queue items, access) is not a decision of the catalog and is skipped.
 *
 * @example
 * import { formatSummary, reportFromAudit } from "formletter/metrics";
 * const report = await reportFromAudit(outbox.audit.query({ since: Date.now() - 7 * 86_400_000 }));
 * process.stdout.write(formatSummary(report));
 */
export async function reportFromAudit(
  events: AsyncIterable<AuditEvent> | Iterable<AuditEvent>,
  options: AuditReportOptions = {},
): Promise<EscalationReport> {
  const metrics = createMetricsAccumulator({ ...options, source: "audit" });
  for await (const event of events) countAuditEvent(metrics, event);
  return metrics.report(options);
}

/** Counts one audit event into `metrics`, by the rules stated in every report. */
export function countAuditEvent(metrics: MetricsAccumulator, event: AuditEvent): void {
  switch (event.type) {
    case "decision":
      if (event.outcome !== "send" && event.outcome !== "escalate") return;
      metrics.add(
        Object.assign(
          {
            at: event.at,
            template: event.template,
            outcome: event.outcome,
            reason: event.reason,
            tags: tagsOf(event.data),
          },
          recordedVersions(event.data),
        ),
      );
      return;
    case "duplicate":
      metrics.addDuplicate();
      return;
    case "delivery":
      if (event.reason === "delivery_failed") metrics.addDeliveryFailure();
      return;
    case "delivery_status":
      metrics.addDeliveryStatus(event.data, event.template);
      return;
    case "first_contact":
      // Of a decision's send (the outbox's); one a person approved is not a decision sent, and not
      // counted against the sends.
      if (event.actor === "outbox") metrics.addFirstContact();
      return;
    default:
      return;
  }
}

/** The tags the outbox stored with the decision, keeping only string values. */
function tagsOf(data: Readonly<Record<string, unknown>>): Readonly<Record<string, string>> | undefined {
  const tags = data?.tags;
  if (typeof tags !== "object" || tags === null || Array.isArray(tags)) return undefined;
  return tags as Readonly<Record<string, string>>;
}
