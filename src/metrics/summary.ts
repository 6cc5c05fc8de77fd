import { deliveryEventCount, formatDeliveryOutcomes } from "./delivery-outcomes.js";
import { formatBand } from "./projection.js";
import type { EscalationReport } from "./report.js";

/** "23.6%": a rate as a percentage with one decimal. */
export function percent(fraction: number): string {
  return `${(100 * fraction).toFixed(1)}%`;
}

/**
 * A few lines for the end of a run or a log: the escalation rate with its interval, the projected human
 * decisions a day, and the most frequent reasons.
 *
 * @example
 * import { formatSummary, reportFromAudit } from "formletter/metrics";
 * process.stdout.write(formatSummary(await reportFromAudit(outbox.audit.query())));
 * // escalation rate 44.2% (95% CI 37.6%–51.0%): 92 of 208 decisions escalated, 116 sent
 */
export function formatSummary(report: EscalationReport): string {
  const { overall, projection } = report;
  const lines = [
    `escalation rate ${percent(overall.rate)} (95% CI ${percent(overall.low)}–${percent(overall.high)}): ${overall.escalated} of ${overall.decided} decisions escalated, ${overall.sent} sent`,
  ];
  if (projection !== undefined) {
    const volume = Number(projection.ticketsPerDay.toPrecision(3)).toLocaleString("en-US");
    const basis =
      projection.basis === "observed"
        ? `the observed ${volume} tickets a day (over ${projection.days} day${projection.days === 1 ? "" : "s"})`
        : `${volume} tickets a day`;
    lines.push(`human decisions: ${formatBand(projection)} at ${basis}`);
  }
  if (report.byReason.length > 0) {
    const top = report.byReason.slice(0, 4).map((row) => `${row.reason} ${row.count}`);
    lines.push(`by reason: ${top.join(" · ")}${report.byReason.length > 4 ? " · …" : ""}`);
  }
  const first = report.firstContact;
  if (first.firstContacts > 0) {
    const percent = (x: number) => `${(x * 100).toFixed(1)}%`;
    lines.push(
      `first contacts: ${first.firstContacts} of ${first.sends} sends (${percent(first.rate)}, 95% ${percent(first.low)}–${percent(first.high)})`,
    );
  }
  if (report.deliveryOutcomes !== undefined && deliveryEventCount(report.deliveryOutcomes) > 0)
    lines.push(`delivery outcomes: ${formatDeliveryOutcomes(report.deliveryOutcomes)}`);
  const apart = [
    report.duplicates > 0 ? `${report.duplicates} duplicate(s) not counted as decisions` : "",
    report.deliveryFailures > 0 ? `${report.deliveryFailures} failed deliveries counted apart` : "",
    report.malformed.count > 0 ? `${report.malformed.count} malformed line(s) skipped` : "",
  ].filter(Boolean);
  if (apart.length > 0) lines.push(apart.join("; "));
  return `${lines.join("\n")}\n`;
}
