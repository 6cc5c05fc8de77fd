import type { ObjectSchema } from "../core/llm/json-schema.js";
import { parseToolCall } from "../core/llm/parse-tool-call.js";
import type { ToolsCache } from "../core/llm/stages.js";
import type { ToolsResult } from "../core/llm/tools.js";
import type { HandleResult, Outbox } from "../outbox/index.js";
import type { RelayClient } from "../relay/client.js";
import { jsonData } from "./json-data.js";
import type { ToolOutcome } from "./outcome.js";
import { outcomeOfError, outcomeOfReply, outcomeOfResult } from "./outcome-of.js";

/** Proposals go to an outbox in this process, for one ticket and one agent run. */
export interface OutboxToolsOptions {
  readonly outbox: Outbox;
  readonly ticketId: string;
  /** The agent run; the outbox's `maxPerRun` counts its sends. */
  readonly runId: string;
  /**
   * "ticket": enums of this ticket's handles, only the templates it can fill. "prefix": the tools every
   * ticket shares (handles checked by decide()), for a provider's prompt cache. A ticket whose own
   * tools exceed the providers' limits gets the shared tools either way. @default "ticket"
   */
  readonly cache?: ToolsCache;
  /** Labels for metrics on every call, e.g. `{ agent: "support" }`. */
  readonly tags?: Readonly<Record<string, string>>;
  /** Sees each `handle()` result before it becomes an outcome: for metrics of a service in front. */
  readonly observe?: (result: HandleResult) => void;
}

/** Proposals go to a relay, with the run's task token (the ticket and run are the token's). */
export interface RelayToolsOptions {
  readonly relay: Pick<RelayClient, "propose" | "tools" | "describe">;
  readonly tags?: Readonly<Record<string, string>>;
}

/**
 * Options of {@link createAgentTools}: an outbox and the ticket, or a relay client.
 *
 * @example
 * import type { AgentToolsOptions } from "formletter/agent-tools";
 * const options: AgentToolsOptions = { outbox, ticketId: "T-1", runId: "run-9" };
 */
export type AgentToolsOptions = OutboxToolsOptions | RelayToolsOptions;

/** One tool: its name and description (written in code) and its JSON Schema input. */
export interface AgentTool {
  readonly name: string;
  readonly description: string;
  /** An object schema, every property required, nothing else allowed; enums of this ticket's handles. */
  readonly inputSchema: ObjectSchema;
  /** Proposes through `outbox.handle()` (or the relay) and says what happened. Never throws. */
  call(args: unknown): Promise<ToolOutcome>;
}

/** A ticket's tools for an agent framework, and what a call of them did. */
export interface AgentTools {
  readonly tools: readonly AgentTool[];
  /** The ticket's prompt text: each choosable record as `handle: label`. Goes in the system prompt. */
  readonly description: string;
  /** Whether the tools are this ticket's own ("ticket") or shared by every ticket ("prefix"). */
  readonly cache: ToolsCache;
  /**
   * Calls a tool by the name the model gave: a name of no tool ends as `handle()` would end it
   * (`unknown_template`). Never throws; arguments are read as JSON data.
   */
  call(name: unknown, args: unknown): Promise<ToolOutcome>;
}

type Offer = Pick<ToolsResult<"ai-sdk">, "tools" | "stage" | "cache">;

/**
 * A ticket's tools for any agent framework: one per template it can fill plus `escalate_to_human`,
 * built from the catalog's tool specs, and a `call` that goes through `outbox.handle()` (or the relay)
 * with its limits, idempotency, approvals and audit, answering a code-written {@link ToolOutcome}.
 * The same call twice sends once (`duplicate`); arguments that do not fit escalate with a hint.
 *
 * @example
 * import { createAgentTools, outcomeText } from "formletter/agent-tools";
 * const agent = await createAgentTools({ outbox, ticketId: "T-1", runId: "run-9" });
 * const outcome = await agent.call(call.name, call.arguments);
 * reply(outcomeText(outcome));
 */
export async function createAgentTools(options: AgentToolsOptions): Promise<AgentTools> {
  const source = "relay" in options ? await relaySource(options) : await outboxSource(options);
  const tools = Object.entries(source.offer.tools).map(([name, tool]): AgentTool => {
    return {
      name,
      description: tool.description,
      inputSchema: tool.inputSchema,
      call: (args) => callTool(name, args),
    };
  });
  const names = new Map(tools.map((tool) => [tool.name.toLowerCase(), tool.name]));
  const callTool = async (name: unknown, args: unknown): Promise<ToolOutcome> => {
    try {
      const output = parseToolCall(name, jsonData(args));
      // The template the outcome names is the tool's own name, never the text the model sent.
      const known = typeof name === "string" ? names.get(name.trim().toLowerCase()) : undefined;
      return await source.propose(output, known);
    } catch (error) {
      return outcomeOfError(error);
    }
  };
  return {
    tools,
    description: await source.describe(),
    cache: source.offer.cache,
    call: callTool,
  };
}

interface Source {
  readonly offer: Offer;
  describe(): Promise<string>;
  propose(output: unknown, template: string | undefined): Promise<ToolOutcome>;
}

async function relaySource(options: RelayToolsOptions): Promise<Source> {
  const { relay, tags } = options;
  let offer: Offer = await relay.tools("ai-sdk");
  // As over an outbox: a ticket whose own tools exceed the providers' limits gets the shared ones.
  if (offer.stage === "choose_template" && offer.cache === "ticket")
    offer = await relay.tools("ai-sdk", { cache: "prefix" });
  const description = await relay.describe(offer.cache === "prefix" ? { cache: "prefix" } : {});
  return {
    offer,
    describe: async () => description,
    async propose(output, template) {
      const reply = await relay.propose(output, tags === undefined ? {} : { tags });
      // A send names a template of the tools (decide() accepted it); the fallback is never shown.
      return outcomeOfReply(reply, template ?? "requested");
    },
  };
}

async function outboxSource(options: OutboxToolsOptions): Promise<Source> {
  const { outbox, ticketId, runId, tags } = options;
  for (const [name, value] of [
    ["ticketId", ticketId],
    ["runId", runId],
  ] as const) {
    if (typeof value !== "string" || value.trim() === "")
      throw new TypeError(
        `createAgentTools: ${name} must be a non-empty string (the ticket and run the tools act for)`,
      );
  }
  const loaded = await outbox.records(ticketId);
  if (!loaded.ok)
    throw new TypeError(
      `createAgentTools: the records of ticket ${JSON.stringify(ticketId)} could not be loaded (${loaded.problem}); the loader must return that ticket's records`,
    );
  const wanted = options.cache ?? "ticket";
  let offer: Offer = outbox.catalog.tools(loaded.records, { provider: "ai-sdk", cache: wanted });
  // A framework sends every tool on every request: a ticket whose own enums exceed the providers'
  // limits gets the shared tools (handles as patterns, checked by decide()) rather than two stages.
  if (offer.stage === "choose_template" && wanted === "ticket")
    offer = outbox.catalog.tools(loaded.records, { provider: "ai-sdk", cache: "prefix" });
  const description = outbox.catalog.describe(loaded.records, { cache: offer.cache });
  return {
    offer,
    describe: async () => description,
    async propose(output) {
      const result: HandleResult = await outbox.handle({
        ticketId,
        runId,
        output,
        ...(tags === undefined ? {} : { tags }),
      });
      try {
        options.observe?.(result);
      } catch {
        // An observer that fails costs its figure, never the call's answer.
      }
      return outcomeOfResult(result);
    },
  };
}
