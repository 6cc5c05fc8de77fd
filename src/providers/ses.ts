import type * as sesv2 from "@aws-sdk/client-sesv2";
import type { Message } from "../core/decision/decision.js";
import { requirePeer } from "../core/peer-dependency.js";
import { formatSender } from "../transport/sender.js";
import type { DeliveryContext, DeliveryReceipt, Transport } from "../transport/transport.js";
import { mimeMessage } from "./mime-message.js";
import { ProviderDeliveryError, type ProviderFailureReason, reasonForStatus } from "./provider-error.js";
import {
  checkProviderOptions,
  invalidOption,
  type ProviderTransportOptions,
  singleRecipient,
} from "./provider-options.js";

/**
 * Options of {@link sesTransport}.
 *
 * @example
 * import { sesTransport } from "formletter/providers";
 * sesTransport({ region: "eu-west-1", from: "support@example.com", configurationSetName: "outbound" });
 */
export interface SesTransportOptions extends ProviderTransportOptions {
  /** The AWS region whose SES endpoint sends, e.g. `"eu-west-1"`. */
  readonly region: string;
  /** Keys for the client; when left out, the SDK's default chain (environment, profile, role) finds them. */
  readonly credentials?: {
    readonly accessKeyId: string;
    readonly secretAccessKey: string;
    readonly sessionToken?: string;
  };
  /** The configuration set whose event destinations report deliveries, bounces and complaints. */
  readonly configurationSetName?: string;
  /**
   * `"simple"`: SES builds the MIME message from the subject, text and HTML. `"raw"`: formletter builds
   * it (every part base64 of its exact bytes, `Content-Language` from the template's locale).
   * @default "simple"
   */
  readonly content?: "simple" | "raw";
  /** The API's address: the SDK's `endpoint` option. Only for a test server. */
  readonly endpoint?: string;
}

// SES v2's `SendEmail` errors (its API reference) and the common AWS errors, by the name the SDK gives them.
const nameReasons: ReadonlyMap<string, ProviderFailureReason> = new Map([
  ["TooManyRequestsException", "rate_limited"],
  ["ThrottlingException", "rate_limited"],
  ["Throttling", "rate_limited"],
  // The account's daily quota or sending rate limit; the quota resets after a day, beyond any retry.
  ["LimitExceededException", "quota_exceeded"],
  ["AccountSuspendedException", "account_blocked"],
  ["SendingPausedException", "account_blocked"],
  ["MailFromDomainNotVerifiedException", "sender_rejected"],
  // A configuration set or identity that does not exist.
  ["NotFoundException", "invalid_request"],
  ["InternalServiceErrorException", "server_error"],
  ["InternalFailure", "server_error"],
  ["ServiceUnavailable", "server_error"],
  ["ConcurrentModificationException", "server_error"],
  ["UnrecognizedClientException", "auth_failed"],
  ["InvalidClientTokenId", "auth_failed"],
  ["InvalidSignatureException", "auth_failed"],
  ["SignatureDoesNotMatch", "auth_failed"],
  ["IncompleteSignature", "auth_failed"],
  ["MissingAuthenticationToken", "auth_failed"],
  ["ExpiredTokenException", "auth_failed"],
  ["AccessDeniedException", "auth_failed"],
  ["NotAuthorized", "auth_failed"],
  ["CredentialsProviderError", "auth_failed"],
]);

interface AwsFailure {
  readonly name?: unknown;
  readonly code?: unknown;
  readonly message?: unknown;
  readonly $metadata?: { readonly httpStatusCode?: unknown };
}

/** The reason for one of SES's errors, from its name first and its HTTP status next. */
function sesReason(status: number, name: string, detail: string): ProviderFailureReason {
  const known = nameReasons.get(name);
  if (known !== undefined) return known;
  // MessageRejected covers an unverified identity (the sender, or a recipient while in the sandbox) and
  // content SES refuses; only its text tells them apart.
  if (name === "MessageRejected") return /not verified/i.test(detail) ? "sender_rejected" : "invalid_request";
  // SES names a bad address only in the text of a BadRequestException.
  if (name === "BadRequestException" && /address|ToAddresses|destination|recipient/i.test(detail))
    return "recipient_invalid";
  return status === 0 ? "network" : reasonForStatus(status);
}

function failureOf(error: unknown, timedOut: boolean): ProviderDeliveryError {
  const failure: AwsFailure = typeof error === "object" && error !== null ? error : {};
  const name = typeof failure.name === "string" ? failure.name : "";
  const detail = typeof failure.message === "string" ? failure.message : "";
  const status = failure.$metadata?.httpStatusCode;
  // The SDK names a reset connection "TimeoutError" too (so that its own retries would take it); only
  // ETIMEDOUT, or the abort signal, says the limit was reached.
  if (timedOut || failure.code === "ETIMEDOUT")
    return new ProviderDeliveryError("ses", { reason: "timeout", detail }, error);
  if (typeof status === "number" && status >= 200 && status < 300) {
    // An answer of 2xx the SDK could not read: SES may have accepted the message, and it does not
    // drop a second one, so a person decides.
    return new ProviderDeliveryError(
      "ses",
      {
        reason: "unconfirmed",
        status,
        detail: `the API answered ${status} without a readable MessageId (${detail}); the message may have been sent`,
      },
      error,
    );
  }
  const known = typeof status === "number" ? status : 0;
  return new ProviderDeliveryError(
    "ses",
    {
      reason: sesReason(known, name, detail),
      ...(known === 0 ? {} : { status: known }),
      ...(name === "" ? {} : { providerCode: name }),
      detail,
    },
    error,
  );
}

// SES allows tag names and values of ASCII letters, digits, "_" and "-", at most 256 characters.
function tagValue(value: string): string {
  return value.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 256);
}

/**
 * An e-mail transport through Amazon SES v2's official SDK (`@aws-sdk/client-sesv2`, an optional peer
 * dependency), operation `SendEmail`. It sends the decided message byte for byte: one recipient, the
 * subject, the text and the HTML when the message has one, as SES's simple content or as a raw MIME
 * message formletter builds; no SES template. The idempotency key and the template id go along as
 * message tags (`formletter_key`, `formletter_template`) that SES's event destinations report back.
 * SES's `MessageId` becomes the receipt. The SDK's own retries are off (`maxAttempts: 1`): each retry
 * of `SendEmail` could be a second e-mail, and SES drops none, so the outbox retries and a delivery in
 * doubt goes to a person.
 *
 * @example
 * import { sesTransport } from "formletter/providers";
 * const email = sesTransport({
 *   region: "eu-west-1",
 *   from: "Example Support <support@example.com>",
 *   configurationSetName: "outbound",
 * });
 */
export function sesTransport(options: SesTransportOptions): Transport {
  const factory = "sesTransport";
  const { sender, timeoutMs } = checkProviderOptions(factory, options, {
    field: "region",
    value: options?.region,
    fix: 'pass the AWS region that sends, e.g. "eu-west-1"',
  });
  if (!/^[a-z]{2}(?:-[a-z]+)+-\d{1,2}$/.test(options.region))
    invalidOption(
      factory,
      `region ${JSON.stringify(options.region)} is not an AWS region such as "eu-west-1"`,
    );
  const set = options.configurationSetName;
  if (set !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(set))
    invalidOption(
      factory,
      `configurationSetName ${JSON.stringify(set)} is not a configuration set name (letters, digits, "_" and "-", at most 64)`,
    );
  const credentials = options.credentials;
  if (
    credentials !== undefined &&
    [credentials.accessKeyId, credentials.secretAccessKey].some(
      (value) => typeof value !== "string" || value.trim() === "",
    )
  )
    invalidOption(
      factory,
      "credentials need accessKeyId and secretAccessKey; leave credentials out to use the SDK's default chain",
    );
  const content = options.content ?? "simple";
  if (content !== "simple" && content !== "raw")
    invalidOption(factory, `content must be "simple" or "raw", got ${JSON.stringify(content)}`);
  const { SESv2Client, SendEmailCommand } = requirePeer<typeof sesv2>(
    "@aws-sdk/client-sesv2",
    "the Amazon SES transport (formletter/providers)",
  );
  const client = new SESv2Client({
    region: options.region,
    ...(credentials === undefined ? {} : { credentials }),
    ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
    maxAttempts: 1,
    // Without throwOnRequestTimeout the handler only logs a request over its limit and keeps waiting.
    requestHandler: { requestTimeout: timeoutMs, connectionTimeout: timeoutMs, throwOnRequestTimeout: true },
  });
  const from = formatSender(sender);

  return {
    name: options.name ?? "ses",
    async deliver(message: Message, context: DeliveryContext): Promise<DeliveryReceipt> {
      const to = singleRecipient("ses", message);
      const utf8 = (data: string) => ({ Data: data, Charset: "UTF-8" });
      const body =
        content === "raw"
          ? { Raw: { Data: Buffer.from(mimeMessage(sender, to, message), "utf8") } }
          : {
              Simple: {
                Subject: utf8(message.subject ?? ""),
                Body: {
                  Text: utf8(message.text),
                  ...(message.html === undefined ? {} : { Html: utf8(message.html) }),
                },
              },
            };
      const signal = AbortSignal.timeout(timeoutMs);
      let reply: sesv2.SendEmailCommandOutput;
      try {
        reply = await client.send(
          new SendEmailCommand({
            FromEmailAddress: from,
            Destination: { ToAddresses: [to] },
            Content: body,
            ...(set === undefined ? {} : { ConfigurationSetName: set }),
            EmailTags: [
              { Name: "formletter_key", Value: tagValue(context.key) },
              { Name: "formletter_template", Value: tagValue(message.template) },
            ],
          }),
          { abortSignal: signal },
        );
      } catch (error) {
        throw failureOf(error, signal.aborted);
      }
      const id = reply.MessageId;
      if (typeof id !== "string" || id === "") {
        throw new ProviderDeliveryError("ses", {
          reason: "unconfirmed",
          status: 200,
          detail: "the API answered without a MessageId; the message may have been sent",
        });
      }
      return { id };
    },
    async close() {
      client.destroy();
    },
  };
}
