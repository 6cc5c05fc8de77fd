import { createPublicKey, type KeyObject, verify } from "node:crypto";
import { FormletterError } from "../../core/errors.js";
import { requirePeer } from "../../core/peer-dependency.js";
import { type DeliveryEvent, deliveryEvent, eventCodeOf, eventIdOf, eventTimeOf } from "./delivery-event.js";
import {
  bodyJson,
  bodyText,
  type EventVerifier,
  field,
  freshTimestamp,
  malformed,
  signatureRefused,
  verified,
} from "./verifier.js";

/** Options of {@link sendgridEvents}. */
export interface SendgridEventsOptions {
  /** The Signed Event Webhook's verification key, as SendGrid shows it (base64, or PEM). */
  readonly publicKey: string;
  /** How far the signed timestamp may be from now, in seconds. @default 300 */
  readonly toleranceSeconds?: number;
}

interface EventWebhookModule {
  EventWebhook: new () => {
    convertPublicKeyToECDSA(key: string): unknown;
    verifySignature(key: unknown, payload: string, signature: string, timestamp: string): boolean;
  };
}

/**
 * SendGrid's Signed Event Webhook, verified with `@sendgrid/eventwebhook`: an ECDSA (P-256, SHA-256)
 * signature of the timestamp header followed by the raw body, in
 * `X-Twilio-Email-Event-Webhook-Signature`; a timestamp more than `toleranceSeconds` from now is
 * refused. A batch holds many events; each is recorded once by its `sg_event_id`.
 *
 * @example
 * import { sendgridEvents } from "formletter/relay";
 * const sendgrid = sendgridEvents({ publicKey: process.env.SENDGRID_WEBHOOK_KEY ?? "" });
 */
export function sendgridEvents(options: SendgridEventsOptions): EventVerifier {
  const given = typeof options?.publicKey === "string" ? options.publicKey.trim() : "";
  const pem = given.startsWith("-----BEGIN")
    ? given
    : `-----BEGIN PUBLIC KEY-----\n${given}\n-----END PUBLIC KEY-----`;
  const { EventWebhook } = requirePeer<EventWebhookModule>(
    "@sendgrid/eventwebhook",
    "verifying SendGrid's event webhook (sendgridEvents)",
  );
  const webhook = new EventWebhook();
  let key: unknown;
  let nodeKey: KeyObject;
  try {
    if (!/^[A-Za-z0-9+/=\s-]+$/.test(given)) throw new Error("not a key");
    key = webhook.convertPublicKeyToECDSA(pem);
    nodeKey = createPublicKey(pem);
  } catch (error) {
    throw new FormletterError(
      "transport_invalid",
      "sendgridEvents: publicKey must be the Signed Event Webhook's verification key as SendGrid shows it",
      { cause: error },
    );
  }
  const tolerance = options.toleranceSeconds ?? 300;
  return {
    provider: "sendgrid",
    async verify(request, now) {
      const signature = request.headers.get("x-twilio-email-event-webhook-signature");
      const timestamp = request.headers.get("x-twilio-email-event-webhook-timestamp");
      const text = bodyText(request.body);
      if (signature === null || timestamp === null || text === undefined) return signatureRefused;
      if (!freshTimestamp(timestamp, now, tolerance)) return signatureRefused;
      let valid = false;
      try {
        // Node's check first: the library's pure-JavaScript ECDSA takes about 25 ms to refuse a forged
        // signature, which an unauthenticated sender could repeat; node refuses one in a fraction of that.
        // A signature node accepts is then verified by the library as SendGrid documents.
        valid =
          verify("sha256", Buffer.from(timestamp + text), nodeKey, Buffer.from(signature, "base64")) &&
          webhook.verifySignature(key, text, signature, timestamp);
      } catch {
        // A signature that is not DER in base64 makes the library throw: it is no signature.
      }
      if (!valid) return signatureRefused;
      const batch = bodyJson(request.body);
      if (!Array.isArray(batch)) return malformed;
      const events: (DeliveryEvent | undefined)[] = [];
      for (const item of batch) {
        const eventId = eventIdOf(field(item, "sg_event_id"));
        const full = field(item, "sg_message_id");
        // The message id SendGrid returned (X-Message-Id) is the part before the first dot.
        const messageId = eventIdOf(typeof full === "string" ? full.split(".")[0] : undefined);
        if (eventId === undefined || messageId === undefined) return malformed;
        events.push(eventOf(item, eventId, messageId));
      }
      return verified(events);
    },
  };
}

/** The delivery event of one SendGrid event, or undefined for a kind formletter does not record. */
function eventOf(item: unknown, eventId: string, messageId: string): DeliveryEvent | undefined {
  const base = {
    provider: "sendgrid" as const,
    eventId,
    messageId,
    at: eventTimeOf(field(item, "timestamp"), "seconds"),
  };
  switch (field(item, "event")) {
    case "delivered":
      return deliveryEvent({ ...base, status: "delivered" });
    case "bounce":
      // `type` is "bounce" for a permanent failure and "blocked" for a refusal that may pass later.
      return deliveryEvent({
        ...base,
        status: "bounced",
        bounce: field(item, "type") === "blocked" ? "soft" : "hard",
        code: eventCodeOf(field(item, "status")),
      });
    case "spamreport":
      return deliveryEvent({ ...base, status: "complained" });
    case "dropped":
      return deliveryEvent({ ...base, status: "failed" });
    default:
      return undefined;
  }
}
