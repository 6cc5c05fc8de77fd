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
  | "relay_request_failed";

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

/** Throws a template definition error whose message names the template, the slot and the fix. */
export function templateError(template: string, message: string, slot?: string): never {
  const where = slot === undefined ? `template "${template}"` : `template "${template}", slot "${slot}"`;
  throw new DefinitionError("template_invalid", `${where}: ${message}`, { template, slot });
}
