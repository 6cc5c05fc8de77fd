import type { AuditEvent, AuditType } from "./store.js";

/**
 * An audit event of a person's action that belongs to no ticket (a sign-in, a suppression lifted): its
 * ticket's fields are empty, so a query by ticket, template or outcome never mistakes it for a decision.
 */
export function eventWithoutTicket(
  at: number,
  type: AuditType,
  actor: string,
  data: Readonly<Record<string, unknown>>,
): Omit<AuditEvent, "id"> {
  return {
    at,
    type,
    ticketId: undefined,
    runId: undefined,
    template: undefined,
    outcome: undefined,
    reason: undefined,
    key: undefined,
    actor,
    data,
  };
}
