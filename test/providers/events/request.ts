import type { DeliveryEvent } from "../../../src/providers/events/delivery-event.js";
import type { EventRequest, Verified } from "../../../src/providers/events/verifier.js";

/** A webhook request as the relay would hand it to a verifier. */
export function eventRequest(
  body: string,
  headers: Record<string, string>,
  url = "https://relay.example.com/v1/events/x",
): EventRequest {
  return { body: new TextEncoder().encode(body), headers: new Headers(headers), url };
}

/** 2 March 2026, 09:00:00 UTC. */
export const now = Date.UTC(2026, 2, 2, 9, 0, 0);
export const nowSeconds = Math.floor(now / 1000);

/** The events of a verification that must have passed. */
export function eventsOf(result: Verified): readonly DeliveryEvent[] {
  if (!result.ok) throw new Error(`expected the request to verify, it was refused: ${result.refusal}`);
  return result.events;
}
