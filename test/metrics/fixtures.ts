import type { EscalationReason, Store } from "../../src/index.js";
import type { AuditEvent } from "../../src/store/store.js";

const at = (time: string) => Date.parse(time);

type Event = Omit<AuditEvent, "id">;

function decision(
  time: string,
  template: string | undefined,
  reason: EscalationReason | undefined,
  tags?: Record<string, string>,
): Event {
  return {
    at: at(time),
    type: "decision",
    ticketId: `T-${time}`,
    runId: "r",
    template,
    outcome: reason === undefined ? "send" : "escalate",
    reason,
    key: undefined,
    actor: "outbox",
    data: tags === undefined ? {} : { tags },
  };
}

/**
 * Eight decisions over three days with a gap (2 and 3 March, then 5 March), a duplicate, a failed
 * delivery and a queue transition. Decided 8, escalated 4:
 *
 * | day   | decisions                                                                         |
 * | 03-02 | A send (delay) · A slot_rejected (delay) · B send (damage) · none model_escalated (damage) |
 * | 03-03 | B approval_required (refund) · A send (no tags) · a duplicate                     |
 * | 03-05 | B limit_exceeded (damage) · A send (delay) · a failed delivery · a queue claim    |
 */
export const auditFixture: readonly Event[] = [
  decision("2026-03-02T10:00:00Z", "a", undefined, { category: "delay" }),
  decision("2026-03-02T11:00:00Z", "a", "slot_rejected", { category: "delay" }),
  decision("2026-03-02T12:00:00Z", "b", undefined, { category: "damage" }),
  decision("2026-03-02T13:00:00Z", undefined, "model_escalated", { category: "damage" }),
  decision("2026-03-03T09:00:00Z", "b", "approval_required", { category: "refund" }),
  decision("2026-03-03T10:00:00Z", "a", undefined),
  { ...decision("2026-03-03T11:00:00Z", "a", undefined, { category: "delay" }), type: "duplicate" },
  decision("2026-03-05T08:00:00Z", "b", "limit_exceeded", { category: "damage" }),
  decision("2026-03-05T09:00:00Z", "a", undefined, { category: "delay" }),
  {
    ...decision("2026-03-05T10:00:00Z", "a", "delivery_failed"),
    type: "delivery",
    data: { status: "failed" },
  },
  { ...decision("2026-03-05T11:00:00Z", "b", "approval_required"), type: "queue", actor: "ana" },
];

/** Writes the fixture into a store, as the outbox would have. */
export async function fillStore(store: Store, events: readonly Event[] = auditFixture): Promise<void> {
  await store.transaction(async (tx) => {
    for (const event of events) await tx.appendAudit(event);
  });
}
