import type { Store } from "../store/store.js";
import { createBatcher } from "./batcher.js";
import { createQueueOperations, type HumanQueue } from "./queue.js";

/**
 * The human queue over a store alone, for a tool that has no outbox running (the command line, a
 * dashboard). Its `approve` writes the approval and the outbound row, exactly as the outbox's does, and
 * delivers nothing: the outbox that owns the transports sends the message on its next `flush()`.
 *
 * @example
 * import { openHumanQueue } from "formletter";
 * const queue = openHumanQueue(sqliteStore("outbox.db"));
 * await queue.approve("42", { by: "ada" });
 */
export function openHumanQueue(store: Store, options: { clock?: () => number } = {}): HumanQueue {
  return createQueueOperations(store, createBatcher(store), options.clock ?? Date.now, "live");
}
