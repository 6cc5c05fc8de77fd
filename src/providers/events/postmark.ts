import { createHash, timingSafeEqual } from "node:crypto";
import { FormletterError } from "../../core/errors.js";
import { deliveryEvent, eventCodeOf, eventIdOf, eventTimeOf } from "./delivery-event.js";
import { bodyJson, type EventVerifier, field, malformed, signatureRefused, verified } from "./verifier.js";

/** Options of {@link postmarkEvents}: the credentials put in the webhook's URL (`https://user:pass@…`). */
export interface PostmarkEventsOptions {
  readonly username: string;
  /** At least 16 characters: the credentials are the only thing that authenticates Postmark here. */
  readonly password: string;
}

// Bounce types after which Postmark deactivates the address, or that say it does not exist.
const hardBounces = new Set(["HardBounce", "BadEmailAddress", "ManuallyDeactivated"]);

/**
 * Postmark's delivery, bounce and spam-complaint webhooks, authenticated the way Postmark documents:
 * HTTP basic auth with credentials set in the webhook's URL, compared in constant time. Postmark signs
 * nothing and sends no timestamp: a replayed request is caught by its event id (the bounce's `ID`, or
 * the message id for a delivery), never recorded twice.
 *
 * @example
 * import { postmarkEvents } from "formletter/relay";
 * const postmark = postmarkEvents({ username: "postmark", password: process.env.POSTMARK_HOOK_PASSWORD ?? "" });
 */
export function postmarkEvents(options: PostmarkEventsOptions): EventVerifier {
  const { username, password } = options ?? {};
  if (
    typeof username !== "string" ||
    typeof password !== "string" ||
    username === "" ||
    username.includes(":") ||
    password.length < 16
  )
    throw new FormletterError(
      "transport_invalid",
      "postmarkEvents: pass the username (no colon) and a password of at least 16 characters set in the webhook's URL",
    );
  const digest = (text: string) => createHash("sha256").update(text).digest();
  const expected = digest(`Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`);
  return {
    provider: "postmark",
    async verify(request) {
      const given = request.headers.get("authorization");
      // Hashed first: equal lengths for timingSafeEqual, and no length leaks.
      if (given === null || !timingSafeEqual(digest(given.trim()), expected)) return signatureRefused;
      const payload = bodyJson(request.body);
      const record = field(payload, "RecordType");
      const messageId = eventIdOf(field(payload, "MessageID"));
      if (typeof record !== "string" || messageId === undefined) return malformed;
      const id = eventIdOf(String(field(payload, "ID") ?? ""));
      switch (record) {
        case "Delivery":
          return verified([
            deliveryEvent({
              provider: "postmark",
              eventId: `delivery:${messageId}`,
              messageId,
              status: "delivered",
              at: eventTimeOf(field(payload, "DeliveredAt"), "iso"),
            }),
          ]);
        case "Bounce":
        case "SpamComplaint": {
          if (id === undefined) return malformed;
          const type = field(payload, "Type");
          const complaint = record === "SpamComplaint" || type === "SpamComplaint";
          const hard = hardBounces.has(String(type)) || field(payload, "Inactive") === true;
          return verified([
            deliveryEvent({
              provider: "postmark",
              eventId: `${record}:${id}`,
              messageId,
              status: complaint ? "complained" : "bounced",
              bounce: complaint ? undefined : hard ? "hard" : "soft",
              code: eventCodeOf(complaint ? undefined : type),
              at: eventTimeOf(field(payload, "BouncedAt"), "iso"),
            }),
          ]);
        }
        default:
          return verified([undefined]);
      }
    },
  };
}
