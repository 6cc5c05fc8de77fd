import type { KeyObject } from "node:crypto";
import type { Decision, Message } from "../core/decision/decision.js";
import { FormletterError } from "../core/errors.js";
import { actorNameOf, visibleNameRule } from "../core/visible-name.js";
import { eventWithoutTicket } from "../store/operator-event.js";
import type { Store, StoreTransaction, Suppression } from "../store/store.js";
import { destinationHash, destinationShown } from "./first-contact.js";

/** What lifting a suppression did. */
export interface LiftResult {
  /** False when the destination was not suppressed (nothing written). */
  readonly lifted: boolean;
  /** The suppression lifted. */
  readonly suppression: Suppression | undefined;
  /** The `suppression` audit event recording who lifted it. */
  readonly auditId: string | undefined;
}

const hashPattern = /^[0-9a-f]{64}$/;

/**
 * The suppression of the destination a decision would write to, if any: read before the decision's
 * transaction, so a send to a suppressed address costs one read and no write of its own. Only a decision
 * that carries a message (a send, or a draft held for a person) is looked up.
 */
export async function suppressionFor(
  store: Store,
  key: KeyObject | undefined,
  decision: Decision,
): Promise<Suppression | undefined> {
  const message: Message | undefined =
    decision.outcome === "send"
      ? decision.message
      : decision.reason === "approval_required"
        ? decision.draft
        : undefined;
  if (key === undefined || message === undefined) return undefined;
  return store.getSuppression(destinationHash(key, message));
}

/**
 * Lifts the suppression of `destination` (its full keyed hash, as `list` shows it), recording who did it
 * as a `suppression` audit event in the same transaction. `by` is held to the queue's actor rule.
 */
export async function liftSuppression(
  transaction: <T>(work: (tx: StoreTransaction) => Promise<T>) => Promise<T>,
  destination: string,
  actor: { readonly by: string; readonly note?: string },
  now: number,
): Promise<LiftResult> {
  if (typeof destination !== "string" || !hashPattern.test(destination))
    throw new FormletterError(
      "outbox_invalid",
      "suppressions.lift: pass the destination as the 64 hexadecimal characters suppressions.list shows",
    );
  const by = actorNameOf(actor?.by);
  if (by === undefined)
    throw new FormletterError("outbox_invalid", `suppressions.lift: by must be ${visibleNameRule}`);
  const note = typeof actor.note === "string" ? actor.note.slice(0, 500) : undefined;
  return transaction(async (tx) => {
    const suppression = await tx.removeSuppression(destination);
    if (suppression === undefined) return { lifted: false, suppression: undefined, auditId: undefined };
    const auditId = await tx.appendAudit(
      eventWithoutTicket(now, "suppression", by, {
        action: "lifted",
        destination: destinationShown(destination),
        channel: suppression.channel,
        cause: suppression.cause,
        provider: suppression.provider,
        suppressedBy: suppression.auditId,
        ...(note === undefined ? {} : { note }),
      }),
    );
    return { lifted: true, suppression, auditId };
  });
}
