import type { Channel } from "../core/definition/channels.js";
import { isFormletterError } from "../core/errors.js";
import { type Actor, type HumanQueue, suppressedRefusal } from "../outbox/index.js";
import type { SuppressionCause } from "../store/index.js";

/**
 * The exact message a queued approval would send, for an approval screen: formletter's stored draft,
 * byte for byte what an approval delivers.
 */
export interface ApprovalDraft {
  readonly queueItemId: string;
  readonly ticketId: string;
  readonly template: string;
  readonly channel: Channel;
  /** The recipient, from the ticket's records. */
  readonly to: string;
  readonly subject?: string;
  readonly text: string;
}

/**
 * What an approval or a rejection did:
 * - `sent`: approved now, and its message was handed to delivery (`delivery` says where it stands);
 * - `already_sent`: approved before, or its message had gone out already: nothing new was sent;
 * - `rejected`: the item is closed, nothing is sent;
 * - `not_found`: no item of this id waits for approval for this ticket;
 * - `closed`: the item was decided before (rejected, resolved) and cannot be approved or rejected now;
 * - `recipient_suppressed`: the draft's recipient is suppressed, because a provider reported a hard
 *   bounce or its owner complained (`cause`): nothing was sent and the item still waits. Lift the
 *   suppression (`outbox.suppressions.lift`), then approve again; or reject the item.
 */
export type ApprovalOutcome =
  | {
      readonly outcome: "sent";
      readonly queueItemId: string;
      readonly delivery: "delivered" | "pending" | "failed" | "shadow";
    }
  | { readonly outcome: "already_sent"; readonly queueItemId: string }
  | { readonly outcome: "rejected"; readonly queueItemId: string }
  | { readonly outcome: "not_found"; readonly queueItemId: string }
  | { readonly outcome: "closed"; readonly queueItemId: string }
  | {
      readonly outcome: "recipient_suppressed";
      readonly queueItemId: string;
      /** Why the recipient is suppressed; absent only for a cause this version does not know. */
      readonly cause?: SuppressionCause;
    };

/** The queue operations approvals use: the outbox's own queue (`outbox.queue`). */
export type ApprovalQueue = Pick<HumanQueue, "get" | "approve" | "reject">;

/**
 * A ticket's approvals, worked by queue item id through the outbox's queue, as an operator. Nothing a
 * chat carries can approve: an approval is this call, with an id the outbox issued for this ticket.
 */
export interface Approvals {
  /** The draft of an item waiting for approval for this ticket; undefined for any other id. */
  draft(queueItemId: string): Promise<ApprovalDraft | undefined>;
  /** Approves the item: its draft is sent exactly as stored, once however often this is called. */
  approve(queueItemId: string, actor: Actor): Promise<ApprovalOutcome>;
  /** Rejects the item with the reason given; nothing is sent. */
  reject(queueItemId: string, actor: Actor & { readonly note?: string }): Promise<ApprovalOutcome>;
}

/**
 * Approvals for one ticket: only items the outbox queued as `approval_required` for that ticket can
 * be read, approved or rejected here; any other id is `not_found`, whatever it names. Errors of the
 * store (an outage) and an invalid actor name are thrown as the queue throws them.
 *
 * @example
 * import { createApprovals } from "formletter/agent-tools";
 * const approvals = createApprovals({ queue: outbox.queue, ticketId: "T-1" });
 * const draft = await approvals.draft(outcome.queueItemId);
 * if (draft && (await askPerson(draft))) await approvals.approve(draft.queueItemId, { by: "ana@example.com" });
 */
export function createApprovals(options: { queue: ApprovalQueue; ticketId: string }): Approvals {
  const { queue, ticketId } = options;
  /** The item, when it is an approval of this ticket. */
  const itemOf = async (id: unknown) => {
    if (typeof id !== "string" || id === "") return undefined;
    const item = await queue.get(id);
    return item?.ticketId === ticketId && item.reason === "approval_required" ? item : undefined;
  };
  /**
   * A queue refusal as an outcome: the item went away or was decided in between, or its recipient is
   * suppressed (the refusal's `suppression` is set; read by its fields, as another bundle's queue throws
   * another class).
   */
  const refused = (error: unknown, queueItemId: string): ApprovalOutcome => {
    if (isFormletterError(error) && error.code === "queue_item_not_found")
      return { outcome: "not_found", queueItemId };
    const suppressed = suppressedRefusal(error);
    if (suppressed !== undefined) return { outcome: "recipient_suppressed", queueItemId, ...suppressed };
    if (isFormletterError(error) && error.code === "queue_transition_invalid")
      return { outcome: "closed", queueItemId };
    throw error;
  };
  return {
    async draft(queueItemId) {
      const item = await itemOf(queueItemId);
      const draft = item?.draft;
      if (item === undefined || draft === undefined || item.template === undefined) return undefined;
      if (item.status !== "open" && item.status !== "claimed") return undefined;
      return {
        queueItemId: item.id,
        ticketId: item.ticketId,
        template: item.template,
        channel: draft.channel,
        to: draft.to,
        ...(draft.subject === undefined ? {} : { subject: draft.subject }),
        text: draft.text,
      };
    },
    async approve(queueItemId, actor) {
      const item = await itemOf(queueItemId);
      if (item === undefined) return { outcome: "not_found", queueItemId: String(queueItemId) };
      if (item.status === "rejected" || item.status === "resolved") return { outcome: "closed", queueItemId };
      try {
        const result = await queue.approve(queueItemId, actor);
        if (!result.approvedNow || result.keyUsedBefore) return { outcome: "already_sent", queueItemId };
        const status = result.outbound?.status;
        const delivery =
          status === "delivered" || status === "failed" || status === "shadow" ? status : "pending";
        return { outcome: "sent", queueItemId, delivery };
      } catch (error) {
        return refused(error, queueItemId);
      }
    },
    async reject(queueItemId, actor) {
      const item = await itemOf(queueItemId);
      if (item === undefined) return { outcome: "not_found", queueItemId: String(queueItemId) };
      try {
        await queue.reject(queueItemId, actor);
        return { outcome: "rejected", queueItemId };
      } catch (error) {
        return refused(error, queueItemId);
      }
    },
  };
}
