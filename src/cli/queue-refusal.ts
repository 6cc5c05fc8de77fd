import { isFormletterError } from "../core/errors.js";
import { printableLine as line } from "../core/message/sanitize.js";
import { actorNameOf, visibleNameRule } from "../core/visible-name.js";
import type { DetachedQueue } from "../outbox/index.js";
import { resolveRequest } from "../relay/request-schemas.js";
import { CliError } from "./output.js";

/** A queue action of `formletter queue`. */
export type QueueAction = "claim" | "release" | "reject" | "resolve";

/** Said of an id that names no item: the id given is not repeated. */
export const itemMissing = "that queue item does not exist; list the items with formletter queue list";

const done: Readonly<Record<QueueAction, string>> = {
  claim: "claimed",
  release: "released",
  reject: "rejected",
  resolve: "resolved",
};

/** `--by`, held to the one rule for who acts (the queue's and the relay's), trimmed. */
export function actorOption(by: unknown): string {
  const actor = actorNameOf(by);
  if (actor === undefined) throw new CliError(`--by must name who acts: ${visibleNameRule}`);
  return actor;
}

/** `--resolution`, held to the relay's rule for a resolution, trimmed. */
export function resolutionOption(resolution: unknown): string {
  const checked = resolveRequest.shape.resolution.safeParse(resolution);
  if (!checked.success) throw new CliError("--resolution: say how it was handled, in 1 to 200 characters");
  return checked.data;
}

/**
 * Runs a queue action; a refusal is told from the error's code and the item's stored state (its status,
 * reason and holder), in the command line's own words, and names the holder a claim ran into.
 */
export async function queueAction<T>(
  queue: DetachedQueue,
  id: string,
  action: QueueAction,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!isFormletterError(error)) throw error;
    if (error.code !== "queue_item_not_found" && error.code !== "queue_transition_invalid") throw error;
    const item = await queue.get(id);
    if (item === undefined) throw new CliError(itemMissing);
    if (action === "claim") {
      const holder = item.status === "claimed" && item.claimedBy ? ` by ${line(item.claimedBy)}` : "";
      throw new CliError(`the item is ${item.status}${holder}; only open items can be claimed`);
    }
    // Written from typed facts only (see queue-error.ts): safe to print as it is.
    if ((error as { suppression?: unknown }).suppression !== undefined) throw new CliError(error.message);
    if (action === "release" && (item.status === "open" || item.status === "claimed") && !item.draft)
      throw new CliError(`the item (${item.reason}) has no draft to send; resolve it instead`);
    throw new CliError(`the item is ${item.status}; it cannot be ${done[action]}`);
  }
}
