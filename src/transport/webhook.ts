import { createHash } from "node:crypto";
import type { Message } from "../core/decision/decision.js";
import { FormletterError } from "../core/errors.js";
import { snippet } from "../core/message/sanitize.js";
import {
  type DeliveryContext,
  DeliveryError,
  type DeliveryReceipt,
  type Transport,
  timeoutProblem,
} from "./transport.js";
import { signWebhookBody, webhookSecretKey } from "./webhook-signature.js";

/**
 * Options of {@link webhookTransport}.
 *
 * @example
 * import { webhookTransport } from "formletter";
 * webhookTransport({ url: "https://hooks.example.com/sms", allowHosts: ["hooks.example.com"], secret: process.env.WEBHOOK_SECRET ?? "", timeoutMs: 5000 });
 */
export interface WebhookTransportOptions {
  /** Where to POST: `https://…`, or `http://` on a loopback host (localhost, 127.0.0.1, ::1) only. */
  readonly url: string;
  /** Host names the url may point at, compared exactly (no wildcards, no ports). The url's host must be one. */
  readonly allowHosts: readonly string[];
  /**
   * The Standard Webhooks secret shared with the receiver: `whsec_` then 24 to 64 random bytes in base64
   * (`"whsec_" + crypto.randomBytes(32).toString("base64")`). Several, while rotating: each delivery then
   * carries one signature per secret, and the receiver accepts either.
   */
  readonly secret: string | readonly string[];
  /** How long one delivery may take, response included, in milliseconds. @default 10000 */
  readonly timeoutMs?: number;
  /** The transport's name in the audit log. @default "webhook" */
  readonly name?: string;
}

const loopback = new Set(["localhost", "127.0.0.1", "::1"]);
// Enough for a JSON receipt; a reply larger than this is not read further.
const maxReplyBytes = 64 * 1024;
const printableId = /^[\x21-\x7E]{1,128}$/;

// URL.hostname keeps IPv6 brackets ("[::1]"); host lists are written without them.
const bareHost = (host: string): string => host.toLowerCase().replace(/^\[(.*)\]$/, "$1");

function invalid(message: string): never {
  throw new FormletterError("transport_invalid", `webhookTransport: ${message}`);
}

function checkedUrl(options: WebhookTransportOptions): URL {
  let url: URL;
  try {
    url = new URL(options.url);
  } catch (cause) {
    throw new FormletterError("transport_invalid", "webhookTransport: url is not a valid absolute URL", {
      cause,
    });
  }
  const host = bareHost(url.hostname);
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    invalid(`url must use https, not "${url.protocol}"`);
  }
  if (url.protocol === "http:" && !loopback.has(host)) {
    invalid(`url uses http, allowed only for localhost, 127.0.0.1 and ::1; use https for "${host}"`);
  }
  // fetch refuses such URLs anyway; credentials belong in the signature, not the address.
  if (url.username !== "" || url.password !== "") invalid("url must not contain a user name or password");
  if (!Array.isArray(options.allowHosts)) invalid("allowHosts must be an array of host names");
  const allowed = new Set(options.allowHosts.map(bareHost));
  if (!allowed.has(host)) {
    invalid(`host "${host}" is not in allowHosts; add "${host}" to allowHosts if it is your endpoint`);
  }
  return url;
}

// Only the fields a receiver needs; `sms` sizing and anything added to Message later stay out
// unless chosen here, so the wire format changes only on purpose.
function payload(message: Message, key: string): string {
  const body: Record<string, string> = {
    template: message.template,
    channel: message.channel,
    to: message.to,
  };
  if (message.subject !== undefined) body.subject = message.subject;
  body.text = message.text;
  if (message.html !== undefined) body.html = message.html;
  return JSON.stringify({ key, message: body });
}

async function readReply(response: Response): Promise<string> {
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < maxReplyBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    // Frees the connection whether the reply was read to the end, cut off or failed.
    await reader.cancel().catch(() => undefined);
  }
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, maxReplyBytes));
}

// The Standard Webhooks id is signed as "<id>.<timestamp>.<body>": formletter's keys ("fl_" and hex) are
// used as they are; any other key by its hash, so no character of it can move that boundary.
function webhookIdFor(key: string): string {
  return /^[A-Za-z0-9_-]{1,128}$/.test(key)
    ? key
    : `k_${createHash("sha256").update(key).digest("hex").slice(0, 32)}`;
}

function receiptId(reply: string, key: string, attempt: number): string {
  try {
    const parsed: unknown = JSON.parse(reply);
    if (typeof parsed === "object" && parsed !== null && "id" in parsed) {
      const id = (parsed as { id: unknown }).id;
      if (typeof id === "string" && printableId.test(id)) return id;
    }
  } catch {
    // Not JSON: the receiver owes us no receipt, so one is derived below.
  }
  return createHash("sha256").update(`${key}:${attempt}`).digest("hex").slice(0, 32);
}

function requestError(error: unknown, host: string, timeoutMs: number): DeliveryError {
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return new DeliveryError(`webhook ${host}: no complete answer within ${timeoutMs} ms`, {
      retryable: true,
      cause: error,
    });
  }
  // undici reports "fetch failed" and puts the socket error (ECONNREFUSED, ENOTFOUND…) in the cause.
  const cause = error instanceof Error ? error.cause : undefined;
  let reason = error instanceof Error ? error.message : String(error);
  if (cause instanceof Error) reason = cause.message;
  if (typeof cause === "object" && cause !== null && "code" in cause && typeof cause.code === "string") {
    reason = cause.code;
  }
  return new DeliveryError(`webhook ${host}: request failed (${snippet(reason, 80)})`, {
    retryable: true,
    cause: error,
  });
}

/**
 * A transport that POSTs each message as signed JSON to your own endpoint (a chat bridge, an SMS
 * gateway you run). Body: `{ key, message: { template, channel, to, subject?, text, html? } }`; signed
 * per Standard Webhooks (`webhook-id` = the idempotency key, `webhook-timestamp`, `webhook-signature`),
 * so any Standard Webhooks library verifies it, as does `verifyWebhookSignature`; `idempotency-key`
 * repeats the key. Only hosts in `allowHosts` are accepted, checked at creation;
 * redirects are never followed. 5xx, 408, 429, timeouts and network errors are retryable; other
 * answers outside 2xx are permanent.
 *
 * @example
 * import { webhookTransport } from "formletter";
 * const chat = webhookTransport({
 *   url: "https://hooks.example.com/formletter",
 *   allowHosts: ["hooks.example.com"],
 *   secret: process.env.WEBHOOK_SECRET ?? "", // "whsec_…"
 * });
 */
export function webhookTransport(options: WebhookTransportOptions): Transport {
  const url = checkedUrl(options);
  const secrets = typeof options.secret === "string" ? [options.secret] : options.secret;
  if (!Array.isArray(secrets) || secrets.length === 0) webhookSecretKey("", "webhookTransport");
  for (const secret of secrets) webhookSecretKey(secret, "webhookTransport");
  const timeoutMs = options.timeoutMs ?? 10_000;
  const timeoutInvalid = timeoutProblem(timeoutMs);
  if (timeoutInvalid !== undefined) invalid(timeoutInvalid);
  const host = url.host;

  return {
    name: options.name ?? "webhook",
    async deliver(message: Message, context: DeliveryContext): Promise<DeliveryReceipt> {
      const body = payload(message, context.key);
      // One signal for the request and the reply: timeoutMs bounds the whole delivery.
      const signal = AbortSignal.timeout(timeoutMs);
      let response: Response;
      try {
        response = await fetch(url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "idempotency-key": context.key,
            // Signed at each attempt: the timestamp is the attempt's, the id the message's.
            ...signWebhookBody(body, secrets, { id: webhookIdFor(context.key) }),
          },
          body,
          // A redirect could lead the signed message to a host that is not allowed.
          redirect: "manual",
          signal,
        });
      } catch (error) {
        throw requestError(error, host, timeoutMs);
      }
      const { status } = response;
      // Accepted is accepted: a reply that cannot be read must not cause a second delivery.
      const reply = await readReply(response).catch(() => "");
      if (status >= 200 && status < 300) return { id: receiptId(reply, context.key, context.attempt) };
      const answer = `webhook ${host}: answered ${status}${reply === "" ? "" : `: ${snippet(reply)}`}`;
      if (response.type === "opaqueredirect" || (status >= 300 && status < 400)) {
        throw new DeliveryError(
          `${answer} (a redirect; redirects are not followed, set url to the final address)`,
          {
            retryable: false,
          },
        );
      }
      // 408 (the receiver timed the request out) and 429 (slow down) invite a retry; other 4xx say the
      // request itself is refused, which sending it again cannot change.
      throw new DeliveryError(answer, { retryable: status === 408 || status === 429 || status >= 500 });
    },
  };
}
