import type { RunToolApprovalItem } from "@openai/agents";
import type { ApprovalDraft, Approvals, FoundApproval } from "../agent-tools/index.js";
import type { QueueItem } from "../store/index.js";
import { heldStatusOf } from "./held-call.js";

/** What every held call says: the interruption, its tool and the model's call id. */
interface HeldCall {
  readonly interruption: RunToolApprovalItem;
  readonly tool: string;
  readonly callId: string | undefined;
}

/**
 * An interruption of a formletter tool, as the outbox's queue sees it:
 * - `waiting`: its queue item waits for a person; `draft` is exactly what an approval sends;
 * - `approved`, `rejected`, `closed`: a person acted on the item (anywhere: this process, the command
 *   line, the relay);
 * - `not_queued`: the outbox holds no approval for this call (arguments that are not JSON, or a call
 *   written into the state by hand);
 * - `unavailable`: the records or the store could not be read to tell; try again.
 */
export type HeldApproval =
  | (HeldCall & {
      readonly status: "waiting";
      readonly queueItemId: string;
      readonly item: QueueItem;
      readonly draft: ApprovalDraft;
    })
  | (HeldCall & {
      readonly status: "approved" | "rejected" | "closed";
      readonly queueItemId: string;
      readonly item: QueueItem;
    })
  | (HeldCall & { readonly status: "not_queued" | "unavailable" });

/** Reads the queue item an interruption waits on, through the outbox: nothing is decided or written. */
export async function heldApprovalOf(
  interruption: RunToolApprovalItem,
  find: (name: string, args: string) => Promise<FoundApproval>,
  approvals: Pick<Approvals, "draft">,
): Promise<HeldApproval> {
  const tool = interruption.name ?? "";
  const raw = interruption.rawItem as { readonly callId?: unknown };
  const call: HeldCall = {
    interruption,
    tool,
    callId: typeof raw.callId === "string" ? raw.callId : undefined,
  };
  let found: FoundApproval;
  try {
    found = await find(tool, interruption.arguments ?? "");
  } catch {
    return { ...call, status: "unavailable" };
  }
  if (!found.found)
    return { ...call, status: found.why === "records_unavailable" ? "unavailable" : "not_queued" };
  const { item } = found;
  const status = heldStatusOf(item);
  if (status !== "waiting") return { ...call, status, queueItemId: item.id, item };
  const draft = await approvals.draft(item.id).catch(() => undefined);
  // No draft for an item read as waiting: a person acted on it in between; the next read tells.
  if (draft === undefined) return { ...call, status: "unavailable" };
  return { ...call, status, queueItemId: item.id, item, draft };
}
