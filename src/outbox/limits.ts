import type { LimitName } from "../core/decision/decision.js";
import type { TemplateLimits } from "../core/definition/template-types.js";
import type { SendCounts } from "../store/store.js";

/** A rolling day, for `perDay`. */
export const dayMs = 24 * 60 * 60 * 1000;

/** The limit one more send would break: which, its maximum and the count against it, and a sentence. */
export interface LimitProblem {
  readonly limit: Exclude<LimitName, "ceiling">;
  readonly max: number;
  readonly count: number;
  readonly detail: string;
}

/**
 * Which limit one more send would break, or undefined. Counts are of sends already accepted
 * (delivered, pending, or awaiting approval).
 */
export function limitProblem(
  template: string,
  limits: TemplateLimits,
  counts: SendCounts,
  maxPerRun: number,
  where: { ticketId: string; runId: string },
): LimitProblem | undefined {
  if (counts.ticket >= limits.perTicket) {
    return {
      limit: "ticket",
      max: limits.perTicket,
      count: counts.ticket,
      detail: `${template} may send ${limits.perTicket} message(s) per ticket; ticket ${where.ticketId} has had ${counts.ticket}`,
    };
  }
  if (counts.day >= limits.perDay) {
    return {
      limit: "day",
      max: limits.perDay,
      count: counts.day,
      detail: `${template} may send ${limits.perDay} message(s) in 24 hours; ${counts.day} were sent`,
    };
  }
  if (counts.run >= maxPerRun) {
    return {
      limit: "run",
      max: maxPerRun,
      count: counts.run,
      detail: `a run may send ${maxPerRun} message(s); run ${where.runId} has sent ${counts.run}`,
    };
  }
  return undefined;
}
