import type { DeliveryEvent, EventProvider } from "./delivery-event.js";

/** A webhook request as it arrived: the raw body (signatures are over its bytes), headers and public URL. */
export interface EventRequest {
  readonly body: Uint8Array;
  readonly headers: Headers;
  /** The URL the provider called, as it called it (Twilio signs it). */
  readonly url: string;
}

/**
 * What verifying a webhook request found:
 * - `ok`: signed as the provider documents, the events it reports (`ignored` counts the events of
 *   kinds formletter does not record: opens, clicks, deferrals…);
 * - `signature`: unsigned, signed with another key, tampered, too old, or from a sender not configured;
 * - `malformed`: signed, but not the documented shape.
 */
export type Verified =
  | { readonly ok: true; readonly events: readonly DeliveryEvent[]; readonly ignored: number }
  | { readonly ok: false; readonly refusal: "signature" | "malformed" };

/** Verifies one provider's webhook requests the documented way and reads their delivery events. */
export interface EventVerifier {
  readonly provider: EventProvider;
  verify(request: EventRequest, now: number): Promise<Verified>;
}

export const signatureRefused: Verified = { ok: false, refusal: "signature" };
export const malformed: Verified = { ok: false, refusal: "malformed" };

/** The events read, and how many were of kinds not recorded. */
export function verified(events: readonly (DeliveryEvent | undefined)[]): Verified {
  const kept = events.filter((event): event is DeliveryEvent => event !== undefined);
  return { ok: true, events: kept, ignored: events.length - kept.length };
}

/** The body as UTF-8 text, or undefined when it is not UTF-8. */
export function bodyText(body: Uint8Array): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch {
    return undefined;
  }
}

/** JSON of the body, or undefined when it is not UTF-8 JSON. */
export function bodyJson(body: Uint8Array): unknown {
  const text = bodyText(body);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** An own property of a JSON object, or undefined (never one of its prototype's). */
export function field(value: unknown, name: string): unknown {
  return typeof value === "object" && value !== null && !Array.isArray(value) && Object.hasOwn(value, name)
    ? (value as Record<string, unknown>)[name]
    : undefined;
}

/**
 * True when a signed timestamp header holds a Unix time in whole seconds within `tolerance` seconds of
 * `now` (milliseconds), either way: a captured request replayed later is refused.
 */
export function freshTimestamp(header: string, now: number, tolerance: number): boolean {
  return /^\d{1,12}$/.test(header) && Math.abs(now / 1000 - Number(header)) <= tolerance;
}
