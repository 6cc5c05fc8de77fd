import { merged } from "../core/merged.js";
import { actorNameOf } from "../core/visible-name.js";
import type { AccessLog, Refusal } from "./access-log.js";
import type { AuditChoice } from "./audit-sample.js";
import { bearerToken, problem } from "./http.js";
import { readJsonBody } from "./json-body.js";
import type { RateDecision } from "./rate-limit.js";
import type { Issue, Place, SchemaText } from "./refusal.js";
import type { RelayMetrics } from "./relay-metrics.js";
import { methodName, noteRequest } from "./request-log.js";
import { operatorAudience, type TokenAudience } from "./tokens.js";
import type { TokenClaims, Verification } from "./verify-token.js";

/** What every guarded route passes or is refused at: the token, its rate, and the JSON body. */
export interface GateOptions {
  readonly verify: (token: string | undefined, audience: TokenAudience) => Verification;
  readonly rateLimit: (key: string) => RateDecision;
  readonly accessLog: AccessLog;
  /** Whether the next token refusal is audited: anyone can send those, so they are sampled. */
  readonly sampleTokenRefusal: () => AuditChoice;
  readonly metrics: RelayMetrics;
  readonly maxBodyBytes: number;
  /** Whether a verified token was revoked since it was minted: asked on every request it makes. */
  readonly revoked?: ((token: RevocationQuery) => boolean | Promise<boolean>) | undefined;
}

/**
 * What the relay asks about a token on each request, when it has a revocation check: the token's id,
 * and the ticket and run (task tokens) or the operator (operator tokens) it was minted for.
 */
export interface RevocationQuery {
  readonly id: string;
  readonly ticketId?: string;
  readonly runId?: string;
  readonly operator?: string;
}

/** A check passed, with its value, or the answer that refuses the request. */
export type Checked<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly response: Response };

// The claim that names who acts: `sub`, a key of the token format the relay itself defines.
const tokenSubjectPlace: Place = { part: "token", steps: [{ key: "sub" as SchemaText }] };

/** The checks, in the order a request meets them: token, rate, then body. Each refusal is audited. */
export function createGate(options: GateOptions) {
  const { accessLog, metrics } = options;

  const refuse = async (
    request: Request,
    route: string,
    refusal: Refusal,
    status: number,
    extra: {
      claims?: TokenClaims | undefined;
      /** The token's id, when its claims are not to be recorded. */
      tokenId?: string;
      headers?: Record<string, string>;
      /** Where the fault is and what was expected, for the message. */
      detail?: Omit<Issue, "code">;
      unaudited?: number;
    } = {},
  ): Promise<Response> => {
    metrics.refusal(refusal);
    noteRequest(request, { claims: extra.claims, refusal });
    // Written before the answer goes out: a client that saw the status can rely on the audit event.
    await accessLog.record({
      refusal,
      status,
      method: methodName(request),
      route,
      claims: extra.claims,
      tokenId: extra.tokenId,
      unaudited: extra.unaudited,
    });
    // The request may still be sending a body nobody will read: close the connection after the answer,
    // rather than drain what the client chose to send.
    return problem(
      status,
      merged(extra.detail ?? {}, { code: refusal }),
      merged(extra.headers ?? {}, { connection: "close" }),
    );
  };

  return {
    refuse,

    async authorize(request: Request, route: string, audience: TokenAudience): Promise<Checked<TokenClaims>> {
      const verification = options.verify(bearerToken(request.headers.get("authorization")), audience);
      if (!verification.ok) {
        noteRequest(request, { claims: verification.claims, refusal: verification.refusal });
        const status = verification.refusal === "wrong_audience" ? 403 : 401;
        const headers: Record<string, string> =
          status === 401 ? { "www-authenticate": 'Bearer realm="formletter", error="invalid_token"' } : {};
        const sampled = options.sampleTokenRefusal();
        if (!sampled.audit) {
          metrics.refusal(verification.refusal);
          metrics.unaudited(verification.refusal);
          const close = merged(headers, { connection: "close" });
          return { ok: false, response: problem(status, { code: verification.refusal }, close) };
        }
        return {
          ok: false,
          response: await refuse(request, route, verification.refusal, status, {
            claims: verification.claims,
            headers,
            unaudited: sampled.unaudited,
          }),
        };
      }
      let claims = verification.claims;
      if (claims.audience === operatorAudience) {
        // Who acts is the token's subject: held to the one rule for actor names before anything is
        // done or logged under it. The name refused is not noted, logged or audited.
        const actor = actorNameOf(claims.operator);
        if (actor === undefined) {
          const detail = { place: tokenSubjectPlace, expected: { kind: "name" } } as const;
          return {
            ok: false,
            response: await refuse(request, route, "actor_invalid", 400, { tokenId: claims.jti, detail }),
          };
        }
        claims = merged(claims, { operator: actor });
      }
      noteRequest(request, { claims });
      if (options.revoked !== undefined) {
        const query: RevocationQuery =
          claims.audience === operatorAudience
            ? { id: claims.jti, operator: claims.operator }
            : { id: claims.jti, ticketId: claims.ticketId, runId: claims.runId };
        let revoked: unknown;
        try {
          revoked = await options.revoked(query);
        } catch {
          revoked = undefined;
        }
        // A check that cannot answer, or answers neither true nor false, fails closed: the token is not
        // known to be good.
        if (typeof revoked !== "boolean")
          return { ok: false, response: problem(503, { code: "unavailable" }, { "retry-after": "1" }) };
        if (revoked) {
          const headers = { "www-authenticate": 'Bearer realm="formletter", error="invalid_token"' };
          return {
            ok: false,
            response: await refuse(request, route, "token_revoked", 401, { claims, headers }),
          };
        }
      }
      const rate = options.rateLimit(claims.jti);
      if (!rate.ok) {
        noteRequest(request, { refusal: "rate_limited" });
        const headers = { "retry-after": String(Math.max(1, Math.ceil(rate.retryAfterMs / 1000))) };
        // The first refusal of a window is audited; the rest of the burst is counted in the metrics
        // only, so a client that ignores Retry-After cannot turn its burst into a burst of writes.
        if (!rate.first) {
          metrics.refusal("rate_limited");
          metrics.unaudited("rate_limited");
          const close = merged(headers, { connection: "close" });
          return { ok: false, response: problem(429, { code: "rate_limited" }, close) };
        }
        return {
          ok: false,
          response: await refuse(request, route, "rate_limited", 429, { claims, headers }),
        };
      }
      return { ok: true, value: claims };
    },

    async body(request: Request, route: string, claims: TokenClaims): Promise<Checked<unknown>> {
      const body = await readJsonBody(request, options.maxBodyBytes);
      if (body.ok) return { ok: true, value: body.value };
      const detail: Omit<Issue, "code"> =
        body.refusal === "body_too_large" ? { expected: { kind: "bytes", max: options.maxBodyBytes } } : {};
      return {
        ok: false,
        response: await refuse(request, route, body.refusal, body.status, { claims, detail }),
      };
    },
  };
}

/** The relay's request checks. */
export type Gate = ReturnType<typeof createGate>;
