import { isFormletterError } from "../core/errors.js";
import type { ApprovalResult } from "../outbox/index.js";
import type { WorkspaceSource } from "./source.js";

/** The actions a form can post. */
export type ActionName = "claim" | "approve" | "release" | "reject" | "resolve";

export const actionNames: readonly ActionName[] = ["claim", "approve", "release", "reject", "resolve"];

/**
 * What an action did, as one code of a closed list: the page shows the code's sentence, never text
 * from the request or the store, so a redirect's query string can carry it safely.
 */
export const outcomes = {
  claimed: { text: "You hold this item now.", refused: false },
  sent: { text: "Approved: the draft was sent, exactly as shown.", refused: false },
  released: { text: "Approved: the outbox sends the draft on its next flush.", refused: false },
  shadow: { text: "Approved in shadow mode: recorded, nothing is delivered.", refused: false },
  not_delivered: {
    text: "Approved, but the transport did not deliver it: the item comes back as a failed delivery for a person.",
    refused: true,
  },
  already_approved: { text: "This item was already approved: nothing new is sent.", refused: true },
  key_used: { text: "Its message had already been sent: nothing new is sent.", refused: false },
  rejected: { text: "Rejected: nothing is sent.", refused: false },
  resolved: { text: "Resolved.", refused: false },
  held: { text: "Someone else holds this item (shown below): your claim was refused.", refused: true },
  closed: { text: "This item was closed before your action reached it: nothing was done.", refused: true },
  no_draft: { text: "This item has no draft to send: reject or resolve it.", refused: true },
  suppressed: {
    text: "Not sent: the recipient is suppressed (a hard bounce or a complaint). Lift the suppression, then approve again.",
    refused: true,
  },
  note_required: { text: "A rejection needs a reason (1 to 4,000 characters).", refused: true },
  note_too_long: { text: "Notes hold at most 4,000 characters: shorten it and send again.", refused: true },
  resolution_invalid: {
    text: 'A resolution is 1 to 200 characters, e.g. "replied by phone".',
    refused: true,
  },
  not_offered: { text: "This workspace cannot make that action.", refused: true },
  unavailable: {
    text: "The queue could not be reached: nothing is known to have changed. Try again.",
    refused: true,
  },
} as const;

export type Outcome = keyof typeof outcomes;

export const isOutcome = (value: unknown): value is Outcome =>
  typeof value === "string" && Object.hasOwn(outcomes, value);

const maxNote = 4000;

function approvalOutcome(result: ApprovalResult, sendsNow: boolean): Outcome {
  if (!result.approvedNow) return "already_approved";
  if (result.keyUsedBefore) return "key_used";
  const status = result.outbound?.status;
  if (status === "shadow") return "shadow";
  if (!sendsNow) return "released";
  return status === "delivered"
    ? "sent"
    : status === "pending" || status === "delivering"
      ? "released"
      : "not_delivered";
}

/** Runs one action for `by` with the form's fields; a refusal is an outcome, never a throw. */
export async function runAction(
  source: WorkspaceSource,
  name: ActionName,
  id: string,
  by: string,
  form: { note?: string | undefined; resolution?: string | undefined },
  claimLapseMs: number,
): Promise<Outcome | "not_found"> {
  const note = form.note?.trim() === "" ? undefined : form.note;
  if (note !== undefined && note.length > maxNote) return "note_too_long";
  const queue = source.queue;
  try {
    switch (name) {
      case "claim":
        await queue.claim(id, { by }, { lapseAfterMs: claimLapseMs });
        return "claimed";
      case "approve":
      case "release": {
        const act = name === "approve" ? queue.approve : queue.release;
        if (act === undefined) return "not_offered";
        return approvalOutcome(await act.call(queue, id, { by }), name === "approve");
      }
      case "reject":
        if (note === undefined) return "note_required";
        await queue.reject(id, { by, note });
        return "rejected";
      case "resolve": {
        const resolution = form.resolution?.trim() ?? "";
        if (resolution === "" || resolution.length > 200) return "resolution_invalid";
        await queue.resolve(id, { by, resolution, ...(note === undefined ? {} : { note }) });
        return "resolved";
      }
    }
  } catch (error) {
    if (isFormletterError(error)) {
      if (error.code === "queue_item_not_found") return "not_found";
      if (error.code === "queue_transition_invalid") {
        const status = (error as { status?: unknown }).status;
        if (name === "claim" && status === "claimed") return "held";
        if ((error as { suppression?: unknown }).suppression !== undefined) return "suppressed";
        if (status === "open" || status === "claimed") return "no_draft";
        return "closed";
      }
    }
    return "unavailable";
  }
}
