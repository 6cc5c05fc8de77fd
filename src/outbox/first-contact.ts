import { createHmac, type KeyObject } from "node:crypto";
import type { Message } from "../core/decision/decision.js";
import type { StoreTransaction } from "../store/store.js";

/** How many hex characters of a destination's hash audit events, decisions and queue items show. */
export const destinationPrefixLength = 12;

/**
 * A destination as the store keeps it: HMAC-SHA256, under the outbox's `contactKey`, of the channel and
 * the formatted recipient. Keyed, because an unkeyed hash of an e-mail address or phone number is
 * undone by hashing the addresses one can guess; the raw address is never stored for first contact.
 */
export function destinationHash(
  key: KeyObject | Uint8Array | string,
  message: Pick<Message, "channel" | "to">,
): string {
  return createHmac("sha256", key).update(`${message.channel}\u0000${message.to}`).digest("hex");
}

/** What audit events and decisions show of a destination: a prefix of its hash, never the address. */
export function destinationShown(hash: string): string {
  return hash.slice(0, destinationPrefixLength);
}

/**
 * Records that `message` was accepted for sending to its destination; on the destination's first
 * accepted send, appends the `first_contact` audit event and returns the shown hash prefix. Inside the
 * caller's transaction, so the record and the send commit together.
 */
export async function recordContact(
  tx: StoreTransaction,
  key: KeyObject | Uint8Array | string,
  message: Message,
  event: {
    at: number;
    ticketId: string;
    runId: string;
    template: string;
    key: string | undefined;
    actor: string;
  },
): Promise<string | undefined> {
  const destination = destinationHash(key, message);
  const first = await tx.addContact({ destination, template: event.template, at: event.at });
  if (!first) return undefined;
  const shown = destinationShown(destination);
  await tx.appendAudit({
    at: event.at,
    type: "first_contact",
    ticketId: event.ticketId,
    runId: event.runId,
    template: event.template,
    outcome: "send",
    reason: undefined,
    key: event.key,
    actor: event.actor,
    data: { destination: shown, channel: message.channel },
  });
  return shown;
}
