import type { Refusal } from "./access-log.js";
import type { TokenClaims } from "./verify-token.js";

/**
 * Where the relay writes its log lines: `pino()` fits as it is, and so does any logger with these three
 * methods. The relay passes each a plain object of fields and a short fixed message; it never logs a
 * body, a token, a message, a record value or a query string.
 *
 * @example
 * import { pino } from "pino";
 * import { createRelay } from "formletter/relay";
 * createRelay({ outbox, secret, logger: pino() });
 */
export interface RelayLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

// Methods HTTP defines: a server the relay's fetch is mounted in may pass any token as a method.
const methods = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "CONNECT", "TRACE"]);

/** The request's method as logs and the audit log record it: a method HTTP defines, or "other". */
export function methodName(request: Request): string {
  return methods.has(request.method) ? request.method : "other";
}

/** What the checks learnt of a request: whose token it carried, and why it was refused. */
interface RequestFacts {
  claims?: TokenClaims | undefined;
  refusal?: Refusal | undefined;
}

// By request object: the gate and the routes' frame see the same one, and it is dropped with it.
const facts = new WeakMap<Request, RequestFacts>();

/** Notes what the gate found, for the request's log line. */
export function noteRequest(request: Request, found: RequestFacts): void {
  const known = facts.get(request) ?? {};
  if (found.claims !== undefined) known.claims = found.claims;
  if (found.refusal !== undefined) known.refusal = found.refusal;
  facts.set(request, known);
}

/** The fields naming the token's subject: the ticket and run of a task token, or the operator. */
function subjectFields(claims: TokenClaims | undefined): Record<string, string> {
  if (claims === undefined) return {};
  if (claims.audience === "formletter-agent")
    return { ticketId: claims.ticketId, runId: claims.runId, tokenId: claims.jti };
  return { operator: claims.operator, tokenId: claims.jti };
}

/**
 * The request log: one line per answered request with its method, route pattern (never the raw path or
 * query, which the caller chose), status, duration, the token's subject and the refusal code. A logger
 * that throws loses its line, never the answer.
 */
export function createRequestLog(logger: RelayLogger | undefined) {
  return (request: Request, route: string, status: number, milliseconds: number): void => {
    if (logger === undefined) return;
    const known = facts.get(request);
    const fields = {
      method: methodName(request),
      route,
      status,
      durationMs: Math.round(milliseconds * 100) / 100,
      ...subjectFields(known?.claims),
      ...(known?.refusal === undefined ? {} : { refusal: known.refusal }),
    };
    try {
      if (status >= 500) logger.error(fields, "request failed");
      else logger.info(fields, "request");
    } catch {
      // The log is for operators; the answer is for the caller, and goes out regardless.
    }
  };
}

/** The relay's request log. */
export type RequestLog = ReturnType<typeof createRequestLog>;
