import { outcomeText, type ToolOutcome } from "../agent-tools/index.js";
import type { QueueItem } from "../store/index.js";

/**
 * Where a call the outbox held for a person stands, read from its queue item, never from the run's
 * state: `waiting` (open or claimed), `approved` (its draft was handed to delivery, now or before),
 * `rejected`, or `closed` (a person resolved it another way).
 */
export type HeldStatus = "waiting" | "approved" | "rejected" | "closed";

export function heldStatusOf(item: Pick<QueueItem, "status">): HeldStatus {
  switch (item.status) {
    case "open":
    case "claimed":
      return "waiting";
    case "approved":
      return "approved";
    case "rejected":
      return "rejected";
    default:
      // "resolved", or a status this version does not know: nothing this adapter sends or reports sent.
      return "closed";
  }
}

/**
 * What the model is told of a held call once a person acted on its item: every word written here, the
 * rest the template id and the queue item id the outbox issued.
 */
export function heldText(item: Pick<QueueItem, "id" | "status" | "template" | "resolution">): string {
  const template = item.template ?? "held";
  switch (heldStatusOf(item)) {
    case "waiting":
      return outcomeText({ outcome: "queued_for_approval", template, queueItemId: item.id });
    case "approved":
      return outcomeText(approvedOutcome(item, template));
    case "rejected":
      return `Rejected: a person rejected the ${template} message (queue item ${item.id}); nothing was sent. Do not propose it again.`;
    case "closed":
      return `Closed: a person closed the ${template} message (queue item ${item.id}) without sending it; nothing was sent. Do not propose it again.`;
  }
}

function approvedOutcome(item: Pick<QueueItem, "id" | "resolution">, template: string): ToolOutcome {
  // The key had a message before the approval: that message is the one that went, not a new one.
  if (item.resolution === "already_sent")
    return { outcome: "duplicate", first: "sent", queueItemId: item.id };
  return { outcome: "sent", template, delivery: "pending" };
}

/** The queue item id of an outcome that names a call held for a person (queued now, or before). */
export function heldItemId(outcome: ToolOutcome): string | undefined {
  if (outcome.outcome === "queued_for_approval") return outcome.queueItemId;
  if (outcome.outcome === "duplicate" && outcome.first === "queued_for_approval") return outcome.queueItemId;
  return undefined;
}
