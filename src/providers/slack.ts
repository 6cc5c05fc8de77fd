import type * as slack from "@slack/web-api";
import type { Message } from "../core/decision/decision.js";
import { requirePeer } from "../core/peer-dependency.js";
import type { DeliveryContext, DeliveryReceipt, Transport } from "../transport/transport.js";
import { ProviderDeliveryError, type ProviderFailureReason, reasonForStatus } from "./provider-error.js";
import { checkBaseOptions, invalidOption, type ProviderBaseOptions } from "./provider-options.js";

/**
 * Options of {@link slackTransport}.
 *
 * @example
 * import { slackTransport } from "formletter/providers";
 * slackTransport({ token: process.env.SLACK_BOT_TOKEN ?? "" });
 */
export interface SlackTransportOptions extends ProviderBaseOptions {
  /** A bot token (`xoxb-…`) with the `chat:write` scope, sent as `Authorization: Bearer …`. */
  readonly token: string;
  /** The Web API's base URL: the SDK's `slackApiUrl` option. Only for a test server. @default "https://slack.com/api/" */
  readonly slackApiUrl?: string;
}

// Slack's documented `error` strings of chat.postMessage and of every method.
const errorReasons: ReadonlyMap<string, ProviderFailureReason> = new Map([
  ["ratelimited", "rate_limited"],
  ["rate_limited", "rate_limited"],
  ["message_limit_exceeded", "rate_limited"],
  ["channel_not_found", "recipient_invalid"],
  ["user_not_found", "recipient_invalid"],
  ["user_not_visible", "recipient_invalid"],
  ["not_in_channel", "recipient_invalid"],
  ["cannot_dm_bot", "recipient_invalid"],
  ["messages_tab_disabled", "recipient_invalid"],
  ["is_archived", "recipient_inactive"],
  ["user_disabled", "recipient_inactive"],
  ["not_authed", "auth_failed"],
  ["invalid_auth", "auth_failed"],
  ["account_inactive", "auth_failed"],
  ["token_revoked", "auth_failed"],
  ["token_expired", "auth_failed"],
  ["no_permission", "auth_failed"],
  ["missing_scope", "auth_failed"],
  ["not_allowed_token_type", "auth_failed"],
  ["access_denied", "auth_failed"],
  ["team_access_not_granted", "auth_failed"],
  ["ekm_access_denied", "auth_failed"],
  ["restricted_action", "account_blocked"],
  ["restricted_action_read_only_channel", "account_blocked"],
  ["posting_to_general_channel_denied", "account_blocked"],
  ["internal_error", "server_error"],
  ["fatal_error", "server_error"],
  ["service_unavailable", "server_error"],
  ["request_timeout", "server_error"],
]);

interface SlackFailure {
  readonly code?: unknown;
  readonly message?: unknown;
  readonly data?: { readonly error?: unknown };
  readonly statusCode?: unknown;
  readonly original?: { readonly name?: unknown };
}

function failureOf(error: unknown): ProviderDeliveryError {
  const failure: SlackFailure = typeof error === "object" && error !== null ? error : {};
  const detail = typeof failure.message === "string" ? failure.message : "";
  if (failure.original instanceof ProviderDeliveryError) return failure.original;
  switch (failure.code) {
    case "slack_webapi_platform_error": {
      const name = typeof failure.data?.error === "string" ? failure.data.error : "";
      return new ProviderDeliveryError(
        "slack",
        { reason: errorReasons.get(name) ?? "invalid_request", status: 200, providerCode: name, detail },
        error,
      );
    }
    case "slack_webapi_rate_limited_error":
      return new ProviderDeliveryError("slack", { reason: "rate_limited", status: 429, detail }, error);
    case "slack_webapi_http_error": {
      const status = typeof failure.statusCode === "number" ? failure.statusCode : 0;
      return new ProviderDeliveryError("slack", { reason: reasonForStatus(status), status, detail }, error);
    }
    case "slack_webapi_request_error": {
      const name = failure.original?.name;
      const reason = name === "TimeoutError" || name === "AbortError" ? "timeout" : "network";
      return new ProviderDeliveryError("slack", { reason, detail }, error);
    }
  }
  // A 429 without a usable Retry-After comes as a plain error.
  const reason = /rate limit|retry header/i.test(detail) ? "rate_limited" : "network";
  return new ProviderDeliveryError("slack", { reason, detail }, error);
}

function refused(detail: string): ProviderDeliveryError {
  return new ProviderDeliveryError("slack", { reason: "invalid_request", detail });
}

/**
 * Slack reads `&`, `<` and `>` in a message's text as the start of an entity, a mention (`<!channel>`,
 * `<@U…>`) or a link (`<https://…|label>`); escaped as Slack documents, every character shows as it is
 * and none of them can ping a channel or hide a link.
 */
export function escapeSlackText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

// Slack truncates a message's text beyond 40,000 characters.
const maxText = 40_000;
const silent = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  setLevel() {},
  getLevel: () => "error",
  setName() {},
};

/**
 * A chat transport through Slack's official SDK (`@slack/web-api`, an optional peer dependency),
 * `chat.postMessage` to the channel or user id the records give. Text only: the decided text (its
 * subject, if any, as a first line), with `&`, `<` and `>` escaped so that Slack shows every character
 * and reads no mention or link in it; markdown off, link and media previews off. The receipt is the
 * channel and the message's `ts`. Slack keeps no idempotency key, so the transport does not declare
 * `deduplicatesByKey`.
 *
 * @example
 * import { slackTransport } from "formletter/providers";
 * const chat = slackTransport({ token: process.env.SLACK_BOT_TOKEN ?? "" });
 */
export function slackTransport(options: SlackTransportOptions): Transport {
  const factory = "slackTransport";
  const { timeoutMs } = checkBaseOptions(factory, options, { field: "token", value: options?.token });
  if (!/^xox[a-z]-[\x21-\x7E]+$/.test(options.token))
    invalidOption(factory, 'token is not a Slack token; pass a bot token ("xoxb-…")');
  const { WebClient } = requirePeer<typeof slack>(
    "@slack/web-api",
    "the Slack transport (formletter/providers)",
  );
  // A success that is not JSON may still have posted the message: it is never read as "nothing sent".
  const checkedFetch = async (input: string | URL | Request, init?: RequestInit) => {
    const response = await fetch(input, init);
    if (response.status !== 200) return response;
    const text = await response.text();
    try {
      JSON.parse(text);
    } catch {
      throw new ProviderDeliveryError("slack", {
        reason: "unconfirmed",
        status: 200,
        detail: "the API answered 200 with a body that is not JSON; the message may have been posted",
      });
    }
    return new Response(text, { status: response.status, headers: response.headers });
  };
  const client = new WebClient(options.token, {
    slackApiUrl: options.slackApiUrl ?? "https://slack.com/api/",
    timeout: timeoutMs,
    // One request per attempt: the outbox retries, and a repeated post would be a second message.
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    allowAbsoluteUrls: false,
    logger: silent as unknown as slack.Logger,
    fetch: checkedFetch as typeof fetch,
  });

  return {
    name: options.name ?? "slack",
    async deliver(message: Message, _context: DeliveryContext): Promise<DeliveryReceipt> {
      if (message.channel !== "chat")
        throw refused(`template "${message.template}" is on channel "${message.channel}"; Slack sends chat`);
      // Channel (C…, G…), direct message (D…) or user (U…, W…) ids: never a name, which could be re-used.
      if (!/^[CDGUW][A-Z0-9]{6,}$/.test(message.to))
        throw refused(`template "${message.template}" has no Slack channel or user id as its recipient`);
      const plain = message.subject === undefined ? message.text : `${message.subject}\n\n${message.text}`;
      const text = escapeSlackText(plain);
      if (text.length > maxText)
        throw refused(
          `the message is ${text.length} characters once escaped; Slack keeps at most ${maxText}`,
        );
      let reply: { readonly ok?: unknown; readonly ts?: unknown; readonly channel?: unknown };
      try {
        reply = await client.chat.postMessage({
          channel: message.to,
          text,
          mrkdwn: false,
          parse: "none",
          link_names: false,
          unfurl_links: false,
          unfurl_media: false,
        });
      } catch (error) {
        throw failureOf(error);
      }
      if (reply.ok !== true || typeof reply.ts !== "string" || reply.ts === "") {
        throw new ProviderDeliveryError("slack", {
          reason: "unconfirmed",
          status: 200,
          detail: "the API answered without a message ts; the message may have been posted",
        });
      }
      return { id: `${typeof reply.channel === "string" ? reply.channel : message.to}:${reply.ts}` };
    },
  };
}
