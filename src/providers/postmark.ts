import type * as postmark from "postmark";
import type { Message } from "../core/decision/decision.js";
import { requirePeer } from "../core/peer-dependency.js";
import { formatSender } from "../transport/sender.js";
import type { DeliveryContext, DeliveryReceipt, Transport } from "../transport/transport.js";
import { ProviderDeliveryError, type ProviderFailureReason, reasonForStatus } from "./provider-error.js";
import { checkProviderOptions, type ProviderTransportOptions, singleRecipient } from "./provider-options.js";

/**
 * Options of {@link postmarkTransport}.
 *
 * @example
 * import { postmarkTransport } from "formletter/providers";
 * postmarkTransport({ serverToken: process.env.POSTMARK_SERVER_TOKEN ?? "", from: "support@example.com" });
 */
export interface PostmarkTransportOptions extends ProviderTransportOptions {
  /** The server's API token, sent as `X-Postmark-Server-Token`. */
  readonly serverToken: string;
  /** The message stream. @default "outbound" (Postmark's default transactional stream) */
  readonly messageStream?: string;
  /**
   * Where the API is reached: Postmark's `requestHost` and `useHttps` client options. Only for a test
   * server; the default is Postmark's API over HTTPS.
   */
  readonly endpoint?: { readonly host: string; readonly useHttps: boolean };
}

// Postmark's `ErrorCode` values (its API overview) that say more than the HTTP status does.
const codeReasons: ReadonlyMap<number, ProviderFailureReason> = new Map([
  [10, "auth_failed"], // bad or missing server token
  [100, "server_error"], // maintenance
  [400, "sender_rejected"], // sender signature not found
  [401, "sender_rejected"], // sender signature not confirmed
  [405, "account_blocked"], // not allowed to send (out of credits)
  [406, "recipient_inactive"], // hard bounce, spam complaint or manual suppression
  [412, "account_blocked"], // account pending approval: only its own domain may receive
  [413, "account_blocked"], // account may not send
  [429, "rate_limited"],
]);

interface PostmarkFailure {
  readonly code?: unknown;
  readonly statusCode?: unknown;
  readonly message?: unknown;
}

/** The reason for one of Postmark's answers, from its `ErrorCode` first and its HTTP status next. */
function postmarkReason(status: number, code: number, detail: string): ProviderFailureReason {
  const known = codeReasons.get(code);
  if (known !== undefined) return known;
  // 300 is every "invalid email request"; Postmark names the field at fault only in its text.
  if (code === 300 && /'(To|Cc|Bcc)'/i.test(detail)) return "recipient_invalid";
  return reasonForStatus(status);
}

function failureOf(error: unknown, timedOut: boolean): ProviderDeliveryError {
  const failure: PostmarkFailure = typeof error === "object" && error !== null ? error : {};
  const status = typeof failure.statusCode === "number" ? failure.statusCode : 0;
  const code = typeof failure.code === "number" ? failure.code : 0;
  const detail = typeof failure.message === "string" ? failure.message : "";
  // The SDK reports a request that got no answer (timeout, refused connection) with status 0.
  if (status === 0) {
    return new ProviderDeliveryError("postmark", { reason: timedOut ? "timeout" : "network", detail }, error);
  }
  return new ProviderDeliveryError(
    "postmark",
    { reason: postmarkReason(status, code, detail), status, providerCode: code, detail },
    error,
  );
}

/**
 * An e-mail transport through Postmark's official SDK (`postmark`, an optional peer dependency).
 * It sends the decided message byte for byte: one recipient, the subject, the text and the HTML when
 * the message has one, link and open tracking off (tracking would rewrite the links of the HTML), no
 * template of Postmark's. Postmark's `MessageID` becomes the receipt; the idempotency key goes along
 * as metadata (`formletter_key`) so a person can find the message in Postmark's activity. Postmark
 * does not drop a second message with the same key, so the transport does not declare
 * `deduplicatesByKey`: a delivery in doubt goes to a person.
 *
 * @example
 * import { postmarkTransport } from "formletter/providers";
 * const email = postmarkTransport({
 *   serverToken: process.env.POSTMARK_SERVER_TOKEN ?? "",
 *   from: "Example Support <support@example.com>",
 * });
 */
export function postmarkTransport(options: PostmarkTransportOptions): Transport {
  const { sender, timeoutMs } = checkProviderOptions("postmarkTransport", options, {
    field: "serverToken",
    value: options?.serverToken,
  });
  const { ServerClient } = requirePeer<typeof postmark>(
    "postmark",
    "the Postmark transport (formletter/providers)",
  );
  const client = new ServerClient(options.serverToken, {
    ...(options.endpoint === undefined
      ? {}
      : { requestHost: options.endpoint.host, useHttps: options.endpoint.useHttps }),
    // The SDK counts whole seconds; the fetch below holds the limit to the millisecond.
    timeout: Math.ceil(timeoutMs / 1000),
    fetch: (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) }),
  });
  const from = formatSender(sender);
  const messageStream = options.messageStream ?? "outbound";

  return {
    name: options.name ?? "postmark",
    async deliver(message: Message, context: DeliveryContext): Promise<DeliveryReceipt> {
      const to = singleRecipient("postmark", message);
      const started = performance.now();
      let reply: unknown;
      try {
        reply = await client.sendEmail({
          From: from,
          To: to,
          Subject: message.subject ?? "",
          TextBody: message.text,
          ...(message.html === undefined ? {} : { HtmlBody: message.html }),
          MessageStream: messageStream,
          TrackOpens: false,
          TrackLinks: "None" as postmark.Models.LinkTrackingOptions,
          Metadata: { formletter_key: context.key },
        });
      } catch (error) {
        // The SDK keeps only the text of an aborted request: a request that used up the limit timed out.
        throw failureOf(error, performance.now() - started >= timeoutMs - 1);
      }
      // A 200 whose body is not Postmark's JSON (a proxy's page, a truncated reply) comes back from the
      // SDK as a string. The message may have been accepted, and Postmark does not deduplicate: a
      // retry could send it twice, so a person decides.
      const id = (reply as { MessageID?: unknown } | null)?.MessageID;
      const code = (reply as { ErrorCode?: unknown } | null)?.ErrorCode;
      if (typeof id !== "string" || id === "" || (typeof code === "number" && code !== 0)) {
        throw new ProviderDeliveryError("postmark", {
          reason: "unconfirmed",
          status: 200,
          detail:
            "the API answered without a MessageID; the message may have been sent: look it up in Postmark's activity (metadata formletter_key) before sending it again",
        });
      }
      return { id };
    },
  };
}
