/**
 * The human queue's refusals. Every message is written here, in code, from typed facts only: the
 * action, the item's status and reason as values this version knows. What a caller or a store row wrote
 * (the id given, who holds the item) is a property of the error for the caller to read, never part of
 * its message, so a message can go to any log or screen as it is.
 */
import { escalationReasons } from "../core/decision/reasons.js";
import { FormletterError, isFormletterError } from "../core/errors.js";
import { visibleNameRule } from "../core/visible-name.js";
import {
  type QueueItem,
  type QueueStatus,
  queueStatuses,
  type SuppressionCause,
  suppressionCauses,
} from "../store/store.js";

/** The codes of a {@link QueueError}. */
export type QueueErrorCode = "queue_item_not_found" | "queue_transition_invalid" | "queue_actor_invalid";

/** What a queue refusal is about, besides its code. */
export interface QueueErrorFacts {
  readonly itemId?: string | undefined;
  readonly status?: QueueStatus | undefined;
  readonly claimedBy?: string | undefined;
  readonly suppression?: SuppressionCause | undefined;
}

/**
 * A queue action refused: an id that names no item (`queue_item_not_found`), a transition the item's
 * status does not allow (`queue_transition_invalid`; an approval whose recipient is suppressed is one, with
 * `suppression` set), or no readable name of who acts
 * (`queue_actor_invalid`). The message never repeats the id or a name: read them from the properties.
 *
 * @example
 * import { QueueError } from "formletter";
 * try { await outbox.queue.claim(id, { by: "ana" }) } catch (e) { if (e instanceof QueueError && e.status === "claimed") showHolder(e.claimedBy) }
 */
export class QueueError extends FormletterError {
  static override readonly brand: string = "QueueError";
  /** The id the action was given, as given; undefined when it was not a string. */
  readonly itemId: string | undefined;
  /** The item's status when a transition was refused. */
  readonly status: QueueStatus | undefined;
  /** Who holds the item, when a claim was refused because someone else had claimed it. */
  readonly claimedBy: string | undefined;
  /**
   * Why an approval was refused for its recipient: suppressed by a `hard_bounce` or a `complaint`. Lift
   * the suppression (`outbox.suppressions.lift`), then approve again.
   */
  readonly suppression: SuppressionCause | undefined;

  constructor(code: QueueErrorCode, message: string, facts: QueueErrorFacts = {}) {
    super(code, message);
    this.name = "QueueError";
    this.itemId = facts.itemId;
    this.status = facts.status;
    this.claimedBy = facts.claimedBy;
    this.suppression = facts.suppression;
  }
}

/** A queue action, as a refusal names it (`release` records an approval, so it is refused as one). */
export type QueueAction = "claim" | "approve" | "reject" | "resolve";

const done: Readonly<Record<QueueAction, string>> = {
  claim: "claimed",
  approve: "approved",
  reject: "rejected",
  resolve: "resolved",
};

const idOf = (id: unknown): string | undefined => (typeof id === "string" ? id : undefined);

// A store row's status and reason are strings to the database: only values of this version's closed
// lists are written into a message; anything else is said to be unknown.
const knownStatus = (status: unknown): QueueStatus | undefined =>
  queueStatuses.find((known) => known === status);
const knownReason = (reason: unknown) => escalationReasons.find((known) => known === reason);

/** An id that names no item. */
export function itemNotFound(id: unknown): QueueError {
  return new QueueError(
    "queue_item_not_found",
    "no queue item has the id given (the error's itemId); list the queue for the ids it holds",
    { itemId: idOf(id) },
  );
}

/** An action without a readable name of who acts: the rule, never the name given. */
export function actorInvalid(id: unknown): QueueError {
  return new QueueError(
    "queue_actor_invalid",
    `every queue action needs { by: "<who>" }, the name the audit log records: ${visibleNameRule}`,
    { itemId: idOf(id) },
  );
}

/** A resolve without a usable resolution. */
export function resolutionInvalid(id: unknown): QueueError {
  return new QueueError(
    "queue_transition_invalid",
    "resolve needs a resolution: a short text of at most 200 characters",
    { itemId: idOf(id) },
  );
}

/** An action the item's status does not allow; a claim refused for another's claim names no one. */
export function transitionInvalid(id: unknown, action: QueueAction, item: QueueItem): QueueError {
  const status = knownStatus(item.status);
  const itemId = idOf(id);
  if (action === "claim" && status === "claimed") {
    return new QueueError(
      "queue_transition_invalid",
      "the queue item is claimed by someone else (the error's claimedBy); only open items can be claimed",
      { itemId, status, claimedBy: item.claimedBy },
    );
  }
  const state =
    status === undefined
      ? "in a status this version of formletter does not know"
      : action === "claim"
        ? status
        : `already ${status}`;
  const rule = action === "claim" ? "only open items can be claimed" : `it cannot be ${done[action]}`;
  return new QueueError("queue_transition_invalid", `the queue item is ${state}; ${rule}`, {
    itemId,
    status,
  });
}

/** An approval of an item with nothing to send. */
export function noDraft(id: unknown, item: QueueItem): QueueError {
  const reason = knownReason(item.reason);
  return new QueueError(
    "queue_transition_invalid",
    `the queue item${reason === undefined ? "" : ` (${reason})`} has no draft to send; resolve it instead`,
    { itemId: idOf(id), status: knownStatus(item.status) },
  );
}

/** An approval whose recipient is suppressed: nothing was written or sent, the item still waits. */
export function destinationSuppressed(id: unknown, item: QueueItem, cause: SuppressionCause): QueueError {
  const why = cause === "complaint" ? "its owner complained" : "it bounced for good";
  return new QueueError(
    "queue_transition_invalid",
    `the draft's recipient is suppressed (${why}): nothing was sent and the item still waits; lift the suppression, then approve again`,
    { itemId: idOf(id), status: knownStatus(item.status), suppression: cause },
  );
}

/**
 * Whether `error` is an approval refused for a suppressed recipient, and why: `undefined` when it is
 * not; `{ cause }` when it is, `cause` left out for a cause this version does not know. Read by its
 * fields, not its class: another bundle's copy of the queue throws another class.
 */
export function suppressedRefusal(error: unknown): { readonly cause?: SuppressionCause } | undefined {
  if (!isFormletterError(error) || error.code !== "queue_transition_invalid") return undefined;
  const suppression = (error as { suppression?: unknown }).suppression;
  if (suppression === undefined || suppression === null) return undefined;
  const cause = suppressionCauses.find((known) => known === suppression);
  return cause === undefined ? {} : { cause };
}
