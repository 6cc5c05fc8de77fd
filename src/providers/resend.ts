import type * as resend from "resend";
import type { Message } from "../core/decision/decision.js";
import { requirePeer } from "../core/peer-dependency.js";
import { formatSender } from "../transport/sender.js";
import type { DeliveryContext, DeliveryReceipt, Transport } from "../transport/transport.js";
import { ProviderDeliveryError, type ProviderFailureReason, reasonForStatus } from "./provider-error.js";
import { checkProviderOptions, type ProviderTransportOptions, singleRecipient } from "./provider-options.js";

/**
 * Options of {@link resendTransport}.
 *
 * @example
 * import { resendTransport } from "formletter/providers";
 * resendTransport({ apiKey: process.env.RESEND_API_KEY ?? "", from: "support@example.com" });
 */
export interface ResendTransportOptions extends ProviderTransportOptions {
  /** The API key, sent as `Authorization: Bearer …`; a sending-only key is enough. */
  readonly apiKey: string;
  /** The API's base URL: the SDK's `baseUrl` option. Only for a test server. @default "https://api.resend.com" */
  readonly baseUrl?: string;
}

// Resend's error `name`s (its errors reference) that say more than the HTTP status does.
const nameReasons: ReadonlyMap<string, ProviderFailureReason> = new Map([
  ["missing_api_key", "auth_failed"],
  ["invalid_api_key", "auth_failed"],
  ["restricted_api_key", "auth_failed"],
  ["invalid_from_address", "sender_rejected"],
  ["rate_limit_exceeded", "rate_limited"],
  // Quotas reset after a day or a month: far beyond the outbox's retries.
  ["daily_quota_exceeded", "quota_exceeded"],
  ["monthly_quota_exceeded", "quota_exceeded"],
  // The same key is being sent right now: the first request's answer decides, so try again later.
  ["concurrent_idempotent_requests", "busy"],
  // The same key was used with another body within the 24 hours Resend keeps keys.
  ["invalid_idempotent_request", "idempotency_conflict"],
  ["security_error", "account_blocked"],
  ["application_error", "server_error"],
  ["internal_server_error", "server_error"],
]);

/** The reason for one of Resend's errors, from its `name` first and its HTTP status next. */
function resendReason(status: number, name: string, detail: string): ProviderFailureReason {
  const known = nameReasons.get(name);
  if (known !== undefined) return known;
  // A 403 validation_error is the testing domain sending to an address other than the account's own.
  if (status === 403 && name === "validation_error") return "sender_rejected";
  // Resend names the field at fault only in its text (`to`).
  if (status === 400 || status === 422)
    return /`to`|\bto\b field|recipient/i.test(detail) ? "recipient_invalid" : "invalid_request";
  return reasonForStatus(status);
}

/**
 * An e-mail transport through Resend's official SDK (`resend`, an optional peer dependency). It sends
 * the decided message byte for byte: one recipient, the subject, the text and the HTML when the
 * message has one, no template or React rendering of Resend's. Resend's email `id` becomes the
 * receipt. The idempotency key goes in the `Idempotency-Key` header, and Resend answers a second
 * request with the same key and body within 24 hours with the first one's result instead of sending
 * again, so the transport declares `deduplicatesByKey`: a delivery in doubt is sent again with its key.
 * After 24 hours a key is forgotten: a message in doubt for longer is sent again by `flush()`.
 *
 * @example
 * import { resendTransport } from "formletter/providers";
 * const email = resendTransport({
 *   apiKey: process.env.RESEND_API_KEY ?? "",
 *   from: "Example Support <support@example.com>",
 * });
 */
export function resendTransport(options: ResendTransportOptions): Transport {
  const { sender, timeoutMs } = checkProviderOptions("resendTransport", options, {
    field: "apiKey",
    value: options?.apiKey,
  });
  const { Resend } = requirePeer<typeof resend>("resend", "the Resend transport (formletter/providers)");
  // Always set: without it the SDK reads RESEND_BASE_URL, and an environment variable would decide
  // where the API key and every message go.
  const client = new Resend(options.apiKey, { baseUrl: options.baseUrl ?? "https://api.resend.com" });
  const from = formatSender(sender);

  return {
    name: options.name ?? "resend",
    deduplicatesByKey: true,
    async deliver(message: Message, context: DeliveryContext): Promise<DeliveryReceipt> {
      const to = singleRecipient("resend", message);
      const signal = AbortSignal.timeout(timeoutMs);
      const content =
        message.html === undefined ? { text: message.text } : { text: message.text, html: message.html };
      const { data, error } = await client.emails.send(
        { from, to: [to], subject: message.subject ?? "", ...content },
        { idempotencyKey: context.key, signal },
      );
      if (error !== null) {
        const detail = typeof error.message === "string" ? error.message : "";
        // The SDK answers a request that got no usable answer (timeout, refused connection, a body
        // that is not JSON) with no status; a retry is safe, as Resend drops a repeat of the key.
        if (typeof error.statusCode !== "number") {
          throw new ProviderDeliveryError(
            "resend",
            { reason: signal.aborted ? "timeout" : "network", detail },
            error,
          );
        }
        const name = typeof error.name === "string" ? error.name : "";
        throw new ProviderDeliveryError(
          "resend",
          {
            reason: resendReason(error.statusCode, name, detail),
            status: error.statusCode,
            providerCode: name,
            detail,
          },
          error,
        );
      }
      const id = (data as { id?: unknown } | null)?.id;
      if (typeof id !== "string" || id === "") {
        throw new ProviderDeliveryError("resend", {
          reason: "network",
          status: 200,
          detail: "the API answered without an email id; sending again with the same key is safe",
        });
      }
      return { id };
    },
  };
}
