import { z } from "zod";
import type { Outbox } from "../outbox/index.js";
import type { DeliveryEvent, EventProvider } from "../providers/events/delivery-event.js";
import type { EventVerifier } from "../providers/events/verifier.js";
import { json, problem } from "./http.js";
import { readBodyBytes } from "./json-body.js";
import type { RelayMetrics } from "./relay-metrics.js";
import type { Route } from "./routes.js";

/** The verifiers a relay serves `POST /v1/events/{provider}` with, by provider. */
export type DeliveryEventVerifiers = Partial<Record<EventProvider, EventVerifier>>;

const count = z.number().int().nonnegative();

/** What a provider is answered once its events are recorded. */
export const deliveryEventsReply = z.object({
  received: count.meta({ description: "Events of kinds formletter records, in the request." }),
  recorded: count.meta({ description: "Events tied to the message they are about." }),
  unmatched: count.meta({
    description: "Events for a message id no outbound message has: recorded as unmatched.",
  }),
  replayed: count.meta({
    description: "Events whose id was recorded before: counted once, nothing written.",
  }),
  ignored: count.meta({
    description: "Events of kinds formletter does not record (opens, clicks, deferrals…).",
  }),
});

/** What the events route needs of the relay. */
export interface EventRoutesOptions {
  readonly outbox: Outbox;
  readonly verifiers: DeliveryEventVerifiers;
  readonly metrics: RelayMetrics;
  readonly maxBodyBytes: number;
  readonly clock: () => number;
}

/**
 * `POST /v1/events/{provider}`: delivery status coming back. No token: the provider's own signature
 * authenticates the request, verified the documented way by the provider's verifier, on the raw bytes,
 * before anything is parsed or written. A provider not configured is 404, like any path that does not
 * exist; an unsigned, tampered or stale request 401; a body over the limit 413.
 */
export function eventRoutes(options: EventRoutesOptions): Route[] {
  const { outbox, verifiers, metrics, maxBodyBytes, clock } = options;
  return [
    {
      method: "POST",
      path: "/v1/events/:provider",
      doc: {
        summary: "Delivery events from an e-mail or SMS provider: delivered, bounced, complained, failed",
        description:
          "Authenticated by the provider's own signature (SES through SNS, SendGrid's signed event webhook, Twilio's X-Twilio-Signature, Postmark's basic auth, Resend's Standard Webhooks signature), not by a token. Each event is tied to the message whose receipt is its message id; a hard bounce or a complaint suppresses the destination. Bodies are the provider's own.",
        auth: "none",
        success: { schema: deliveryEventsReply, name: "DeliveryEventsReceived" },
        errors: {
          400: ["body_malformed"],
          401: ["signature_invalid"],
          404: ["not_found"],
          413: ["body_too_large"],
          503: ["unavailable"],
        },
      },
      handle: async (request, _route, params) => {
        const provider = params.provider ?? "";
        const verifier = Object.hasOwn(verifiers, provider)
          ? verifiers[provider as EventProvider]
          : undefined;
        if (verifier === undefined) return problem(404, { code: "not_found" });
        const body = await readBodyBytes(request, maxBodyBytes);
        if (body === undefined) {
          metrics.refusal("body_too_large");
          return problem(413, { code: "body_too_large", expected: { kind: "bytes", max: maxBodyBytes } });
        }
        const result = await verifier
          .verify({ body, headers: request.headers, url: request.url }, clock())
          .catch(() => undefined);
        // A verifier that could not finish (a certificate or confirmation out of reach): the provider retries.
        if (result === undefined) return problem(503, { code: "unavailable" }, { "retry-after": "10" });
        if (!result.ok) {
          const code = result.refusal === "signature" ? "signature_invalid" : "body_malformed";
          metrics.refusal(code);
          return problem(result.refusal === "signature" ? 401 : 400, { code });
        }
        const outcomes = await outbox.recordDeliveryEvents(result.events).catch(() => undefined);
        if (outcomes === undefined) return problem(503, { code: "unavailable" }, { "retry-after": "10" });
        const tally = { recorded: 0, unmatched: 0, replayed: 0 };
        outcomes.forEach((outcome, index) => {
          tally[outcome.outcome] += 1;
          metrics.deliveryEvent(verifier.provider, statusLabel(result.events[index]), outcome.outcome);
        });
        return json(200, { received: result.events.length, ...tally, ignored: result.ignored });
      },
    },
  ];
}

function statusLabel(event: DeliveryEvent | undefined): string {
  if (event === undefined) return "unknown";
  return event.status === "bounced" ? `bounced_${event.bounce ?? "soft"}` : event.status;
}
