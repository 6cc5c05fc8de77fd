import type { RunState, RunToolApprovalItem } from "@openai/agents";
import {
  type ApprovalOutcome,
  createAgentTools,
  createApprovals,
  findApproval,
  type OutboxToolsOptions,
} from "../agent-tools/index.js";
import { merged } from "../core/merged.js";
import type { Actor } from "../outbox/index.js";
import { type FormletterFunctionTool, functionToolOf } from "./function-tool.js";
import { type HeldApproval, heldApprovalOf } from "./held-approval.js";
import { heldText } from "./held-call.js";

/** Options of {@link formletterTools}: the outbox, and the ticket and agent run the tools act for. */
export type FormletterToolsOptions = OutboxToolsOptions;

/** What settling uses of a run's state: any `RunState` has it. */
export type ApprovableState = Pick<RunState<unknown, never>, "getInterruptions" | "approve" | "reject">;

/** What {@link FormletterAgentTools.settle} did to a run's state. */
export interface Settled {
  /** True when no formletter call of the run still waits for a person: `run(agent, state)` goes on. */
  readonly resumable: boolean;
  /** Calls still waiting (or whose item the store could not show): left as they were in the state. */
  readonly waiting: readonly HeldApproval[];
  /** Calls approved or rejected in the state, as their queue items say. */
  readonly settled: readonly HeldApproval[];
}

/** What a person's approval or rejection did to the queue item, and then to the run's state. */
export interface Decided extends Settled {
  readonly approval: ApprovalOutcome;
}

/** A ticket's formletter tools for the OpenAI Agents SDK, and the approvals of a run that uses them. */
export interface FormletterAgentTools<Context = unknown> {
  /** One function tool per template the ticket can fill, and `escalate_to_human`: give them to an `Agent`. */
  readonly tools: FormletterFunctionTool<Context>[];
  /** The ticket's records as `handle: label` lines, for the agent's instructions. */
  readonly description: string;
  /**
   * For each interruption of these tools: the formletter queue item it waits on and, while it waits,
   * the exact draft (recipient, subject, text) an approval sends. Read from the outbox's queue;
   * interruptions of other tools are left out.
   */
  approvals(interruptions: readonly RunToolApprovalItem[]): Promise<HeldApproval[]>;
  /**
   * Applies the outbox's decisions to a run's state (after `RunState.fromString`, in any process):
   * a call whose item a person approved is approved, one rejected or closed is rejected with a
   * code-written message, and one the outbox never held (a call written into the state) is rejected;
   * a call still waiting is left waiting. Approving in the state alone sends nothing: the tool asks
   * the queue item again when it runs.
   */
  settle(state: ApprovableState): Promise<Settled>;
  /**
   * Approves the queue item a person reviewed, by its id, through the outbox as `actor` (its draft is
   * sent once, however often this is called), then settles the state: only the calls that wait on that
   * item are approved in it, whatever else the state says. Ids of other tickets or of items that are
   * not approvals are `not_found`, and nothing is done. A draft whose recipient is suppressed (a hard
   * bounce or a complaint) is `recipient_suppressed` with its `cause`: nothing was sent, and its calls
   * keep waiting until the suppression is lifted and the item approved again, or the item is rejected.
   */
  approve(state: ApprovableState, queueItemId: string, actor: Actor): Promise<Decided>;
  /** Rejects the queue item a person reviewed, by its id, as `actor` with their note, then settles the state. */
  reject(
    state: ApprovableState,
    queueItemId: string,
    actor: Actor & { readonly note?: string },
  ): Promise<Decided>;
}

/**
 * A ticket's formletter tools for the OpenAI Agents SDK: each call goes through `outbox.handle()`, and
 * one the outbox holds for a person (an `approval: "human"` template, a first contact held, a ceiling
 * with `over: "approval"`) stops the run with an interruption that {@link FormletterAgentTools.approvals}
 * maps to its queue item and exact draft. A person approves the queue item by its id — in this process
 * with `approve`, or anywhere else (`formletter queue`, the relay) — and `settle` carries that into a
 * saved run's state; an approval the state carries by itself sends nothing. An agent with a typed run
 * context names it: `formletterTools<MyContext>(…)`.
 *
 * @example
 * import { Agent, run, RunState } from "@openai/agents";
 * import { formletterTools } from "formletter/openai-agents";
 * const kit = await formletterTools({ outbox, ticketId: "T-1", runId: "run-9" });
 * const agent = new Agent({ name: "support", instructions: kit.description, tools: kit.tools });
 * const result = await run(agent, "The contractor asks whether the payment was released.");
 * for (const held of await kit.approvals(result.interruptions)) show(held.draft);
 * const saved = result.state.toString();
 * // later, in any process, once a person approved or rejected the queue item:
 * const state = await RunState.fromString(agent, saved);
 * if ((await kit.settle(state)).resumable) await run(agent, state);
 */
export async function formletterTools<Context = unknown>(
  options: FormletterToolsOptions,
): Promise<FormletterAgentTools<Context>> {
  const { outbox, ticketId } = options;
  const agentTools = await createAgentTools(options);
  const approvals = createApprovals({ queue: outbox.queue, ticketId });
  const heldItem = async (queueItemId: string) => {
    const item = await outbox.queue.get(queueItemId);
    return item?.ticketId === ticketId && item.reason === "approval_required" ? item : undefined;
  };
  const names = new Set(agentTools.tools.map((agentTool) => agentTool.name));
  const tools = agentTools.tools.map((agentTool) => functionToolOf<Context>(agentTool, heldItem));

  const heldOf = (interruption: RunToolApprovalItem) =>
    heldApprovalOf(interruption, (name, args) => findApproval(outbox, ticketId, name, args), approvals);
  const ours = (interruption: RunToolApprovalItem) =>
    typeof interruption.name === "string" && names.has(interruption.name);

  /** Carries one call's queue item into the state; true when it no longer waits. */
  const settleOne = (state: ApprovableState, held: HeldApproval): boolean => {
    const { interruption } = held;
    switch (held.status) {
      case "waiting":
      case "unavailable":
        return false;
      case "approved":
        state.approve(interruption);
        return true;
      case "rejected":
      case "closed":
        state.reject(interruption, { message: heldText(held.item) });
        return true;
      case "not_queued":
        return settleUnasked(state, held);
    }
  };

  /**
   * A call the outbox holds no approval for. The runner asks for approval of arguments that are not a
   * JSON object without asking the tool: approved, text that is not JSON the runner answers itself
   * ("not valid JSON"), and other JSON (an array, a number) reaches the tool, which decides it through
   * `handle()` like any call (an escalation: nothing to send). Settling itself decides nothing, so
   * settling twice opens nothing twice. A call with an object the outbox never held was never decided
   * through these tools (one written into the state by hand): it is rejected, not decided.
   */
  const settleUnasked = (state: ApprovableState, held: HeldApproval): true => {
    const { interruption } = held;
    if (!isJsonObject(interruption.arguments)) state.approve(interruption);
    else
      state.reject(interruption, {
        message: "Not approved: formletter holds no approval for this call; nothing was sent.",
      });
    return true;
  };

  const settle = async (state: ApprovableState): Promise<Settled> => {
    const waiting: HeldApproval[] = [];
    const settled: HeldApproval[] = [];
    for (const interruption of state.getInterruptions()) {
      if (!ours(interruption)) continue;
      const held = await heldOf(interruption);
      (settleOne(state, held) ? settled : waiting).push(held);
    }
    return { resumable: waiting.length === 0, waiting, settled };
  };

  return {
    tools,
    description: agentTools.description,
    async approvals(interruptions) {
      const held: HeldApproval[] = [];
      for (const interruption of interruptions) if (ours(interruption)) held.push(await heldOf(interruption));
      return held;
    },
    settle,
    async approve(state, queueItemId, actor) {
      const approval = await approvals.approve(queueItemId, actor);
      return merged(await settle(state), { approval });
    },
    async reject(state, queueItemId, actor) {
      const approval = await approvals.reject(queueItemId, actor);
      return merged(await settle(state), { approval });
    },
  };
}

/** Whether tool arguments are a JSON object, the only arguments the runner asks a tool's policy about. */
function isJsonObject(text: string | undefined): boolean {
  try {
    const value: unknown = JSON.parse(text ?? "");
    return typeof value === "object" && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}
