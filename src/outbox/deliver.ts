import { escalate, escalationFacts } from "../core/decision/decision.js";
import type { EscalationReason } from "../core/decision/reasons.js";
import { snippet } from "../core/message/sanitize.js";
import { errorStatus, inSpan, spanNames } from "../core/telemetry.js";
import { type OutboundRow, openQueueItem, type StoreTransaction, type Suppression } from "../store/store.js";
import { isRetryable, type Transport } from "../transport/transport.js";
import { destinationShown } from "./first-contact.js";

/** How deliveries are retried. */
export interface RetryOptions {
  /** Tries per delivery, the first included. @default 3 */
  readonly attempts?: number;
  /** Wait before the first retry; doubles each time, with jitter. @default 250 */
  readonly baseDelayMs?: number;
  /** Longest wait between two tries. @default 5000 */
  readonly maxDelayMs?: number;
}

/** How one delivery ended, after its retries. */
export type DeliveryOutcome =
  | {
      readonly status: "delivered";
      readonly attempts: number;
      readonly receiptId: string;
      readonly ms: number;
      readonly errors: readonly string[];
    }
  | {
      readonly status: "failed";
      readonly attempts: number;
      readonly ms: number;
      readonly errors: readonly string[];
    }
  | {
      /** Found `delivering` after its lease ran out: not sent again, handed to a person. */
      readonly status: "in_doubt";
      readonly attempts: number;
      readonly ms: number;
      readonly errors: readonly string[];
    };

/** What `flush()` does with a row found `delivering` whose lease ran out (see OutboundStatus). */
export const inDoubtDetail =
  "delivery in doubt: a deliverer called the transport but its outcome was never recorded (it stopped, or lost the store); the message may have been delivered. Approving sends it again with the same idempotency key";

/**
 * Tries to deliver a row, retrying retryable failures with exponential backoff and jitter, inside a
 * span naming the template, channel and transport, and how it ended: never the message or recipient.
 */
export function deliverRow(
  row: OutboundRow,
  transport: Transport,
  retry: Required<RetryOptions>,
  clock: () => number,
): Promise<DeliveryOutcome> {
  const attributes = () => ({
    "formletter.template": row.template,
    "formletter.channel": row.message.channel,
    "formletter.transport": transport.name,
  });
  return inSpan(spanNames.delivery, attributes, "the delivery threw", (span) => {
    const trying = tryDelivery(row, transport, retry, clock);
    // Untraced, the attempt's own promise: nothing to add to a span that records nothing.
    if (!span.isRecording()) return trying;
    return trying.then((outcome) => {
      span.setAttributes({
        "formletter.delivery.status": outcome.status,
        "formletter.delivery.attempts": outcome.attempts,
      });
      // The transport's error text may quote the address or the message: the status says only that it failed.
      if (outcome.status !== "delivered")
        span.setStatus({ code: errorStatus, message: `delivery ${outcome.status}` });
      return outcome;
    });
  });
}

async function tryDelivery(
  row: OutboundRow,
  transport: Transport,
  retry: Required<RetryOptions>,
  clock: () => number,
): Promise<DeliveryOutcome> {
  const started = clock();
  const errors: string[] = [];
  const first = row.attempts + 1;
  // retry.attempts ≥ 1 (checked by createOutbox): the last try always returns.
  const last = first + retry.attempts - 1;
  for (let attempt = first; ; attempt++) {
    try {
      const receipt = await transport.deliver(row.message, { key: row.key, attempt });
      const receiptId = typeof receipt?.id === "string" ? receipt.id.slice(0, 200) : "";
      return { status: "delivered", attempts: attempt, receiptId, ms: clock() - started, errors };
    } catch (error) {
      errors.push(describeError(error));
      if (!isRetryable(error) || attempt >= last) {
        return { status: "failed", attempts: attempt, ms: clock() - started, errors };
      }
      await sleep(backoff(attempt - first + 1, retry));
    }
  }
}

/**
 * Records how a delivery ended, in one transaction: the row is marked, the outcome audited, and a
 * failed or in-doubt message becomes a `delivery_failed` queue item with the message attached.
 */
export async function settleDelivery(
  tx: StoreTransaction,
  row: OutboundRow,
  outcome: DeliveryOutcome,
  at: number,
  transport: string,
  resentInDoubt = false,
): Promise<string | undefined> {
  if (outcome.status === "delivered") {
    await tx.updateOutbound(row.id, {
      status: "delivered",
      attempts: outcome.attempts,
      deliveredAt: at,
      receiptId: outcome.receiptId,
      leaseUntil: undefined,
    });
    // The data built whole, in one literal: it is what every delivery keeps in the audit log, with the
    // versions that produced the message (a row an older formletter wrote has none).
    const data = resentInDoubt
      ? {
          outboundId: row.id,
          transport,
          attempts: outcome.attempts,
          ms: outcome.ms,
          errors: outcome.errors,
          resentInDoubt: true,
          status: "delivered",
          receiptId: outcome.receiptId,
          bodySha256: row.bodySha256,
          templateVersion: row.templateVersion,
          catalogVersion: row.catalogVersion,
        }
      : {
          outboundId: row.id,
          transport,
          attempts: outcome.attempts,
          ms: outcome.ms,
          errors: outcome.errors,
          status: "delivered",
          receiptId: outcome.receiptId,
          bodySha256: row.bodySha256,
          templateVersion: row.templateVersion,
          catalogVersion: row.catalogVersion,
        };
    await tx.appendAudit(deliveryEvent(row, at, "send", undefined, data));
    return undefined;
  }
  const data = {
    outboundId: row.id,
    transport,
    attempts: outcome.attempts,
    ms: outcome.ms,
    errors: outcome.errors,
    ...(resentInDoubt ? { resentInDoubt: true } : {}),
    // The failed-delivery item is read as decided under these, like the decision that wrote the row.
    templateVersion: row.templateVersion,
    catalogVersion: row.catalogVersion,
  };
  const status = outcome.status;
  await tx.updateOutbound(row.id, { status, attempts: outcome.attempts, leaseUntil: undefined });
  const failed = escalate({
    reason: "delivery_failed",
    detail:
      status === "in_doubt"
        ? inDoubtDetail
        : `delivery failed after ${outcome.attempts} attempt(s): ${outcome.errors.at(-1) ?? "unknown error"}`,
    status,
    attempts: outcome.attempts,
    ticketId: row.ticketId,
    template: row.template,
    key: row.key,
    draft: row.message,
  });
  const auditId = await tx.appendAudit(
    deliveryEvent(
      row,
      at,
      "escalate",
      failed.reason,
      Object.assign(data, { status, facts: escalationFacts(failed) }),
    ),
  );
  return tx.addQueueItem(
    openQueueItem({
      reason: failed.reason,
      ticketId: row.ticketId,
      runId: row.runId,
      template: row.template,
      detail: failed.detail,
      key: row.key,
      draft: row.message,
      createdAt: at,
      auditId,
      outboundId: row.id,
    }),
  );
}

/**
 * Records a claimed row whose destination is suppressed, in the transaction that read the suppression: no
 * transport was called. The row is marked `failed` (approving its item puts the same row, same key, back
 * to pending), the outcome audited as a `destination_suppressed` escalation, and a queue item opened with
 * the message attached, for a person to approve once the suppression is lifted. Returns the item's id.
 */
export async function settleSuppressed(
  tx: StoreTransaction,
  row: OutboundRow,
  suppression: Suppression,
  at: number,
  transport: string,
): Promise<string> {
  await tx.updateOutbound(row.id, { status: "failed", leaseUntil: undefined });
  const { cause, provider } = suppression;
  const blocked = escalate({
    reason: "destination_suppressed",
    detail: `${row.template}: not sent, the recipient's destination was suppressed after the message was written (${cause === "complaint" ? "its owner complained" : "it bounced for good"}, reported by ${provider}); lift the suppression, then approve to send it`,
    cause,
    destination: destinationShown(suppression.destination),
    ticketId: row.ticketId,
    template: row.template,
    key: row.key,
    draft: row.message,
  });
  const auditId = await tx.appendAudit(
    deliveryEvent(row, at, "escalate", blocked.reason, {
      outboundId: row.id,
      transport,
      attempts: row.attempts,
      status: "failed",
      suppressedBy: suppression.auditId,
      // The queue item is read as decided under these, like the decision that wrote the row.
      templateVersion: row.templateVersion,
      catalogVersion: row.catalogVersion,
      facts: escalationFacts(blocked),
    }),
  );
  return tx.addQueueItem(
    openQueueItem({
      reason: blocked.reason,
      ticketId: row.ticketId,
      runId: row.runId,
      template: row.template,
      detail: blocked.detail,
      key: row.key,
      draft: row.message,
      createdAt: at,
      auditId,
      outboundId: row.id,
    }),
  );
}

/** The audit event of a delivery's outcome. Built whole, not spread: see merged(). */
function deliveryEvent(
  row: OutboundRow,
  at: number,
  outcome: "send" | "escalate",
  reason: EscalationReason | undefined,
  data: Readonly<Record<string, unknown>>,
) {
  return {
    at,
    type: "delivery" as const,
    ticketId: row.ticketId,
    runId: row.runId,
    template: row.template,
    outcome,
    reason,
    key: row.key,
    actor: "outbox",
    data,
  };
}

function backoff(retry: number, options: Required<RetryOptions>): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (retry - 1));
  // Full jitter: retries from many workers do not arrive at the provider in step.
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

function sleep(ms: number): Promise<void> {
  return ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms));
}

/** A short, single-line description of a transport error for the audit log. */
function describeError(error: unknown): string {
  return snippet(error instanceof Error ? `${error.name}: ${error.message}` : String(error), 300);
}
