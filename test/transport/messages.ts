import type { Message } from "../../src/core/decision/decision.js";

/** An e-mail as decide() renders it: template text plus formatted record values. */
export function emailMessage(overrides: Partial<Message> = {}): Message {
  return {
    template: "appointment_reminder",
    channel: "email",
    to: "ada.lovelace@example.org",
    subject: "Your appointment on 2 Mar 2026",
    text: "Hello Ada Lovelace,\n\nyour appointment is on 2 Mar 2026 at 10:30 in room B12.\n\nYour clinic",
    html: "<p>Hello Ada Lovelace,</p><p>Your appointment is on 2 Mar 2026 at 10:30 in room B12.</p>",
    ...overrides,
  };
}

/** An SMS: no subject, no HTML, sized in segments. */
export function smsMessage(overrides: Partial<Message> = {}): Message {
  return {
    template: "pickup_ready",
    channel: "sms",
    to: "+493012345678",
    text: "Your order 4471-2290 is ready for pickup.",
    sms: { segments: 1, encoding: "GSM-7" },
    ...overrides,
  };
}

/** An idempotency key shaped like decide()'s. */
export const key = "fl_0123456789abcdef0123456789abcdef";
