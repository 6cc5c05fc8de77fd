import type { SendCounts } from "../store/store.js";
import type { TemplateLimits } from "../template.js";

/** A rolling day, for `perDay`. */
export const dayMs = 24 * 60 * 60 * 1000;

/**
 * Which limit one more send would break, as a sentence for the audit log and the queue, or undefined.
 * Counts are of sends already accepted (delivered, pending, or awaiting approval).
 */
export function limitProblem(
  template: string,
  limits: TemplateLimits,
  counts: SendCounts,
  maxPerRun: number,
  where: { ticketId: string; runId: string },
): string | undefined {
  if (counts.ticket >= limits.perTicket) {
    return `${template} may send ${limits.perTicket} message(s) per ticket; ticket ${where.ticketId} has had ${counts.ticket}`;
  }
  if (counts.day >= limits.perDay) {
    return `${template} may send ${limits.perDay} message(s) in 24 hours; ${counts.day} were sent`;
  }
  if (counts.run >= maxPerRun) {
    return `a run may send ${maxPerRun} message(s); run ${where.runId} has sent ${counts.run}`;
  }
  return undefined;
}
