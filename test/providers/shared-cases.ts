import { expect, it } from "vitest";
import type { Message } from "../../src/core/decision/decision.js";
import { isFormletterError } from "../../src/core/errors.js";
import { ProviderDeliveryError } from "../../src/providers/index.js";
import { isRetryable, type Transport } from "../../src/transport/index.js";
import { emailMessage, key, smsMessage } from "../transport/messages.js";
import { type Loopback, startLoopback } from "./loopback.js";

/** The error `deliver` threw, checked to be a provider's. */
export async function deliveryFailure(transport: Transport, message: Message = emailMessage()) {
  const error = await transport.deliver(message, { key, attempt: 1 }).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ProviderDeliveryError);
  return error as ProviderDeliveryError;
}

/** Checks one mapped failure: its reason, and that the outbox reads the same retry decision. */
export function expectMapped(
  error: ProviderDeliveryError,
  provider: string,
  reason: string,
  retryable: boolean,
) {
  expect(error.provider).toBe(provider);
  expect(error.code).toBe("delivery_failed");
  expect(error.reason).toBe(reason);
  expect(error.retryable).toBe(retryable);
  expect(isRetryable(error)).toBe(retryable);
}

/** The message of the `transport_invalid` error that creating a transport failed with. */
export function creationFailure(make: () => unknown): string {
  let error: unknown;
  try {
    make();
  } catch (caught) {
    error = caught;
  }
  expect(isFormletterError(error) && error.code).toBe("transport_invalid");
  return (error as Error).message;
}

/** A port on 127.0.0.1 where nothing listens any more. */
export async function closedPort(): Promise<number> {
  const closed = await startLoopback();
  await closed.close();
  return closed.port;
}

/** The refusals every provider transport shares: recipients that are not one address, bad options. */
export function itRefusesLikeEveryProvider(
  make: (overrides?: Record<string, unknown>) => Transport,
  api: () => Loopback,
  credential: string,
): void {
  it.each([
    ["a list of recipients", emailMessage({ to: "ada@example.org, eve@example.net" })],
    ["a named recipient", emailMessage({ to: "Eve <eve@example.net>" })],
    ["a recipient with a second header", emailMessage({ to: "ada@example.org\r\nBcc: eve@example.net" })],
    ["an SMS", smsMessage()],
  ])("refuses %s without a request, permanently", async (_name, message) => {
    const error = await deliveryFailure(make(), message);
    expect(error.retryable).toBe(false);
    expect(api().received).toHaveLength(0);
  });

  it.each([
    [`an empty ${credential}`, { [credential]: " " }, new RegExp(`${credential} is empty`)],
    ["a sender with a second address", { from: "a@example.com, b@example.com" }, /from .* is not one sender/],
    [
      "a sender name that starts a header",
      { from: "C\r\nBcc: e@example.net <c@example.com>" },
      /not one sender/,
    ],
    ["a timeout of 0", { timeoutMs: 0 }, /timeoutMs must be a whole number/],
    ["a timeout too long for a timer", { timeoutMs: 2 ** 31 }, /timeoutMs must be a whole number/],
  ])("fails at creation on %s, naming the fix", (_name, overrides, pattern) => {
    expect(creationFailure(() => make(overrides))).toMatch(pattern);
  });
}
