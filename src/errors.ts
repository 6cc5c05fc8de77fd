/** Stable codes for every error formletter throws. Callers `switch` on these, never on messages. */
export type FormletterErrorCode =
  | "records_definition_invalid"
  | "template_invalid"
  | "catalog_invalid"
  | "records_invalid"
  | "delivery_failed"
  | "transport_invalid"
  | "outbox_invalid"
  | "handle_invalid"
  | "queue_item_not_found"
  | "queue_transition_invalid"
  | "store_invalid"
  | "store_unavailable"
  | "relay_invalid"
  | "relay_request_failed"
  | "dependency_missing";

const marker = Symbol.for("formletter.error");

/**
 * Base class of every error formletter throws. Errors are thrown only for definition-time mistakes
 * (a bad records schema, template or catalog) — never for model output or records at run time.
 *
 * @example
 * import { isFormletterError } from "formletter";
 * try { createCatalog(records, templates) } catch (e) { if (isFormletterError(e)) console.error(e.code, e.message) }
 */
export class FormletterError extends Error {
  readonly code: FormletterErrorCode;
  readonly [marker] = true;

  constructor(code: FormletterErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "FormletterError";
    this.code = code;
  }
}

/** A template, records schema or catalog that cannot be used; thrown once, at start-up. */
export class DefinitionError extends FormletterError {
  /** The template id at fault, when there is one. */
  readonly template: string | undefined;
  /** The slot at fault, when there is one. */
  readonly slot: string | undefined;

  constructor(
    code: FormletterErrorCode,
    message: string,
    where: { template?: string | undefined; slot?: string | undefined } = {},
  ) {
    super(code, message);
    this.name = "DefinitionError";
    this.template = where.template;
    this.slot = where.slot;
  }
}

/**
 * True for any error thrown by formletter, also when two copies of the package are installed.
 *
 * @example
 * import { isFormletterError } from "formletter";
 * if (isFormletterError(error) && error.code === "template_invalid") process.exit(1);
 */
export function isFormletterError(value: unknown): value is FormletterError {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[marker] === true;
}

/**
 * What an outbox call had made durable, and sent, when the store failed it. Each field is a fact, not
 * a guess: "unknown" only where the store cannot know (the connection broke while COMMIT was on its way).
 */
export interface OutboxWrites {
  /**
   * The call's decision — for `handle()` its audit event, idempotency key and outbound row or queue
   * item; for an approval the approved item and its outbound row; for `flush()` the claim of the row
   * (marked `delivering`): "written", "not_written", or "unknown".
   */
  readonly decision: "written" | "not_written" | "unknown";
  /**
   * Whether the message went out: "not_attempted" (no transport was called), "delivered" (the transport
   * accepted it) or "failed" (the transport refused it on its last try).
   */
  readonly delivery: "not_attempted" | "delivered" | "failed";
  /**
   * Whether that outcome is in the store: "written", "not_written" (the row stays `delivering`, and a
   * later `flush()` treats it as in doubt, never as unsent), or "not_applicable" (nothing was attempted).
   */
  readonly outcome: "written" | "not_written" | "not_applicable";
  readonly auditId?: string;
  readonly outboundId?: string;
  /** The idempotency key of the message, when there is one. */
  readonly key?: string;
  /** The transport's receipt, when it delivered. */
  readonly receiptId?: string;
}

/**
 * The store could not be reached, or the connection broke before the work was done. `retryable` says
 * whether trying again may succeed: true for lost connections, a database starting, shutting down or
 * locked by another process; false once the store is closed.
 *
 * `committed` is whether the failed call wrote anything: `false` nothing, `true` something (`writes`
 * says what), `"unknown"` when the connection broke while COMMIT was on its way. Thrown by a store, it is
 * about that one transaction; thrown by the outbox (`handle()`, `queue.approve()`, `flush()`), about the
 * whole call, and `writes` says what was and was not written and sent. Retrying `handle()` is safe in
 * every case: a committed decision makes the retry a duplicate, and a delivered message is never handed
 * to a transport again.
 *
 * @example
 * import { StoreUnavailableError } from "formletter";
 * try { await outbox.handle(input) } catch (e) { if (e instanceof StoreUnavailableError && e.retryable) retryLater(input) }
 */
export class StoreUnavailableError extends FormletterError {
  /** Whether trying again later may succeed. */
  readonly retryable: boolean;
  /** Whether the failed call wrote anything: false, true (see `writes`), or "unknown". */
  readonly committed: boolean | "unknown";
  /** Set when the outbox throws it: what the call wrote and sent before the store failed. */
  readonly writes: OutboxWrites | undefined;

  constructor(
    message: string,
    options: {
      retryable: boolean;
      committed?: boolean | "unknown";
      writes?: OutboxWrites;
      cause?: unknown;
    },
  ) {
    super("store_unavailable", message, { cause: options.cause });
    this.name = "StoreUnavailableError";
    this.retryable = options.retryable;
    this.committed = options.committed ?? false;
    this.writes = options.writes;
  }
}

/** True for a store that failed for want of its database (not for a bad query or a bug): see above. */
export function isStoreUnavailable(error: unknown): error is StoreUnavailableError {
  return (
    isFormletterError(error) &&
    error.code === "store_unavailable" &&
    typeof (error as { retryable?: unknown }).retryable === "boolean"
  );
}

/** Throws a template definition error whose message names the template, the slot and the fix. */
export function templateError(template: string, message: string, slot?: string): never {
  const where = slot === undefined ? `template "${template}"` : `template "${template}", slot "${slot}"`;
  throw new DefinitionError("template_invalid", `${where}: ${message}`, { template, slot });
}
