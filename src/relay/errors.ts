import { FormletterError, type FormletterErrorCode } from "../core/errors.js";

/**
 * The relay's error codes: `relay_invalid` for options that cannot work (thrown at start-up), and
 * `relay_request_failed` for a request the relay refused or could not answer (thrown by the client).
 *
 * @example
 * import type { RelayErrorCode } from "formletter/relay";
 * const retryable = (code: RelayErrorCode, status: number) => code === "relay_request_failed" && (status === 0 || status >= 500);
 */
export type RelayErrorCode = Extract<FormletterErrorCode, "relay_invalid" | "relay_request_failed">;

/**
 * A relay that cannot be built as configured: a short secret, the same secret for agents and operators,
 * a limit that is not a number. The message names the option and the fix.
 *
 * @example
 * import { isFormletterError } from "formletter";
 * try { createRelay(options) } catch (error) { if (isFormletterError(error) && error.code === "relay_invalid") process.exit(1) }
 */
export class RelayError extends FormletterError {
  static override readonly brand: string = "RelayError";
  constructor(code: RelayErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = "RelayError";
  }
}

/**
 * A request the relay answered with an error status, as the client reports it: the HTTP status and the
 * relay's own error code (`token_expired`, `rate_limited`, …), never a stack trace or internals.
 *
 * @example
 * import { RelayRequestError } from "formletter/relay";
 * try { await client.propose(output) } catch (error) { if (error instanceof RelayRequestError && error.status === 429) await pause(error.retryAfterSeconds) }
 */
export class RelayRequestError extends RelayError {
  static override readonly brand: string = "RelayRequestError";
  /** The HTTP status, or 0 when no answer arrived (connection refused, timeout). */
  readonly status: number;
  /** The relay's error code, e.g. "token_expired"; "network" when no answer arrived. */
  readonly problem: string;
  /** From the `Retry-After` header of a 429 or 503, in seconds. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    status: number,
    problem: string,
    message: string,
    options: { cause?: unknown; retryAfterSeconds?: number | undefined } = {},
  ) {
    super("relay_request_failed", message, { cause: options.cause });
    this.name = "RelayRequestError";
    this.status = status;
    this.problem = problem;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}
