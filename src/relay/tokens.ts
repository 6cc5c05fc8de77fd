import { createSecretKey, type KeyObject, randomUUID } from "node:crypto";
import { SignJWT } from "jose";
import { actorNameOf, isVisibleId, visibleNameRule } from "../core/visible-name.js";
import { RelayError } from "./errors.js";

/**
 * The audience of task tokens: what an agent presents to the agent endpoints.
 *
 * @example
 * import { agentAudience } from "formletter/relay";
 * import { jwtVerify } from "jose";
 * await jwtVerify(token, key, { algorithms: ["HS256"], audience: agentAudience });
 */
export const agentAudience = "formletter-agent";

/**
 * The audience of operator tokens: what a person's tool presents to the queue and report endpoints.
 *
 * @example
 * import { operatorAudience } from "formletter/relay";
 * import { decodeJwt } from "jose";
 * const isOperator = decodeJwt(token).aud === operatorAudience;
 */
export const operatorAudience = "formletter-operator";

/**
 * Who a token is for.
 *
 * @example
 * import type { TokenAudience } from "formletter/relay";
 * const audience: TokenAudience = "formletter-agent";
 */
export type TokenAudience = typeof agentAudience | typeof operatorAudience;

/** The issuer written into tokens and required of them, unless the relay is given another. */
export const defaultIssuer = "formletter";

/** Longest life of a task token, in seconds: one agent run, never a standing credential. */
export const maxTaskTtl = 86_400;

/** Longest life of an operator token, in seconds: a working week. */
export const maxOperatorTtl = 7 * 86_400;

/**
 * Options of {@link mintTaskToken}.
 *
 * @example
 * import { mintTaskToken } from "formletter/relay";
 * const token = await mintTaskToken({ secret: process.env.FORMLETTER_SECRET ?? "", ticketId: "T-1", runId: "run-9", ttl: 600 });
 */
export interface MintTaskTokenOptions {
  /** The relay's agent secret (`FORMLETTER_SECRET`): at least 32 bytes. */
  readonly secret: string | Uint8Array;
  /** The one ticket the token may act on. */
  readonly ticketId: string;
  /** The agent run; the outbox counts `maxPerRun` sends per run. */
  readonly runId: string;
  /** Seconds until the token expires, from 1 to 86,400. @default 900 */
  readonly ttl?: number;
  /** The `iss` claim; the relay must be given the same. @default "formletter" */
  readonly issuer?: string;
  /** Epoch milliseconds the token is issued at. @default Date.now() */
  readonly now?: number;
}

/**
 * Options of {@link mintOperatorToken}.
 *
 * @example
 * import { mintOperatorToken } from "formletter/relay";
 * const token = await mintOperatorToken({ secret: process.env.FORMLETTER_OPERATOR_SECRET ?? "", operator: "ana@example.com" });
 */
export interface MintOperatorTokenOptions {
  /** The relay's operator secret (`FORMLETTER_OPERATOR_SECRET`): at least 32 bytes. */
  readonly secret: string | Uint8Array;
  /** Who acts with the token; the audit log names them on every queue action. */
  readonly operator: string;
  /** Seconds until the token expires, from 1 to 604,800. @default 28800 */
  readonly ttl?: number;
  /** The `iss` claim; the relay must be given the same. @default "formletter" */
  readonly issuer?: string;
  /** Epoch milliseconds the token is issued at. @default Date.now() */
  readonly now?: number;
}

/**
 * A signing secret as bytes, checked: HS256 is only as strong as its key, so anything shorter than the
 * hash (32 bytes) is refused at start-up.
 */
export function secretBytes(secret: unknown, option: string): Uint8Array {
  const bytes =
    typeof secret === "string"
      ? new TextEncoder().encode(secret)
      : secret instanceof Uint8Array
        ? secret
        : undefined;
  if (bytes === undefined || bytes.byteLength < 32) {
    throw new RelayError(
      "relay_invalid",
      `${option} must be at least 32 bytes of random data (e.g. the output of \`openssl rand -base64 48\`); got ${bytes === undefined ? typeof secret : `${bytes.byteLength} bytes`}`,
    );
  }
  return bytes;
}

/** A signing key made once, so no request pays for importing it. */
export function secretKey(bytes: Uint8Array): KeyObject {
  return createSecretKey(Buffer.from(bytes));
}

/** What a token is signed with: the imported key (or the raw secret) and the issuer. */
export interface SigningKey {
  readonly key: KeyObject | Uint8Array;
  readonly issuer: string;
}

/**
 * A name for a token's subject, held to the visible-name rule: the ticket and run of a task token, as
 * written, or who acts with an operator token, trimmed. The refusal states the rule, never the value.
 */
function checkName(value: unknown, name: string, kind: "id" | "actor"): string {
  const checked = kind === "id" ? (isVisibleId(value) ? value : undefined) : actorNameOf(value);
  if (checked === undefined) {
    const ends = kind === "id" ? ", with no space at either end" : "";
    throw new RelayError("relay_invalid", `${name} must be ${visibleNameRule}${ends}`);
  }
  return checked;
}

function checkTtl(ttl: unknown, fallback: number, max: number): number {
  const seconds = ttl ?? fallback;
  if (typeof seconds !== "number" || !Number.isInteger(seconds) || seconds < 1 || seconds > max) {
    throw new RelayError("relay_invalid", `ttl must be a whole number of seconds from 1 to ${max}`);
  }
  return seconds;
}

/** Signs a token: HS256 only, with audience, issuer, issue time, expiry and a unique id. */
async function signToken(
  signing: SigningKey,
  claims: { audience: TokenAudience; subject: string; run?: string; ttl: number; now: number },
): Promise<string> {
  const issuedAt = Math.floor(claims.now / 1000);
  return new SignJWT(claims.run === undefined ? {} : { run: claims.run })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(claims.subject)
    .setAudience(claims.audience)
    .setIssuer(signing.issuer)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + claims.ttl)
    .setJti(randomUUID())
    .sign(signing.key);
}

/** A task token, checked and signed: the relay's `mintTaskToken` and the standalone one share this. */
export async function signTaskToken(
  signing: SigningKey,
  options: { ticketId: unknown; runId: unknown; ttl?: unknown; now?: number | undefined },
): Promise<string> {
  return signToken(signing, {
    audience: agentAudience,
    subject: checkName(options.ticketId, "ticketId", "id"),
    run: checkName(options.runId, "runId", "id"),
    ttl: checkTtl(options.ttl, 900, maxTaskTtl),
    now: options.now ?? Date.now(),
  });
}

/** An operator token, checked and signed. */
export async function signOperatorToken(
  signing: SigningKey,
  options: { operator: unknown; ttl?: unknown; now?: number | undefined },
): Promise<string> {
  return signToken(signing, {
    audience: operatorAudience,
    subject: checkName(options.operator, "operator", "actor"),
    ttl: checkTtl(options.ttl, 28_800, maxOperatorTtl),
    now: options.now ?? Date.now(),
  });
}

/**
 * Mints a task token without a running relay, e.g. in the service that starts agent runs: a JWT
 * (HS256) for one ticket and one run, with audience "formletter-agent", an issuer, an expiry and a
 * unique id. The agent gets only this token: it cannot name another ticket, and it expires.
 *
 * @example
 * import { mintTaskToken } from "formletter/relay";
 * const token = await mintTaskToken({ secret: process.env.FORMLETTER_SECRET ?? "", ticketId: "T-1", runId: "run-9" });
 * await startAgent({ relayUrl: "http://127.0.0.1:8787", token });
 */
export async function mintTaskToken(options: MintTaskTokenOptions): Promise<string> {
  const key = secretBytes(options?.secret, "secret");
  return signTaskToken({ key, issuer: options.issuer ?? defaultIssuer }, options);
}

/**
 * Mints an operator token without a running relay: audience "formletter-operator", subject the person
 * (who the audit log names on each queue action), signed with the operator secret.
 *
 * @example
 * import { mintOperatorToken } from "formletter/relay";
 * const token = await mintOperatorToken({ secret: process.env.FORMLETTER_OPERATOR_SECRET ?? "", operator: "ana@example.com", ttl: 3600 });
 */
export async function mintOperatorToken(options: MintOperatorTokenOptions): Promise<string> {
  const key = secretBytes(options?.secret, "operatorSecret");
  return signOperatorToken({ key, issuer: options.issuer ?? defaultIssuer }, options);
}
