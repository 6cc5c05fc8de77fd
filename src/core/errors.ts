/**
 * Stable codes for every error formletter throws. Callers `switch` on these, never on messages.
 *
 * Definition time (thrown once, at start-up, by the call named):
 * - `records_definition_invalid`: `defineRecords` — a schema or label that cannot be used.
 * - `template_invalid`: `defineTemplate` — a template that cannot render safely (a `DefinitionError`
 *   naming the template, slot and fix).
 * - `catalog_invalid`: `createCatalog` — duplicate ids, foreign templates, bad escalation codes.
 * - `transport_invalid`: a transport factory given options that cannot work.
 * - `outbox_invalid`: `createOutbox` given options that cannot work; also a call on a closed outbox.
 * - `store_invalid`: a store that cannot be opened as configured (bad path, schema of a newer version);
 *   also a call through a store transaction that has already ended.
 * - `relay_invalid`: `createRelay` given options that cannot work.
 *
 * Run time (thrown by a call; model output and records never throw, they escalate):
 * - `records_invalid`: `catalog.handles/describe/tools/proposalSchema` given invalid ticket records.
 * - `handle_invalid`: `outbox.handle` given an input that is not `{ ticketId, output, runId, tags? }`.
 * - `queue_item_not_found` / `queue_transition_invalid` / `queue_actor_invalid`: a `QueueError` from the
 *   human queue (an unknown id, a transition its status does not allow, no readable name of who acts).
 * - `delivery_failed`: a `DeliveryError` a transport throws; `retryable` says whether to try again.
 * - `store_unavailable`: a `StoreUnavailableError`; `retryable` and `committed` say what to do.
 * - `relay_request_failed`: a `RelayRequestError` the relay client throws for a refused request.
 */
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
  | "queue_actor_invalid"
  | "store_invalid"
  | "store_unavailable"
  | "relay_invalid"
  | "relay_request_failed"
  | "dependency_missing";

// Shared by every installed copy of formletter (Symbol.for), so an error of one copy is recognised by another.
const marker = Symbol.for("formletter.error");
const kinds = Symbol.for("formletter.error.kinds");

/** A formletter error class: its `brand` is the name `instanceof` recognises across copies. */
interface BrandedClass {
  readonly brand?: string;
}

/**
 * Base class of every error formletter throws: at start-up for a definition that cannot work (a bad
 * records schema, template, catalog, outbox or relay: `DefinitionError` and friends), and at run time
 * for a call that cannot be done (invalid input to `handle()`, a queue transition, a store out of
 * reach, a delivery that failed). Model output and ticket records never throw: they escalate. See
 * {@link FormletterErrorCode} for every code.
 *
 * `instanceof` works across two installed copies of the package: each class has a brand, every error
 * carries the brands of its classes under a `Symbol.for` key, and `Symbol.hasInstance` reads them.
 * Decide what to do by `code` (and `retryable` where there is one), not by class.
 *
 * @example
 * import { isFormletterError } from "formletter";
 * try { createCatalog(records, templates) } catch (e) { if (isFormletterError(e)) console.error(e.code, e.message) }
 */
export class FormletterError extends Error {
  /** The name `instanceof` checks for, in every copy of the package. */
  static readonly brand: string = "FormletterError";
  readonly code: FormletterErrorCode;
  readonly [marker] = true;
  /** The brands of this error's classes, most derived first. */
  readonly [kinds]: readonly string[];

  constructor(code: FormletterErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "FormletterError";
    this.code = code;
    this[kinds] = brandsOf(new.target);
  }

  /** `error instanceof DeliveryError` is true for a DeliveryError of any installed copy. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class on the right of instanceof, maybe a subclass.
    return isInstance(this, value);
  }
}

/** `value instanceof type`, by brand for formletter's classes, by prototype for classes without one. */
function isInstance(type: object, value: unknown): boolean {
  if (!Object.hasOwn(type, "brand")) return Function.prototype[Symbol.hasInstance].call(type, value);
  const brand = (type as BrandedClass).brand as string;
  const carried = isFormletterError(value) ? (value as { [kinds]?: unknown })[kinds] : undefined;
  return Array.isArray(carried) && carried.includes(brand);
}

/** The brands along a class's chain, up to FormletterError; classes without one of their own are skipped. */
function brandsOf(target: unknown): string[] {
  const brands: string[] = [];
  for (let type = target; typeof type === "function"; type = Object.getPrototypeOf(type)) {
    if (Object.hasOwn(type, "brand")) brands.push((type as BrandedClass).brand as string);
    if (type === FormletterError) break;
  }
  return brands;
}

/** A template, records schema or catalog that cannot be used; thrown once, at start-up. */
export class DefinitionError extends FormletterError {
  static override readonly brand: string = "DefinitionError";
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
  static override readonly brand: string = "StoreUnavailableError";
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
