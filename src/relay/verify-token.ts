import { createHmac, type KeyObject, timingSafeEqual } from "node:crypto";
import { decodeJwt, decodeProtectedHeader, type JWTPayload } from "jose";
import { isVisibleId } from "../core/visible-name.js";
import { agentAudience, maxOperatorTtl, maxTaskTtl, operatorAudience, type TokenAudience } from "./tokens.js";

/** What a verified token grants: an agent one ticket and run, or an operator the queue. */
export type TokenClaims =
  | {
      readonly audience: typeof agentAudience;
      readonly ticketId: string;
      readonly runId: string;
      readonly jti: string;
      /** Epoch milliseconds. */
      readonly expiresAt: number;
    }
  | {
      readonly audience: typeof operatorAudience;
      readonly operator: string;
      readonly jti: string;
      readonly expiresAt: number;
    };

/** Why a token was refused; each is audited as an access event. */
export type TokenRefusal = "token_missing" | "token_invalid" | "token_expired" | "wrong_audience";

/** A token checked for one audience: its claims, or why it was refused (with what it claimed, if signed). */
export type Verification =
  | { readonly ok: true; readonly claims: TokenClaims }
  | { readonly ok: false; readonly refusal: TokenRefusal; readonly claims?: TokenClaims };

/** Options of {@link createTokenVerifier}. */
export interface TokenVerifierOptions {
  readonly agentKey: KeyObject;
  /** Without an operator key no operator token verifies. */
  readonly operatorKey: KeyObject | undefined;
  readonly issuer: string;
  readonly clock: () => number;
  /** Seconds of clock difference allowed between the minting host and the relay. */
  readonly clockToleranceSeconds: number;
  /** How long a verified token is remembered, in milliseconds (never past its expiry). */
  readonly cacheMs: number;
  /** How many verified tokens are remembered at most. */
  readonly cacheSize: number;
}

const maxTokenLength = 4096;
const compactJws = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/;

/**
 * True when `token` is a compact JWS whose protected header pins HS256 and whose signature is the
 * HMAC-SHA256 of its first two parts under `key`, compared in constant time.
 *
 * The HMAC is computed with node:crypto, synchronously: WebCrypto (which jose's verify uses) hands
 * every HMAC to the thread pool, and under load that hand-off costs more on the event loop than the
 * HMAC itself. jose still parses the header and the claims.
 */
function signedWith(token: string, key: KeyObject): boolean {
  if (!compactJws.test(token)) return false;
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    return false;
  }
  // Only what formletter mints: no other algorithm, and no extension a verifier would have to honour.
  if (
    header.alg !== "HS256" ||
    (header.typ !== undefined && header.typ !== "JWT") ||
    header.crit !== undefined
  )
    return false;
  const dot = token.lastIndexOf(".");
  const signature = token.slice(dot + 1);
  const expected = createHmac("sha256", key).update(token.slice(0, dot)).digest();
  const given = Buffer.from(signature, "base64url");
  // Only the canonical spelling: 43 characters carry 258 bits for 256, and a decoder ignores the last
  // two: four spellings of one signature would otherwise verify, each a different token to the cache
  // and to anyone who compares, logs or revokes tokens as strings.
  return (
    given.length === expected.length &&
    given.toString("base64url") === signature &&
    timingSafeEqual(given, expected)
  );
}

/**
 * Verifies bearer tokens, and remembers verified ones briefly (keyed by the whole compact token, so by
 * its id and signature): an agent run calls several endpoints with one token. A remembered token is
 * still refused once it expires.
 */
export function createTokenVerifier(options: TokenVerifierOptions) {
  const cache = new Map<string, { claims: TokenClaims; until: number }>();
  const tolerance = options.clockToleranceSeconds;

  const remember = (token: string, claims: TokenClaims, now: number) => {
    if (cache.size >= options.cacheSize) {
      // Oldest first: a Map iterates in insertion order.
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
    cache.set(token, { claims, until: Math.min(claims.expiresAt, now + options.cacheMs) });
  };

  const grant = (claims: TokenClaims, audience: TokenAudience): Verification =>
    claims.audience === audience ? { ok: true, claims } : { ok: false, refusal: "wrong_audience", claims };

  return (token: string | undefined, audience: TokenAudience): Verification => {
    if (token === undefined || token === "") return { ok: false, refusal: "token_missing" };
    if (token.length > maxTokenLength) return { ok: false, refusal: "token_invalid" };
    const now = options.clock();
    const cached = cache.get(token);
    if (cached !== undefined) {
      if (cached.until > now) return grant(cached.claims, audience);
      cache.delete(token);
    }
    let payload: JWTPayload;
    try {
      payload = decodeJwt(token);
    } catch {
      return { ok: false, refusal: "token_invalid" };
    }
    // The audience the token claims picks the key; the signature under that key then decides. An agent
    // token shown to an operator endpoint verifies under the agent key and is refused as wrong_audience.
    const tokenAudience: TokenAudience = payload.aud === operatorAudience ? operatorAudience : agentAudience;
    const key = tokenAudience === operatorAudience ? options.operatorKey : options.agentKey;
    if (key === undefined || !signedWith(token, key)) return { ok: false, refusal: "token_invalid" };
    // Signed with our key from here on: what it claims may go into the audit log, even when refused.
    const claims = claimsOf(payload, tokenAudience);
    if (claims === undefined || payload.aud !== tokenAudience || payload.iss !== options.issuer)
      return { ok: false, refusal: "token_invalid" };
    const seconds = now / 1000;
    const { iat, exp, nbf } = payload as { iat: number; exp: number; nbf?: unknown };
    if (nbf !== undefined && (typeof nbf !== "number" || nbf > seconds + tolerance))
      return { ok: false, refusal: "token_invalid" };
    if (iat > seconds + tolerance) return { ok: false, refusal: "token_invalid" };
    const maxAge = tokenAudience === agentAudience ? maxTaskTtl : maxOperatorTtl;
    // Past its expiry, or issued longer ago than any token of its kind may live.
    if (exp <= seconds - tolerance || seconds - iat - tolerance > maxAge)
      return { ok: false, refusal: "token_expired", claims };
    // A token that claims a longer life than any of its kind may have was not minted by formletter
    // (the minters cap it): refused however young it is, so the cap holds for tokens signed elsewhere.
    if (exp - iat > maxAge) return { ok: false, refusal: "token_invalid", claims };
    remember(token, claims, now);
    return grant(claims, audience);
  };
}

/** The claims formletter mints, read strictly: anything else signed with the key is not a token of ours. */
function claimsOf(payload: JWTPayload, audience: TokenAudience): TokenClaims | undefined {
  const { sub, jti, exp, iat } = payload;
  if (typeof sub !== "string") return undefined;
  // The token's id is logged and audited beside every request made with it: the characters of the
  // UUIDs formletter mints, and of any id written to be safe in a URL.
  if (typeof jti !== "string" || !/^[A-Za-z0-9._~-]{1,200}$/.test(jti)) return undefined;
  if (typeof exp !== "number" || !Number.isFinite(exp)) return undefined;
  if (typeof iat !== "number" || !Number.isFinite(iat)) return undefined;
  // An operator's name is held to the actor-name rule by the gate, which refuses it with a typed 400.
  if (audience === operatorAudience) return { audience, operator: sub, jti, expiresAt: exp * 1000 };
  // The ticket and run are shown in the audit log and log lines: held to the rule the minters apply.
  const run = payload.run;
  if (!isVisibleId(sub) || !isVisibleId(run)) return undefined;
  return { audience, ticketId: sub, runId: run, jti, expiresAt: exp * 1000 };
}
