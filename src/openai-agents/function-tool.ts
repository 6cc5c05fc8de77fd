import { type FunctionTool, tool } from "@openai/agents";
import { type AgentTool, outcomeText, type ToolOutcome } from "../agent-tools/index.js";
import type { QueueItem } from "../store/index.js";
import { createCallMemo } from "./call-memo.js";
import { heldItemId, heldStatusOf, heldText } from "./held-call.js";

/**
 * The Agents SDK function tool formletter builds: JSON Schema input, a line of text as its result, for
 * an agent whose run context is `Context` (the tools never read it).
 */
export type FormletterFunctionTool<Context = unknown> = FunctionTool<Context, ParametersOf, string>;

type ParametersOf = Extract<Parameters<typeof tool>[0], { strict?: true }>["parameters"];

/**
 * One template's tool for the Agents SDK. The outbox decides the call when the runner asks whether it
 * needs approval, because only `handle()` knows (an `approval: "human"` template, a first message to a
 * new destination held, a ceiling gone over with `over: "approval"`): a call the outbox queued for a
 * person stops the run with an interruption; any other (sent, escalated, a duplicate) runs on, and
 * `execute` reports that one decision. After an approval in the run's state, `execute` asks the queue
 * item, not the state: only an item a person approved through the outbox counts as sent.
 */
export function functionToolOf<Context>(
  agentTool: AgentTool,
  /** The ticket's approval item of that id, or undefined for any other id. */
  heldItem: (queueItemId: string) => Promise<QueueItem | undefined>,
): FormletterFunctionTool<Context> {
  const memo = createCallMemo();
  const itemOf = (id: string) => heldItem(id).catch(() => undefined);
  return tool<ParametersOf, Context, string>({
    name: agentTool.name,
    description: agentTool.description,
    parameters: agentTool.inputSchema as ParametersOf,
    strict: true,
    async needsApproval(runContext, input, callId) {
      const outcome = await agentTool.call(input);
      memo.keep(runContext, callId, input, outcome);
      const id = heldItemId(outcome);
      if (id === undefined) return false;
      // An item no person has acted on (or one the store cannot show now) holds the run.
      const item = await itemOf(id);
      return item === undefined || heldStatusOf(item) === "waiting";
    },
    async execute(input, runContext, details) {
      // The arguments as the model wrote them, where the runner gives them: a string the runner parsed
      // from JSON text would otherwise be read as JSON text again.
      const raw = details?.toolCall?.arguments;
      const outcome: ToolOutcome =
        memo.take(runContext, details?.toolCall?.callId, input) ??
        (await agentTool.call(typeof raw === "string" ? raw : input));
      const id = heldItemId(outcome);
      if (id === undefined) return outcomeText(outcome);
      const item = await itemOf(id);
      return item === undefined ? outcomeText({ outcome: "unavailable" }) : heldText(item);
    },
  });
}
