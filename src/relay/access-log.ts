import type { Outbox } from "../outbox/index.js";
import type { TokenClaims, TokenRefusal } from "./verify-token.js";

/** Why the relay refused a request before doing any work; each one is an `access` audit event. */
export type Refusal =
  | TokenRefusal
  | "token_revoked"
  | "ticket_mismatch"
  | "session_mismatch"
  | "rate_limited"
  | "unsupported_media_type"
  | "body_too_large"
  | "body_malformed"
  | "body_invalid"
  | "actor_invalid";

/** One refused request, as the audit log records it. */
export interface AccessRefusal {
  readonly refusal: Refusal;
  readonly status: number;
  readonly method: string;
  /** The route pattern, e.g. "/v1/queue/:id/approve": never the raw URL, which the caller chose. */
  readonly route: string;
  /** What the token claimed, when it was signed with the relay's key (expired, wrong audience, …). */
  readonly claims?: TokenClaims | undefined;
  /** The token's id, when its claims are left out (a subject refused as an actor name). */
  readonly tokenId?: string | undefined;
  /** Refusals of the same kind left out of the log since the last one written (sampling). */
  readonly unaudited?: number | undefined;
}

/**
 * Writes `access` audit events through the outbox, into the same log as decisions. Refusals that arrive
 * together share the outbox's commits, so a burst of bad requests costs one fsync per turn of the event
 * loop, not one per request. A write that fails is counted, never thrown at the caller.
 */
export function createAccessLog(outbox: Outbox, clock: () => number, onFailure: () => void) {
  const pending = new Set<Promise<unknown>>();
  return {
    async record(event: AccessRefusal): Promise<void> {
      const { claims } = event;
      const agent = claims?.audience === "formletter-agent" ? claims : undefined;
      const data: Record<string, unknown> = {
        refusal: event.refusal,
        status: event.status,
        method: event.method,
        route: event.route,
      };
      if (event.unaudited !== undefined && event.unaudited > 0) data.unaudited = event.unaudited;
      if (event.tokenId !== undefined) data.jti = event.tokenId;
      if (claims !== undefined) {
        data.audience = claims.audience;
        data.jti = claims.jti;
        if (claims.audience === "formletter-operator") data.operator = claims.operator;
      }
      const written = outbox.audit
        .append({
          at: clock(),
          type: "access",
          ticketId: agent?.ticketId,
          runId: agent?.runId,
          template: undefined,
          outcome: undefined,
          reason: undefined,
          key: undefined,
          actor: "relay",
          data,
        })
        .then(
          () => undefined,
          () => onFailure(),
        );
      pending.add(written);
      await written;
      pending.delete(written);
    },
    /** Resolves once every write begun has committed or failed. */
    async idle(): Promise<void> {
      while (pending.size > 0) await Promise.all(pending);
    },
  };
}

/** The relay's access log. */
export type AccessLog = ReturnType<typeof createAccessLog>;
