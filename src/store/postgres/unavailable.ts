import { staleReadState } from "./migrations.js";

// Defined with the errors, as every store throws it; exported from here too, where it was first.
export { StoreUnavailableError } from "../../core/errors.js";

// SQLSTATE classes and codes that mean "not now": connection exceptions, the server shutting down,
// starting up or crashing, too many connections or out of resources.
const unavailableStates = /^(08|53|57P0[1-4])/;
const unavailableCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENETDOWN",
  "EAI_AGAIN",
]);
// node-postgres reports a dropped socket or a refused pool checkout by message only.
const unavailableMessages =
  /connection terminated|not queryable|connection error|timeout exceeded when trying to connect|connection timeout|cannot connect now/i;

/** True when an error from `pg` means the connection or the server is gone, not that the SQL failed. */
export function isConnectionError(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === "string" && (unavailableCodes.has(code) || unavailableStates.test(code))) return true;
  if (error instanceof AggregateError) return error.errors.some(isConnectionError);
  return typeof message === "string" && unavailableMessages.test(message);
}

/** True for a deadlock or a serialization failure: the transaction was rolled back and may run again. */
export function isContention(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "40P01" || code === "40001";
}

/**
 * True for the failed check of an answer given without reading (see `apply`): run the transaction again.
 * In an optimistic transaction a unique violation is one too: a key it took as new, and reserved, was
 * reserved by another transaction first (see Pending.keysToCheck).
 */
export function isStaleRead(error: unknown, optimistic: boolean): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === staleReadState || (optimistic && code === "23505");
}
