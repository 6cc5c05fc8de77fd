import { createHmac, timingSafeEqual } from "node:crypto";
import { FormletterError } from "../../core/errors.js";
import { deliveryEvent, eventCodeOf, eventIdOf, eventTimeOf } from "./delivery-event.js";
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

/** Options of {@link resendEvents}. */
export interface ResendEventsOptions {
  /** The webhook's signing secret as Resend shows it (`whsec_…`). */
  readonly secret: string;
  /** How far a webhook's timestamp may be from now, in seconds. @default 300 */
  readonly toleranceSeconds?: number;
}

/**
 * Resend's webhooks, verified as Standard Webhooks documents them: an HMAC-SHA256, under the secret's
 * bytes, of `id.timestamp.body`, in the `webhook-signature` header (Resend sends the same headers
 * prefixed `svix-`), one of its space-separated `v1,` signatures matching; a timestamp more than
 * `toleranceSeconds` from now is refused, so a captured request cannot be replayed later.
 *
 * @example
 * import { resendEvents } from "formletter/relay";
 * const resend = resendEvents({ secret: process.env.RESEND_WEBHOOK_SECRET ?? "" });
 */
export function resendEvents(options: ResendEventsOptions): EventVerifier {
  const secret = typeof options?.secret === "string" ? options.secret : "";
  const key = /^whsec_[A-Za-z0-9+/]+={0,2}$/.test(secret)
    ? Buffer.from(secret.slice(6), "base64")
    : undefined;
  if (key === undefined || key.byteLength < 16)
    throw new FormletterError(
      "transport_invalid",
      "resendEvents: secret must be the webhook's signing secret as Resend shows it, whsec_ and base64",
    );
  const tolerance = options.toleranceSeconds ?? 300;
  return {
    provider: "resend",
    async verify(request, now) {
      const header = (name: string) =>
        request.headers.get(`webhook-${name}`) ?? request.headers.get(`svix-${name}`) ?? undefined;
      const id = eventIdOf(header("id"));
      const timestamp = header("timestamp");
      const signatures = header("signature");
      const text = bodyText(request.body);
      if (id === undefined || timestamp === undefined || signatures === undefined || text === undefined)
        return signatureRefused;
      if (!freshTimestamp(timestamp, now, tolerance)) return signatureRefused;
      const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${text}`).digest();
      const matches = signatures.split(" ").some((entry) => {
        const [version, signature] = entry.split(",", 2);
        if (version !== "v1" || signature === undefined) return false;
        const given = Buffer.from(signature, "base64");
        return given.byteLength === expected.byteLength && timingSafeEqual(given, expected);
      });
      if (!matches) return signatureRefused;
      const payload = bodyJson(request.body);
      const type = field(payload, "type");
      const data = field(payload, "data");
      const messageId = eventIdOf(field(data, "email_id"));
      if (typeof type !== "string" || messageId === undefined) return malformed;
      const base = {
        provider: "resend" as const,
        eventId: id,
        messageId,
        at: eventTimeOf(field(payload, "created_at"), "iso"),
      };
      switch (type) {
        case "email.delivered":
          return verified([deliveryEvent({ ...base, status: "delivered" })]);
        case "email.bounced": {
          const bounce = field(data, "bounce");
          const permanent = field(bounce, "type") === "Permanent";
          return verified([
            deliveryEvent({
              ...base,
              status: "bounced",
              bounce: permanent ? "hard" : "soft",
              code: eventCodeOf(field(bounce, "subType")),
            }),
          ]);
        }
        case "email.complained":
          return verified([deliveryEvent({ ...base, status: "complained" })]);
        case "email.failed":
          return verified([deliveryEvent({ ...base, status: "failed" })]);
        default:
          return verified([undefined]);
      }
    },
  };
}
