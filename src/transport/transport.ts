import type { Message } from "../core/decision/decision.js";
import { FormletterError, isFormletterError } from "../core/errors.js";

/** What a transport is told besides the message. */
export interface DeliveryContext {
  /** The decision's idempotency key: pass it on to providers that deduplicate (header, API field). */
  readonly key: string;
  /** 1 for the first try, 2 for the first retry, and so on. */
  readonly attempt: number;
}

/** What a transport reports after the provider accepted the message. */
export interface DeliveryReceipt {
  /** The provider's id for the message (SMTP message id, HTTP response id), for the audit log. */
  readonly id: string;
}

/**
 * Delivers rendered messages on one channel. A transport sends the message's `to`, `subject`, `text`
 * and `html` and nothing else: no cc, bcc, attachments or headers from outside the template.
 * It throws a {@link DeliveryError} to report a failure; `retryable: true` asks the outbox to try again.
 */
export interface Transport {
  /** A short name for the audit log, e.g. "smtp" or "webhook". */
  readonly name: string;
  deliver(message: Message, context: DeliveryContext): Promise<DeliveryReceipt>;
  /**
   * True only if the provider drops a second message with the same `context.key`: then `flush()` sends a
   * message whose earlier delivery is in doubt again, with its key, instead of handing it to a person.
   * @default false
   */
  readonly deduplicatesByKey?: boolean;
  /** Releases connections; called by `outbox.close()`. */
  close?(): Promise<void>;
}

/** A failed delivery. `retryable` says whether trying again later may succeed (timeouts, 5xx, 4xx SMTP). */
export class DeliveryError extends FormletterError {
  static override readonly brand: string = "DeliveryError";
  readonly retryable: boolean;

  constructor(message: string, options: { retryable: boolean; cause?: unknown }) {
    super("delivery_failed", message, { cause: options.cause });
    this.name = "DeliveryError";
    this.retryable = options.retryable;
  }
}

/**
 * True for a delivery failure worth retrying, read from the error's code and `retryable` (so an error
 * of another installed copy counts too); unknown errors are retried (they may be transient).
 */
export function isRetryable(error: unknown): boolean {
  if (!isFormletterError(error) || error.code !== "delivery_failed") return true;
  const retryable = (error as { retryable?: unknown }).retryable;
  return typeof retryable === "boolean" ? retryable : true;
}

/**
 * What is wrong with a transport's `timeoutMs`, or undefined: a whole number of milliseconds above 0
 * that a timer can hold (at most 2^31 − 1).
 */
export function timeoutProblem(timeoutMs: unknown): string | undefined {
  return Number.isInteger(timeoutMs) && (timeoutMs as number) > 0 && (timeoutMs as number) <= 2_147_483_647
    ? undefined
    : `timeoutMs must be a whole number of milliseconds > 0, got ${String(timeoutMs)}`;
}
