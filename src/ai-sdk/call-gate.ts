import type { ModelMessage } from "ai";
import type { ToolOutcome } from "../agent-tools/outcome.js";
import { inHistory } from "./in-history.js";
import type { FormletterToolOutput } from "./resume-outcome.js";

/** What the AI SDK hands `needsApproval` and `execute` besides the input. */
export interface CallContext {
  readonly toolCallId: string;
  readonly messages: readonly ModelMessage[];
}

/** The two questions the AI SDK asks about a call, answered by the outbox. */
export interface CallGate {
  needsApproval(name: string, input: unknown, context: CallContext): Promise<boolean>;
  execute(name: string, input: unknown, context: CallContext): Promise<FormletterToolOutput>;
}

// Outcomes kept between `needsApproval` and `execute` of one call: a call whose execute never comes
// (a step the SDK does not execute, its finish reason being "length") is dropped once this many follow.
const maxKept = 1_000;

/**
 * Orders a call's work around the AI SDK's: the SDK asks `needsApproval` before `execute`, and only
 * the outbox knows whether a person must approve (a template's approval, a first contact held, a
 * ceiling reached), inside the transaction that records the call. So `needsApproval` proposes the
 * call (`propose`, through `outbox.handle()` or the relay) and answers true only when the outbox
 * queued it for approval; `execute` then reports that outcome. A call the conversation already held
 * is one the SDK resumes after an approval response, which the client wrote: it is never proposed
 * again, only looked up in the queue (`lookup`), so an approval in the history sends nothing — only
 * a person's approval of the queue item through the outbox does. Neither function throws.
 */
export function createCallGate(
  propose: (name: string, input: unknown) => Promise<ToolOutcome>,
  lookup: (name: string, input: unknown) => Promise<FormletterToolOutput>,
): CallGate {
  const kept = new Map<string, ToolOutcome>();
  const keep = (toolCallId: string, outcome: ToolOutcome) => {
    kept.delete(toolCallId);
    kept.set(toolCallId, outcome);
    if (kept.size > maxKept) kept.delete(kept.keys().next().value as string);
  };
  const look = async (name: string, input: unknown): Promise<FormletterToolOutput> => {
    try {
      return await lookup(name, input);
    } catch {
      // A queue that cannot be read (its store down) tells nothing: nothing was sent by this call.
      return { outcome: "unavailable" };
    }
  };
  return {
    async needsApproval(name, input, { toolCallId, messages }) {
      // A resumed call: `execute` reads what the queue holds for it; approving it here sends nothing.
      if (inHistory(messages, toolCallId)) return true;
      const outcome = await propose(name, input);
      keep(toolCallId, outcome);
      return outcome.outcome === "queued_for_approval";
    },
    async execute(name, input, { toolCallId, messages }) {
      const outcome = kept.get(toolCallId);
      kept.delete(toolCallId);
      if (inHistory(messages, toolCallId) || outcome?.outcome === "queued_for_approval")
        return look(name, input);
      // Without a kept outcome the SDK did not ask `needsApproval` first (a direct call): propose now.
      return outcome ?? propose(name, input);
    },
  };
}
