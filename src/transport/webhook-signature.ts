// Webhook deliveries are signed per the Standard Webhooks specification (standardwebhooks.com), so a
// receiver verifies them with any Standard Webhooks library — `standardwebhooks` on npm, PyPI, Go, Ruby…
// — or with verifyWebhookSignature below. Signing is one HMAC, written here rather than depended on.
import { createHmac, timingSafeEqual } from "node:crypto";
import { FormletterError } from "../core/errors.js";

/**
 * The name of the header carrying the signatures (`v1,<base64>`, space-separated), lower-case as HTTP/2
 * and most frameworks expose it. It comes with `webhook-id` and `webhook-timestamp`.
 *
 * @example
 * import { webhookSignatureHeader } from "formletter";
 * const signatures = request.headers[webhookSignatureHeader]; // "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4="
 */
export const webhookSignatureHeader = "webhook-signature";

/** The three Standard Webhooks headers of a signed delivery. */
export interface WebhookSignatureHeaders {
  /** The message's id: formletter's idempotency key, the same on every retry. Deduplicate on it. */
  readonly "webhook-id": string;
  /** When this attempt was signed, in unix seconds. */
  readonly "webhook-timestamp": string;
  /** `v1,<base64 HMAC-SHA256>` per secret, space-separated. */
  readonly "webhook-signature": string;
}

/**
 * Options of {@link verifyWebhookSignature}.
 *
 * @example
 * import { verifyWebhookSignature } from "formletter";
 * verifyWebhookSignature(rawBody, request.headers, secret, { toleranceSeconds: 60 });
 */
export interface VerifyWebhookSignatureOptions {
  /** How far the signed time may be from now, either way, in seconds. @default 300 */
  readonly toleranceSeconds?: number;
  /** The current time in unix seconds, for tests. @default Math.floor(Date.now() / 1000) */
  readonly now?: number;
}

const secretPrefix = "whsec_";
const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The key bytes of a Standard Webhooks secret: `whsec_` then 24 to 64 bytes in base64. Throws
 * `transport_invalid`, saying how to make one, for anything else.
 */
export function webhookSecretKey(secret: string, where: string): Buffer {
  const encoded = typeof secret === "string" && secret.startsWith(secretPrefix) ? secret.slice(6) : undefined;
  const key = encoded !== undefined && base64.test(encoded) ? Buffer.from(encoded, "base64") : undefined;
  if (key === undefined || key.length < 24 || key.length > 64) {
    throw new FormletterError(
      "transport_invalid",
      `${where}: the secret must be a Standard Webhooks secret, "whsec_" then 24 to 64 random bytes in base64; make one with "whsec_" + crypto.randomBytes(32).toString("base64")`,
    );
  }
  return key;
}

function signature(key: Buffer, id: string, timestamp: number, rawBody: string | Uint8Array): Buffer {
  return createHmac("sha256", key).update(`${id}.${timestamp}.`).update(rawBody).digest();
}

/**
 * The Standard Webhooks headers for a body: what the webhook transport sends, and what a receiver's tests
 * can use to build signed requests. Several secrets (during a rotation) give one signature each.
 *
 * @example
 * import { signWebhookBody } from "formletter";
 * const headers = signWebhookBody('{"key":"fl_1"}', process.env.WEBHOOK_SECRET ?? "", { id: "fl_1", timestamp: 1767225600 });
 * // { "webhook-id": "fl_1", "webhook-timestamp": "1767225600", "webhook-signature": "v1,…" }
 */
export function signWebhookBody(
  rawBody: string | Uint8Array,
  secret: string | readonly string[],
  message: { readonly id: string; readonly timestamp?: number },
): WebhookSignatureHeaders {
  const secrets = typeof secret === "string" ? [secret] : secret;
  if (secrets.length === 0) webhookSecretKey("", "signWebhookBody");
  const timestamp = message.timestamp ?? Math.floor(Date.now() / 1000);
  if (typeof message.id !== "string" || !webhookId.test(message.id)) {
    throw new FormletterError(
      "transport_invalid",
      "signWebhookBody: the id must be 1 to 255 printable ASCII characters without spaces or dots",
    );
  }
  return {
    "webhook-id": message.id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": secrets
      .map(
        (one) =>
          `v1,${signature(webhookSecretKey(one, "signWebhookBody"), message.id, timestamp, rawBody).toString("base64")}`,
      )
      .join(" "),
  };
}

// The id is signed as "<id>.<timestamp>.<body>": a dot in it could move the boundary.
const webhookId = /^[\x21-\x2D\x2F-\x7E]{1,255}$/;
const digits = /^\d{1,15}$/;

/** A request's headers: a fetch `Headers`, or a plain object such as Node's `request.headers`. */
type HeaderSource = { get(name: string): string | null } | object;

/** One header's single value; a missing or repeated header is undefined. */
function headerOf(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === "function") {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const record = headers as Readonly<Record<string, unknown>>;
  const value = Object.hasOwn(record, name) ? record[name] : undefined;
  return typeof value === "string" ? value : undefined;
}

/**
 * Checks a webhook request's Standard Webhooks signature (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature`) against its raw body and the shared `whsec_` secret. Returns false for a missing,
 * malformed, stale or wrong signature; never throws on request input (only on a bad secret).
 *
 * The scheme (any Standard Webhooks library implements it): the HMAC-SHA256, keyed with the secret's
 * base64-decoded bytes, of `"<webhook-id>.<webhook-timestamp>.<raw body>"`, base64-encoded, is one of the
 * space-separated `v1,<signature>` entries; the timestamp is within the tolerance of now, so a captured
 * request cannot be replayed later. Take the raw body exactly as received, before any JSON parsing.
 * `webhook-id` is the idempotency key (also the body's `key`), the same on every retry: deduplicate on it.
 *
 * @example
 * import { verifyWebhookSignature } from "formletter";
 * const ok = verifyWebhookSignature(rawBody, request.headers, process.env.WEBHOOK_SECRET ?? "");
 * if (!ok) return response.writeHead(401).end();
 */
export function verifyWebhookSignature(
  rawBody: string | Uint8Array,
  headers: HeaderSource | null | undefined,
  secret: string,
  options: VerifyWebhookSignatureOptions = {},
): boolean {
  const key = webhookSecretKey(secret, "verifyWebhookSignature");
  if (typeof headers !== "object" || headers === null) return false;
  const id = headerOf(headers, "webhook-id");
  const time = headerOf(headers, "webhook-timestamp");
  const signatures = headerOf(headers, webhookSignatureHeader);
  if (id === undefined || !webhookId.test(id) || time === undefined || !digits.test(time)) return false;
  if (signatures === undefined || signatures.length > 4096) return false;
  const timestamp = Number(time);
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? 300;
  if (!(Math.abs(now - timestamp) <= tolerance)) return false;
  const expected = signature(key, id, timestamp, rawBody);
  let match = false;
  // Every candidate is compared, so the time taken does not tell which one matched.
  for (const entry of signatures.split(" ")) {
    const comma = entry.indexOf(",");
    if (comma < 0 || entry.slice(0, comma) !== "v1") continue;
    const candidate = entry.slice(comma + 1);
    if (!base64.test(candidate)) continue;
    const bytes = Buffer.from(candidate, "base64");
    if (bytes.length === expected.length && timingSafeEqual(expected, bytes)) match = true;
  }
  return match;
}
