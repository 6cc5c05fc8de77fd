import type { Message } from "../core/decision/decision.js";
import { requirePeer } from "../core/peer-dependency.js";
import type { DeliveryContext, DeliveryReceipt, Transport } from "../transport/transport.js";
import { type ApprovedText, parseApprovedText, variablesFor } from "./approved-template.js";
import {
  ProviderDeliveryError,
  type ProviderFailureReason,
  reasonForStatus,
  unansweredReason,
} from "./provider-error.js";
import { checkBaseOptions, invalidOption, type ProviderBaseOptions } from "./provider-options.js";

/**
 * A WhatsApp template approved at Twilio (Content API) for one formletter template: its Content SID
 * and its text exactly as approved, variables written `{{1}}`, `{{2}}`…
 */
export interface TwilioContentTemplate {
  /** The Content SID, `HX` and 32 hex digits. */
  readonly contentSid: string;
  /** The approved body, e.g. "Your order {{1}} is ready for pickup at {{2}}. Reply STOP to opt out." */
  readonly body: string;
  /** The approved header, when the template has a subject. */
  readonly header?: string;
}

/**
 * Options of {@link twilioTransport}.
 *
 * @example
 * import { twilioTransport } from "formletter/providers";
 * twilioTransport({
 *   accountSid: process.env.TWILIO_ACCOUNT_SID ?? "",
 *   authToken: process.env.TWILIO_AUTH_TOKEN ?? "",
 *   from: "+14155550100",
 * });
 */
export interface TwilioTransportOptions extends ProviderBaseOptions {
  /** The account, `AC` and 32 hex digits. */
  readonly accountSid: string;
  /** The account's auth token, sent as HTTP basic auth by the SDK. */
  readonly authToken: string;
  /** The sending number in E.164 (WhatsApp: the WhatsApp sender), or an alphanumeric sender id (SMS only). */
  readonly from?: string;
  /** A Messaging Service, `MG` and 32 hex digits, instead of `from`. */
  readonly messagingServiceSid?: string;
  /**
   * WhatsApp: the approved template for each formletter template id sent on the `whatsapp` channel. A
   * localised template is approved once per language: key those as `"<template id>:<locale>"`
   * (`"pickup_ready:de"`), which comes before the plain template id.
   */
  readonly whatsapp?: Readonly<Record<string, TwilioContentTemplate>>;
  /**
   * Where the API is reached instead of `https://api.twilio.com`. Only for a test server: the SDK has
   * no base-URL option, so the requests of its own HTTP client are re-addressed.
   */
  readonly baseUrl?: string;
}

// Twilio's error codes (its error dictionary) that say more than the HTTP status does.
const codeReasons: ReadonlyMap<number, ProviderFailureReason> = new Map([
  [20003, "auth_failed"], // authentication failed
  [20005, "account_blocked"], // account not active
  [20429, "rate_limited"], // too many requests
  [14107, "rate_limited"], // sending rate of the sender exceeded
  [21611, "rate_limited"], // the sender's queue is full
  [20500, "server_error"],
  [20503, "server_error"],
  [21211, "recipient_invalid"], // invalid 'To' number
  [21265, "recipient_invalid"], // 'To' is a short code
  [21612, "recipient_invalid"], // the 'To' number cannot be reached from this sender
  [21614, "recipient_invalid"], // 'To' is not a mobile number
  [21610, "recipient_inactive"], // the recipient replied STOP: unsubscribed
  [21408, "account_blocked"], // sending to this region is not enabled for the account
  [21606, "sender_rejected"], // 'From' is not a valid number of this account
  [21659, "sender_rejected"], // 'From' is not a Twilio number
  [21660, "sender_rejected"], // 'From' belongs to another account
  [21703, "sender_rejected"], // the Messaging Service has no sender
  [63007, "sender_rejected"], // no WhatsApp channel for 'From'
]);

/** The part of the `twilio` package this transport uses. */
interface TwilioSdk {
  (
    accountSid: string,
    authToken: string,
    options: { readonly httpClient: unknown },
  ): {
    messages: { create(params: Readonly<Record<string, unknown>>): Promise<{ readonly sid?: unknown }> };
  };
  RequestClient: new (options: {
    readonly timeout: number;
    readonly autoRetry: boolean;
  }) => { request(opts: RequestOptions): Promise<unknown> };
}

/** The request the SDK hands its HTTP client; only the address is read here. */
type RequestOptions = { readonly uri: string } & Readonly<Record<string, unknown>>;

interface TwilioFailure {
  readonly status?: unknown;
  /** Twilio's error code for an answer; the HTTP client's code ("ECONNABORTED"…) for none. */
  readonly code?: unknown;
  readonly message?: unknown;
}

function failureOf(error: unknown): ProviderDeliveryError {
  const failure: TwilioFailure = typeof error === "object" && error !== null ? error : {};
  const detail = typeof failure.message === "string" ? failure.message : "";
  if (typeof failure.status !== "number")
    return new ProviderDeliveryError("twilio", { reason: unansweredReason(failure.code), detail }, error);

  const code = typeof failure.code === "number" ? failure.code : undefined;
  return new ProviderDeliveryError(
    "twilio",
    {
      reason: (code === undefined ? undefined : codeReasons.get(code)) ?? reasonForStatus(failure.status),
      status: failure.status,
      ...(code === undefined ? {} : { providerCode: code }),
      detail,
    },
    error,
  );
}

function isJson(body: unknown): boolean {
  if (typeof body !== "string") return typeof body === "object" && body !== null;
  try {
    JSON.parse(body);
    return true;
  } catch {
    return false;
  }
}

function refused(detail: string): ProviderDeliveryError {
  return new ProviderDeliveryError("twilio", { reason: "invalid_request", detail });
}

interface CheckedContent {
  readonly contentSid: string;
  readonly body: ApprovedText;
  readonly header: ApprovedText | undefined;
}

function checkContent(factory: string, id: string, content: TwilioContentTemplate): CheckedContent {
  if (typeof content?.contentSid !== "string" || !/^HX[0-9a-f]{32}$/.test(content.contentSid))
    invalidOption(factory, `whatsapp.${id}.contentSid must be a Content SID ("HX" and 32 hex digits)`);
  const parse = (field: "body" | "header", text: unknown): ApprovedText => {
    const parsed = typeof text === "string" ? parseApprovedText(text) : "it is not a string";
    if (typeof parsed === "string")
      invalidOption(factory, `whatsapp.${id}.${field}: ${parsed}; copy the text exactly as approved`);
    return parsed;
  };
  return {
    contentSid: content.contentSid,
    body: parse("body", content.body),
    header: content.header === undefined ? undefined : parse("header", content.header),
  };
}

/**
 * The content variables of a WhatsApp message: read back from the decided text against the approved
 * one, so that what WhatsApp renders from the approved template and these variables is exactly the
 * decided message.
 */
function contentVariables(content: CheckedContent, message: Message): string {
  const parts: [ApprovedText | undefined, string | undefined][] = [
    [content.header, message.subject],
    [content.body, message.text],
  ];
  const variables = new Map<string, string>();
  for (const [approved, rendered] of parts) {
    if (approved === undefined && rendered === undefined) continue;
    const found =
      approved === undefined || rendered === undefined ? undefined : variablesFor(approved, rendered);
    if (found === undefined)
      throw refused(
        `the message of template "${message.template}" is not its approved WhatsApp template with one reading of its variables; make the approved text and the template's text the same`,
      );
    for (const [name, value] of found) {
      if (variables.has(name) && variables.get(name) !== value)
        throw refused(`variable {{${name}}} of template "${message.template}" would hold two values`);
      // WhatsApp refuses a variable with a line break, a tab or four spaces in a row.
      if (/[\n\t]| {4}/.test(value))
        throw refused(
          `variable {{${name}}} of template "${message.template}" has a line break, tab or run of spaces`,
        );
      variables.set(name, value);
    }
  }
  return JSON.stringify(Object.fromEntries(variables));
}

const e164 = /^\+[1-9]\d{6,14}$/;

/**
 * An SMS and WhatsApp transport through Twilio's official SDK (`twilio`, an optional peer dependency),
 * `POST /2010-04-01/Accounts/{AccountSid}/Messages.json`. An SMS is the decided text byte for byte
 * (smart encoding off, so no character is swapped for a look-alike). A WhatsApp message is sent as
 * its approved template (Content SID) with content variables, because WhatsApp accepts a message a
 * business starts only as an approved template: the approved text is the contract. The transport
 * reads each variable back from the decided text against the approved one and refuses the message
 * (permanently) when they differ or the reading is not unique, so WhatsApp renders exactly the
 * decided text. Twilio's message SID becomes the receipt. Twilio keeps no idempotency key, so the
 * transport does not declare `deduplicatesByKey`.
 *
 * @example
 * import { twilioTransport } from "formletter/providers";
 * const sms = twilioTransport({
 *   accountSid: process.env.TWILIO_ACCOUNT_SID ?? "",
 *   authToken: process.env.TWILIO_AUTH_TOKEN ?? "",
 *   from: "+14155550100",
 * });
 */
export function twilioTransport(options: TwilioTransportOptions): Transport {
  const factory = "twilioTransport";
  const { timeoutMs } = checkBaseOptions(factory, options, { field: "authToken", value: options?.authToken });
  if (typeof options.accountSid !== "string" || !/^AC[0-9a-f]{32}$/.test(options.accountSid))
    invalidOption(factory, 'accountSid must be an Account SID ("AC" and 32 hex digits)');
  const { from, messagingServiceSid } = options;
  if ((from === undefined) === (messagingServiceSid === undefined))
    invalidOption(factory, "pass either from (a sending number) or messagingServiceSid, not both or neither");
  if (messagingServiceSid !== undefined && !/^MG[0-9a-f]{32}$/.test(messagingServiceSid))
    invalidOption(factory, 'messagingServiceSid must be a Messaging Service SID ("MG" and 32 hex digits)');
  const alphanumeric = /^(?=.*[A-Za-z])[A-Za-z0-9 ]{1,11}$/;
  if (from !== undefined && !e164.test(from) && !alphanumeric.test(from))
    invalidOption(
      factory,
      `from ${JSON.stringify(from)} is not an E.164 number or an alphanumeric sender id`,
    );
  const templates = new Map<string, CheckedContent>();
  for (const [id, content] of Object.entries(options.whatsapp ?? {})) {
    templates.set(id, checkContent(factory, id, content));
  }
  if (templates.size > 0 && from !== undefined && !e164.test(from))
    invalidOption(factory, "WhatsApp needs from to be the WhatsApp sender's E.164 number");

  const sdk = requirePeer<TwilioSdk>("twilio", "the Twilio transport (formletter/providers)");
  const base = options.baseUrl;
  // The SDK has no base-URL option; its own HTTP client, re-addressed, keeps its auth and encoding.
  class ReaddressedClient extends sdk.RequestClient {
    override async request(opts: RequestOptions) {
      const url = new URL(opts.uri);
      const response = await super.request(
        base === undefined
          ? opts
          : { ...opts, uri: `${base.replace(/\/$/, "")}${url.pathname}${url.search}` },
      );
      const { statusCode, body } = response as { statusCode?: unknown; body?: unknown };
      // The SDK fails on a success it cannot read as if nothing had been sent; it may have been.
      if (typeof statusCode === "number" && statusCode < 300 && !isJson(body)) {
        throw new ProviderDeliveryError("twilio", {
          reason: "unconfirmed",
          status: statusCode,
          detail:
            "the API answered without a message; it may have been sent: look it up in Twilio's logs before sending it again",
        });
      }
      return response;
    }
  }
  const client = sdk(options.accountSid, options.authToken, {
    httpClient: new ReaddressedClient({ timeout: timeoutMs, autoRetry: false }),
  });
  const sender = messagingServiceSid === undefined ? { from } : { messagingServiceSid };

  return {
    name: options.name ?? "twilio",
    async deliver(message: Message, _context: DeliveryContext): Promise<DeliveryReceipt> {
      if (!e164.test(message.to))
        throw refused(
          `template "${message.template}" has no E.164 recipient; a phone field in E.164 is needed`,
        );
      let params: Readonly<Record<string, unknown>>;
      if (message.channel === "sms") {
        params = { to: message.to, body: message.text, smartEncoded: false, ...sender };
      } else if (message.channel === "whatsapp") {
        const content =
          (message.locale === undefined
            ? undefined
            : templates.get(`${message.template}:${message.locale}`)) ?? templates.get(message.template);
        if (content === undefined)
          throw refused(
            `template "${message.template}" has no approved WhatsApp template; add it to the whatsapp option with its Content SID`,
          );
        params = {
          to: `whatsapp:${message.to}`,
          contentSid: content.contentSid,
          contentVariables: contentVariables(content, message),
          ...(from === undefined ? { messagingServiceSid } : { from: `whatsapp:${from}` }),
        };
      } else {
        throw refused(
          `template "${message.template}" is on channel "${message.channel}"; Twilio sends sms and whatsapp`,
        );
      }
      let reply: { readonly sid?: unknown };
      try {
        reply = await client.messages.create(params);
      } catch (error) {
        throw error instanceof ProviderDeliveryError ? error : failureOf(error);
      }
      if (typeof reply.sid !== "string" || !/^(SM|MM)[0-9a-f]{32}$/.test(reply.sid)) {
        throw new ProviderDeliveryError("twilio", {
          reason: "unconfirmed",
          status: 200,
          detail:
            "the API answered without a message SID; the message may have been sent: look it up in Twilio's logs before sending it again",
        });
      }
      return { id: reply.sid };
    },
  };
}
