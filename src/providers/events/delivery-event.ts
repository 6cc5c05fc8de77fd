/**
 * What a provider reported about a message it accepted, read from a verified webhook: one shape for
 * every provider, holding only typed facts (never the recipient's address, never the provider's text).
 */

import type { Channel } from "../../core/definition/channels.js";

/** The providers whose delivery events the relay verifies, each the documented way. */
export const eventProviders = ["ses", "sendgrid", "twilio", "postmark", "resend"] as const;

/** A provider of delivery events. */
export type EventProvider = (typeof eventProviders)[number];

/**
 * The channels each provider delivers: an event is tied only to a message sent on one of them, so a
 * provider (or whoever holds its webhook credentials) cannot report on, or suppress, a message another
 * provider carried by naming its receipt.
 */
export const providerChannels: Readonly<Record<EventProvider, readonly Channel[]>> = {
  ses: ["email"],
  sendgrid: ["email"],
  postmark: ["email"],
  resend: ["email"],
  twilio: ["sms", "whatsapp"],
};

/** What happened to a message after its provider accepted it. */
export type DeliveryEventStatus = "delivered" | "bounced" | "complained" | "failed";

/**
 * One delivery event. `messageId` is the receipt the transport returned for the message (the provider's
 * message id); `eventId` is unique per event at its provider, so a replay is counted once. It names no
 * template or catalog version (the provider knows none): recording it ties it to the outbound row of its
 * message, and the `delivery_status` audit event takes that row's versions.
 */
export interface DeliveryEvent {
  readonly provider: EventProvider;
  readonly eventId: string;
  readonly messageId: string;
  readonly status: DeliveryEventStatus;
  /** For `bounced`: `hard` (the address cannot receive: it is suppressed) or `soft` (it may later). */
  readonly bounce?: "hard" | "soft";
  /** When the provider says it happened, in epoch milliseconds, if it says. */
  readonly at?: number;
  /** The provider's code for it (an SMTP status, an error code), when it is a short token. */
  readonly code?: string;
}

const idPattern = /^[\x21-\x7e]{1,256}$/;
const codePattern = /^[A-Za-z0-9._-]{1,64}$/;

/** An id as the provider sent it, if it is 1 to 256 printable ASCII characters; else undefined. */
export function eventIdOf(value: unknown): string | undefined {
  return typeof value === "string" && idPattern.test(value) ? value : undefined;
}

/** A provider code, if it is a short token; the provider's free text is never kept. */
export function eventCodeOf(value: unknown): string | undefined {
  const text = typeof value === "number" && Number.isSafeInteger(value) ? String(value) : value;
  return typeof text === "string" && codePattern.test(text) ? text : undefined;
}

/** Epoch milliseconds of a provider's time (ISO text, or epoch seconds), if it is one. */
export function eventTimeOf(value: unknown, unit: "iso" | "seconds"): number | undefined {
  const ms =
    unit === "seconds"
      ? typeof value === "number" && Number.isFinite(value)
        ? value * 1000
        : Number.NaN
      : typeof value === "string"
        ? Date.parse(value)
        : Number.NaN;
  return Number.isFinite(ms) ? ms : undefined;
}

/** A delivery event with only the fields that are set, so absent ones stay absent under exact types. */
export function deliveryEvent(fields: {
  provider: EventProvider;
  eventId: string;
  messageId: string;
  status: DeliveryEventStatus;
  bounce?: "hard" | "soft" | undefined;
  at?: number | undefined;
  code?: string | undefined;
}): DeliveryEvent {
  const { bounce, at, code, ...required } = fields;
  return {
    ...required,
    ...(bounce === undefined ? {} : { bounce }),
    ...(at === undefined ? {} : { at }),
    ...(code === undefined ? {} : { code }),
  };
}
