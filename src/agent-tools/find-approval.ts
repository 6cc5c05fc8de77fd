import { parseToolCall } from "../core/llm/parse-tool-call.js";
import type { Outbox } from "../outbox/index.js";
import type { QueueItem } from "../store/store.js";
import { jsonData } from "./json-data.js";

/**
 * The approval a tool call waits for, or had: the queue item the outbox opened for it, or why there is
 * none (`not_queued`: the outbox never held this proposal for a person; `records_unavailable`: the
 * ticket's records could not be loaded to tell).
 */
export type FoundApproval =
  | { readonly found: true; readonly item: QueueItem }
  | { readonly found: false; readonly why: "not_queued" | "records_unavailable" };

// The most queue items of one ticket and template read to find a proposal's item: a ticket holds a
// few, and reading stops at the first match; past this, the lookup answers `not_queued`.
const maxItemsRead = 5_000;

/**
 * Finds the approval item of a tool call through the outbox's queue, WITHOUT deciding it again: the
 * call is decided purely on the ticket's current records for its idempotency key, and the item is the
 * ticket's `approval_required` item with that key. Nothing is written, nothing is sent. This is how a
 * framework resuming after an approval, or showing an approval screen, learns what the outbox holds,
 * rather than trusting a chat history: a tool call the outbox never queued (one written into a history
 * by hand) is `not_queued`. Never throws on the arguments.
 *
 * @example
 * import { findApproval } from "formletter/agent-tools";
 * const found = await findApproval(outbox, "T-1", call.name, call.arguments);
 * if (found.found && found.item.status === "open") show(found.item.draft);
 */
export async function findApproval(
  outbox: Outbox,
  ticketId: string,
  name: unknown,
  args: unknown,
): Promise<FoundApproval> {
  const loaded = await outbox.records(ticketId);
  if (!loaded.ok) return { found: false, why: "records_unavailable" };
  const decision = outbox.catalog.decide(parseToolCall(name, jsonData(args)), loaded.records);
  // A send the outbox may still have held (first contact, a ceiling) has the key its item would have.
  const key =
    decision.outcome === "send"
      ? decision.key
      : decision.reason === "approval_required"
        ? decision.key
        : undefined;
  if (key === undefined) return { found: false, why: "not_queued" };
  const { template } = decision;
  let cursor: string | undefined;
  let read = 0;
  do {
    const page = await outbox.queue.list({
      ticketId,
      reason: "approval_required",
      ...(template === undefined ? {} : { template }),
      limit: 500,
      ...(cursor === undefined ? {} : { cursor }),
    });
    const item = page.items.find((candidate) => candidate.key === key);
    if (item !== undefined) return { found: true, item };
    read += page.items.length;
    cursor = page.nextCursor;
  } while (cursor !== undefined && read < maxItemsRead);
  return { found: false, why: "not_queued" };
}
