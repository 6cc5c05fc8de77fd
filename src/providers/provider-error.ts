import { snippet } from "../core/message/sanitize.js";
import { DeliveryError } from "../transport/transport.js";

/**
 * Why a provider refused or did not confirm a message, as a closed list the queue and metrics can
 * group by. Retryable: `rate_limited`, `server_error`, `timeout`, `network`, `busy`. Permanent: the rest.
 */
export type ProviderFailureReason =
  | "rate_limited"
  | "server_error"
  | "timeout"
  | "network"
  | "busy"
  | "auth_failed"
  | "recipient_invalid"
  | "recipient_inactive"
  | "sender_rejected"
  | "account_blocked"
  | "quota_exceeded"
  | "idempotency_conflict"
  | "invalid_request"
  | "unconfirmed";

const retryableReasons: ReadonlySet<ProviderFailureReason> = new Set([
  "rate_limited",
  "server_error",
  "timeout",
  "network",
  "busy",
]);

/** The facts a provider's failure carries, besides the message text. */
export interface ProviderFailure {
  readonly reason: ProviderFailureReason;
  /** The HTTP status of the provider's answer; undefined when there was none (timeout, network). */
  readonly status?: number;
  /** The provider's own error code: Postmark's `ErrorCode` (a number), Resend's error `name`. */
  readonly providerCode?: number | string;
  /** The provider's error text, shortened to one printable line. */
  readonly detail?: string;
}

/**
 * A delivery a provider refused or did not confirm. `retryable` follows from `reason`; the outbox
 * retries with backoff or hands the message to a person with these facts.
 */
export class ProviderDeliveryError extends DeliveryError {
  static override readonly brand: string = "ProviderDeliveryError";
  readonly provider: string;
  readonly reason: ProviderFailureReason;
  readonly status: number | undefined;
  readonly providerCode: number | string | undefined;

  constructor(provider: string, failure: ProviderFailure, cause?: unknown) {
    const status = failure.status === undefined ? "" : ` ${failure.status}`;
    const code = failure.providerCode === undefined ? "" : ` (${String(failure.providerCode)})`;
    const detail =
      failure.detail === undefined || failure.detail === "" ? "" : `: ${snippet(failure.detail)}`;
    super(`${provider}: ${failure.reason}${status}${code}${detail}`, {
      retryable: retryableReasons.has(failure.reason),
      cause,
    });
    this.name = "ProviderDeliveryError";
    this.provider = provider;
    this.reason = failure.reason;
    this.status = failure.status;
    this.providerCode = failure.providerCode;
  }
}

/** The reason for an HTTP status that no provider-specific code explains: 429 and 5xx are worth a retry. */
export function reasonForStatus(status: number): ProviderFailureReason {
  if (status === 429) return "rate_limited";
  if (status >= 500) return "server_error";
  if (status === 401 || status === 403) return "auth_failed";
  return "invalid_request";
}

/**
 * The reason for a failure that came with no answer, from the code an axios-based SDK gives it: the
 * HTTP client's codes say timeout or network; no code at all is the SDK refusing the request before
 * sending it (its own validation), which no retry changes.
 */
export function unansweredReason(code: unknown): ProviderFailureReason {
  if (code === "ECONNABORTED" || code === "ETIMEDOUT") return "timeout";
  return typeof code === "string" ? "network" : "invalid_request";
}
