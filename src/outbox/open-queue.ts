import type { Store } from "../store/store.js";
import { createBatcher } from "./batcher.js";
import { contactKeyFrom } from "./contact-key.js";
import { createQueueOperations, type HumanQueue } from "./queue.js";

/**
 * The human queue over a store alone, for a tool that has no outbox running (the command line, a
 * dashboard). Its `approve` writes the approval and the outbound row, exactly as the outbox's does, and
 * delivers nothing: the outbox that owns the transports sends the message on its next `flush()`. Give it
 * the outbox's `contactKey` so that an approved first contact records its destination, as the outbox's
 * own approval does; without it the next message to that destination is held again.
 *
 * @example
 * import { openHumanQueue } from "formletter";
 * const queue = openHumanQueue(sqliteStore("outbox.db"));
 * await queue.approve("42", { by: "ada" });
 */
export function openHumanQueue(
  store: Store,
  options: { clock?: () => number; contactKey?: string | Uint8Array } = {},
): HumanQueue {
  const contactKey =
    options.contactKey === undefined ? undefined : contactKeyFrom(options.contactKey, "openHumanQueue");
  return createQueueOperations(store, createBatcher(store), options.clock ?? Date.now, "live", contactKey);
}
