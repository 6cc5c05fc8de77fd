import type { Message } from "../core/decision/decision.js";
import { requirePeer } from "../core/peer-dependency.js";
import type { DeliveryContext, DeliveryReceipt, Transport } from "../transport/transport.js";
import {
  ProviderDeliveryError,
  type ProviderFailureReason,
  reasonForStatus,
  unansweredReason,
} from "./provider-error.js";
import {
  checkProviderOptions,
  invalidOption,
  type ProviderTransportOptions,
  singleRecipient,
} from "./provider-options.js";

/**
 * Options of {@link sendgridTransport}.
 *
 * @example
 * import { sendgridTransport } from "formletter/providers";
 * sendgridTransport({ apiKey: process.env.SENDGRID_API_KEY ?? "", from: "support@example.com" });
 */
export interface SendgridTransportOptions extends ProviderTransportOptions {
  /** The API key (`SG.…`), sent as `Authorization: Bearer …`; a key with the Mail Send scope is enough. */
  readonly apiKey: string;
  /**
   * The API's base URL, set on the SDK's client with `setDefaultRequest("baseUrl", …)` as SendGrid
   * documents for its EU region. @default "https://api.sendgrid.com/"
   */
  readonly baseUrl?: string;
}

/** The part of `@sendgrid/mail`'s `MailService` and its client this transport uses. */
interface MailService {
  setApiKey(apiKey: string): void;
  setTimeout(timeout: number): void;
  send(data: unknown): Promise<[{ statusCode: number; headers: Record<string, unknown> }, unknown]>;
  readonly client: { setDefaultRequest(key: string, value: unknown): void };
}

interface SendgridFailure {
  /** The HTTP status of a `ResponseError`; a string such as "ECONNREFUSED" for a request without answer. */
  readonly code?: unknown;
  readonly message?: unknown;
  readonly response?: { readonly body?: unknown; readonly status?: unknown };
}

/** SendGrid's documented error body: `{ errors: [{ message, field, help }] }`; a body that is not is text. */
function firstError(body: unknown): { message: string; field: string } {
  const errors = (body as { errors?: unknown } | null)?.errors;
  const first = Array.isArray(errors) ? (errors[0] as { message?: unknown; field?: unknown }) : undefined;
  return {
    message: typeof first?.message === "string" ? first.message : typeof body === "string" ? body : "",
    field: typeof first?.field === "string" ? first.field : "",
  };
}

/** The reason for one of SendGrid's answers: it has no error codes, so its status, field and text decide. */
function sendgridReason(status: number, field: string, text: string): ProviderFailureReason {
  if (/credits exceeded/i.test(text)) return "quota_exceeded";
  if (/^from\b/.test(field) || /sender identity/i.test(text)) return "sender_rejected";
  if (status === 400 && /^personalizations\.\d+\.to\b/.test(field)) return "recipient_invalid";
  return reasonForStatus(status);
}

function failureOf(error: unknown): ProviderDeliveryError {
  const failure: SendgridFailure = typeof error === "object" && error !== null ? error : {};
  const raw = typeof failure.message === "string" ? failure.message : "";
  // A ResponseError (4xx, 5xx) carries the status as `code`; an answer below 400 that is no success
  // (a redirect, which is never followed) comes as the HTTP client's own error with its response.
  const status =
    typeof failure.code === "number"
      ? failure.code
      : typeof failure.response?.status === "number"
        ? failure.response.status
        : undefined;
  if (status === undefined)
    return new ProviderDeliveryError(
      "sendgrid",
      { reason: unansweredReason(failure.code), detail: raw },
      error,
    );

  const { message, field } = firstError(failure.response?.body);
  const detail = message === "" ? raw : field === "" ? message : `${message} (${field})`;
  return new ProviderDeliveryError(
    "sendgrid",
    {
      reason: sendgridReason(status, field, message),
      status,
      ...(field === "" ? {} : { providerCode: field }),
      detail,
    },
    error,
  );
}

/**
 * An e-mail transport through SendGrid's official SDK (`@sendgrid/mail`, an optional peer dependency),
 * `POST /v3/mail/send`. It sends the decided message byte for byte: one recipient, the subject, the
 * text and the HTML when the message has one, no dynamic template or substitution, click, open and
 * subscription tracking and the footer off (each would rewrite or add to the text). The idempotency
 * key and the template id go along as custom arguments (`formletter_key`, `formletter_template`), which
 * SendGrid's events carry back. SendGrid's `X-Message-Id` becomes the receipt. SendGrid keeps no
 * idempotency key, so the transport does not declare `deduplicatesByKey`: a delivery in doubt goes
 * to a person.
 *
 * @example
 * import { sendgridTransport } from "formletter/providers";
 * const email = sendgridTransport({
 *   apiKey: process.env.SENDGRID_API_KEY ?? "",
 *   from: "Example Support <support@example.com>",
 * });
 */
export function sendgridTransport(options: SendgridTransportOptions): Transport {
  const factory = "sendgridTransport";
  const { sender, timeoutMs } = checkProviderOptions(factory, options, {
    field: "apiKey",
    value: options?.apiKey,
  });
  // The SDK prints a warning for a key of another shape; formletter prints nothing, so it fails here.
  if (!options.apiKey.trim().startsWith("SG."))
    invalidOption(factory, 'apiKey does not start with "SG."; pass a SendGrid API key');
  const { MailService } = requirePeer<{ MailService: new () => MailService }>(
    "@sendgrid/mail",
    "the SendGrid transport (formletter/providers)",
  );
  // A service of its own: the package's default export is one instance shared by the whole process.
  const mail = new MailService();
  mail.setApiKey(options.apiKey);
  // After setApiKey, which resets the base URL to the key's region.
  mail.client.setDefaultRequest("baseUrl", options.baseUrl ?? "https://api.sendgrid.com/");
  // A redirect would send the message, and the key, to an address nobody configured.
  mail.client.setDefaultRequest("maxRedirects", 0);
  mail.setTimeout(timeoutMs);
  const from = sender.name === "" ? { email: sender.address } : { email: sender.address, name: sender.name };

  return {
    name: options.name ?? "sendgrid",
    async deliver(message: Message, context: DeliveryContext): Promise<DeliveryReceipt> {
      const to = singleRecipient("sendgrid", message);
      let response: { statusCode: number; headers: Record<string, unknown> };
      try {
        [response] = await mail.send({
          from,
          to: { email: to },
          subject: message.subject ?? "",
          text: message.text,
          ...(message.html === undefined ? {} : { html: message.html }),
          customArgs: { formletter_key: context.key, formletter_template: message.template },
          trackingSettings: {
            clickTracking: { enable: false, enableText: false },
            openTracking: { enable: false },
            subscriptionTracking: { enable: false },
            ganalytics: { enable: false },
          },
          mailSettings: { footer: { enable: false } },
        });
      } catch (error) {
        throw failureOf(error);
      }
      const id = response.headers["x-message-id"];
      if (typeof id !== "string" || id === "") {
        throw new ProviderDeliveryError("sendgrid", {
          reason: "unconfirmed",
          status: response.statusCode,
          detail:
            "the API answered without an X-Message-Id; the message may have been sent: look for custom argument formletter_key in SendGrid's activity before sending it again",
        });
      }
      return { id };
    },
  };
}
