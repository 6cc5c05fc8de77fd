import { FormletterError } from "../../core/errors.js";
import { requirePeer } from "../../core/peer-dependency.js";
import { type DeliveryEvent, deliveryEvent, eventCodeOf, eventIdOf } from "./delivery-event.js";
import { bodyText, type EventVerifier, malformed, signatureRefused, verified } from "./verifier.js";

/** Options of {@link twilioEvents}. */
export interface TwilioEventsOptions {
  /** The account's auth token, which signs every request Twilio sends. */
  readonly authToken: string;
  /**
   * The public URL Twilio posts status callbacks to, as set in `StatusCallback` (scheme, host, path;
   * e.g. `https://relay.example.com/v1/events/twilio`). Twilio signs the URL it called, which behind a
   * proxy is not the one the relay sees; the request's query string is added to it.
   */
  readonly url: string;
}

// Error codes that say the number cannot receive (invalid, not mobile, unknown), or that its owner opted
// out (21610: the recipient replied STOP), read as a hard bounce and a complaint.
const unreachable = new Set(["21211", "21614", "30005", "30006"]);
const optedOut = new Set(["21610"]);

/**
 * Twilio's message status callbacks, verified with the Twilio SDK's `validateRequest`: the
 * `X-Twilio-Signature` header is an HMAC-SHA1, under the auth token, of the public URL followed by the
 * form parameters in name order. Twilio's scheme has no timestamp: a replayed callback is caught by its
 * event id (the message SID and status), never recorded twice.
 *
 * @example
 * import { twilioEvents } from "formletter/relay";
 * const twilio = twilioEvents({ authToken: process.env.TWILIO_AUTH_TOKEN ?? "", url: "https://relay.example.com/v1/events/twilio" });
 */
export function twilioEvents(options: TwilioEventsOptions): EventVerifier {
  const { authToken, url } = options ?? {};
  if (typeof authToken !== "string" || authToken.length < 16)
    throw new FormletterError(
      "transport_invalid",
      "twilioEvents: authToken must be the account's auth token",
    );
  let base: URL;
  try {
    base = new URL(typeof url === "string" ? url : "");
  } catch {
    throw new FormletterError(
      "transport_invalid",
      "twilioEvents: url must be the absolute public URL Twilio posts to, e.g. https://relay.example.com/v1/events/twilio",
    );
  }
  if (base.search !== "" || base.hash !== "")
    throw new FormletterError("transport_invalid", "twilioEvents: url must have no query or fragment");
  let sdk: { validateRequest(token: string, signature: string, url: string, params: object): boolean };
  return {
    provider: "twilio",
    async verify(request) {
      const signature = request.headers.get("x-twilio-signature");
      const text = bodyText(request.body);
      if (signature === null || text === undefined) return signatureRefused;
      const params: Record<string, string> = Object.create(null);
      for (const [name, value] of new URLSearchParams(text)) params[name] = value;
      const signed = new URL(base);
      signed.search = new URL(request.url, base).search;
      sdk ??= requirePeer("twilio", "verifying Twilio's status callbacks (twilioEvents)");
      if (!sdk.validateRequest(authToken, signature, signed.href, params)) return signatureRefused;
      const sid = eventIdOf(params.MessageSid);
      const status = params.MessageStatus;
      if (sid === undefined || typeof status !== "string") return malformed;
      return verified([eventOf(sid, status, eventCodeOf(params.ErrorCode))]);
    },
  };
}

/** The delivery event of a status callback, or undefined for a status formletter does not record. */
function eventOf(sid: string, status: string, code: string | undefined): DeliveryEvent | undefined {
  const base = { provider: "twilio" as const, eventId: `${sid}:${status}`, messageId: sid, code };
  if (status === "delivered") return deliveryEvent({ ...base, status: "delivered" });
  if (status !== "undelivered" && status !== "failed") return undefined;
  if (code !== undefined && optedOut.has(code)) return deliveryEvent({ ...base, status: "complained" });
  if (code !== undefined && unreachable.has(code))
    return deliveryEvent({ ...base, status: "bounced", bounce: "hard" });
  return status === "undelivered"
    ? deliveryEvent({ ...base, status: "bounced", bounce: "soft" })
    : deliveryEvent({ ...base, status: "failed" });
}
