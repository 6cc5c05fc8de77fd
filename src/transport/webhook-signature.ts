// The signature on webhook deliveries, so a receiver can tell a formletter POST from a forged or
// replayed one. The scheme is documented on verifyWebhookSignature, where receivers look for it.
import { createHmac, timingSafeEqual } from "node:crypto";
import { FormletterError } from "../errors.js";

/**
 * The name of the header carrying the signature, lower-case as HTTP/2 and most frameworks expose it.
 *
 * @example
 * import { webhookSignatureHeader } from "formletter";
 * const header = request.headers[webhookSignatureHeader]; // "t=…,v1=…"
 */
export const webhookSignatureHeader = "formletter-signature";

/**
 * Options of {@link verifyWebhookSignature}.
 *
 * @example
 * import { verifyWebhookSignature } from "formletter";
 * verifyWebhookSignature(rawBody, header, secret, { toleranceSeconds: 60 });
 */
export interface VerifyWebhookSignatureOptions {
  /** How far the signed time may be from now, either way, in seconds. @default 300 */
  readonly toleranceSeconds?: number;
  /** The current time in unix seconds, for tests. @default Math.floor(Date.now() / 1000) */
  readonly now?: number;
}

function requireSecret(secret: string, where: string): void {
  if (typeof secret !== "string" || secret === "") {
    throw new FormletterError(
      "transport_invalid",
      `${where}: the webhook secret is empty; pass the secret shared with the sender`,
    );
  }
}

function hmacHex(secret: string, timestamp: number, rawBody: string | Uint8Array): string {
  return createHmac("sha256", secret).update(`${timestamp}.`).update(rawBody).digest("hex");
}

/**
 * Computes the `formletter-signature` header value for a body: what the webhook transport sends,
 * and what a receiver's tests can use to build signed requests.
 *
 * @example
 * import { signWebhookBody } from "formletter";
 * const header = signWebhookBody('{"key":"fl_1"}', process.env.WEBHOOK_SECRET ?? "", 1767225600);
 * // "t=1767225600,v1=5f…"
 */
export function signWebhookBody(
  rawBody: string | Uint8Array,
  secret: string,
  timestamp: number = Math.floor(Date.now() / 1000),
): string {
  requireSecret(secret, "signWebhookBody");
  return `t=${timestamp},v1=${hmacHex(secret, timestamp, rawBody)}`;
}

const digits = /^\d{1,15}$/;
const sha256Hex = /^[0-9a-f]{64}$/i;

/**
 * Checks a webhook request's `formletter-signature` header against its raw body and the shared secret.
 * Returns false for a missing, malformed, stale or wrong signature; never throws on request input.
 *
 * The scheme: the header is `t=<unix seconds>,v1=<hex HMAC-SHA256>`, the HMAC keyed with the shared
 * secret over the bytes `"<t>." + <raw request body>`. To verify (this function, or your own code in
 * another language): take the raw body exactly as received, before any JSON parsing; recompute the
 * HMAC for the header's `t`; compare it with each `v1` in constant time; and reject a `t` further than
 * the tolerance from now, so a captured request cannot be replayed later. The `idempotency-key`
 * header (also the body's `key`) repeats on retries of the same message: deduplicate on it.
 *
 * @example
 * import { verifyWebhookSignature } from "formletter";
 * const ok = verifyWebhookSignature(rawBody, request.headers["formletter-signature"], secret, { toleranceSeconds: 300 });
 * if (!ok) return response.writeHead(401).end();
 */
export function verifyWebhookSignature(
  rawBody: string | Uint8Array,
  header: string | readonly string[] | null | undefined,
  secret: string,
  options: VerifyWebhookSignatureOptions = {},
): boolean {
  requireSecret(secret, "verifyWebhookSignature");
  // Node gives an array for a repeated header: a signed request carries exactly one.
  if (typeof header !== "string" || header.length > 2048) return false;
  let timestamp: number | undefined;
  const candidates: string[] = [];
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (name === "t" && digits.test(value)) timestamp = Number(value);
    // Several v1 values let a sender sign with an old and a new secret while a rotation is under way.
    else if (name === "v1" && sha256Hex.test(value)) candidates.push(value.toLowerCase());
  }
  if (timestamp === undefined || candidates.length === 0) return false;
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? 300;
  if (!(Math.abs(now - timestamp) <= tolerance)) return false;
  const expected = Buffer.from(hmacHex(secret, timestamp, rawBody), "hex");
  let match = false;
  // Every candidate is compared, so the time taken does not tell which one matched.
  for (const candidate of candidates) {
    if (timingSafeEqual(expected, Buffer.from(candidate, "hex"))) match = true;
  }
  return match;
}
