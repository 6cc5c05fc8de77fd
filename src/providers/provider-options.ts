import type { Message } from "../core/decision/decision.js";
import { FormletterError } from "../core/errors.js";
import { normalizeEmail } from "../core/message/format.js";
import { parseSender, type Sender } from "../transport/sender.js";
import { timeoutProblem } from "../transport/transport.js";
import { ProviderDeliveryError } from "./provider-error.js";

/** What every provider transport is given besides its credential and its sender. */
export interface ProviderBaseOptions {
  /** The transport's name in the audit log. @default the provider's name */
  readonly name?: string;
  /** Limit for one request to the provider's API, in milliseconds. @default 30000 */
  readonly timeoutMs?: number;
}

/** What every e-mail provider transport is given besides its credential. */
export interface ProviderTransportOptions extends ProviderBaseOptions {
  /** The sender: `"support@example.com"` or `"Example Support <support@example.com>"`; checked at creation. */
  readonly from: string;
}

/** The checked common options of a provider transport. */
export interface CheckedOptions {
  readonly sender: Sender;
  readonly timeoutMs: number;
}

/** A fault in a transport's options: thrown at creation, naming the factory and the fix. */
export function invalidOption(factory: string, message: string): never {
  throw new FormletterError("transport_invalid", `${factory}: ${message}`);
}

/** A credential the transport cannot work without, and how to fix it when it is missing. */
export interface Credential {
  readonly field: string;
  readonly value: unknown;
  /** @default "pass the provider's API credential (from an environment variable)" */
  readonly fix?: string;
}

/**
 * Checks what every provider transport shares (the options object, its credential, `timeoutMs`) and
 * returns the timeout; fails at creation with the fix named.
 */
export function checkBaseOptions(
  factory: string,
  options: ProviderBaseOptions,
  credential: Credential,
): { readonly timeoutMs: number } {
  if (typeof options !== "object" || options === null) invalidOption(factory, "options are missing");
  if (typeof credential.value !== "string" || credential.value.trim() === "") {
    invalidOption(
      factory,
      `${credential.field} is empty; ${credential.fix ?? "pass the provider's API credential (from an environment variable)"}`,
    );
  }
  const timeoutMs = options.timeoutMs ?? 30_000;
  const problem = timeoutProblem(timeoutMs);
  if (problem !== undefined) invalidOption(factory, problem);
  return { timeoutMs };
}

/** Checks the options every e-mail provider shares and its credential; fails at creation with the fix named. */
export function checkProviderOptions(
  factory: string,
  options: ProviderTransportOptions,
  credential: Credential,
): CheckedOptions {
  const { timeoutMs } = checkBaseOptions(factory, options, credential);
  const sender = parseSender(options.from);
  if (sender === undefined) {
    invalidOption(
      factory,
      `from ${JSON.stringify(options.from)} is not one sender address; use "name@example.com" or "Name <name@example.com>"`,
    );
  }
  return { sender, timeoutMs };
}

/**
 * The message's single recipient, checked again before it reaches a provider: the recipient came
 * from records, normalised already, and a list such as "a@x.org, b@y.org" must never reach an API
 * that would read it as several.
 */
export function singleRecipient(provider: string, message: Message): string {
  const to = normalizeEmail(message.to);
  if (message.channel !== "email" || !to.ok) {
    throw new ProviderDeliveryError(provider, {
      reason: "invalid_request",
      detail: `template "${message.template}" on channel "${message.channel}" has no single e-mail recipient`,
    });
  }
  return to.value;
}
