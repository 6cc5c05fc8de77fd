import type { Store } from "../store/store.js";
import { createBatcher } from "./batcher.js";
import { contactKeyFrom } from "./contact-key.js";
import { createQueueOperations, type DetachedQueue } from "./queue.js";

/**
 * The human queue over a store alone, for a tool that has no outbox running (the command line, a
 * dashboard). It holds no transports, so where the outbox's queue has `approve` (approve and send now)
 * it has `release`: the same approval and outbound row, sent by the outbox that owns the transports on
 * its next `flush()`. Give it
 * the outbox's `contactKey` so that an approved first contact records its destination, as the outbox's
 * own approval does; without it the next message to that destination is held again.
 *
 * @example
 * import { openHumanQueue } from "formletter";
 * const queue = openHumanQueue(sqliteStore("outbox.db"));
 * await queue.release("42", { by: "ada" });
 */
export function openHumanQueue(
  store: Store,
  options: { clock?: () => number; contactKey?: string | Uint8Array } = {},
): DetachedQueue {
  const contactKey =
    options.contactKey === undefined ? undefined : contactKeyFrom(options.contactKey, "openHumanQueue");
  return createQueueOperations(store, createBatcher(store), options.clock ?? Date.now, "live", contactKey);
}
