import type { Tool } from "ai";
import { type AgentToolsOptions, createAgentTools } from "../agent-tools/agent-tools.js";
import { findApproval } from "../agent-tools/find-approval.js";
import { createCallGate } from "./call-gate.js";
import { loadAi } from "./load-ai.js";
import { type FormletterToolOutput, outputText, resumeOutcome } from "./resume-outcome.js";

/**
 * Options of {@link formletterTools}: an outbox with the ticket and agent run the tools act for, or a
 * relay client (the ticket and run are its task token's).
 *
 * @example
 * import type { FormletterToolsOptions } from "formletter/ai-sdk";
 * const options: FormletterToolsOptions = { outbox, ticketId: "T-1", runId: "run-9" };
 */
export type FormletterToolsOptions = AgentToolsOptions;

/** One formletter tool as the AI SDK takes it. */
export type FormletterTool = Tool<unknown, FormletterToolOutput>;

/** A ticket's tools for the AI SDK, and the prompt text that goes with them. */
export interface FormletterTools {
  /** Pass as `tools` to `generateText`, `streamText` or an `Agent`: one per template, and `escalate_to_human`. */
  readonly tools: Readonly<Record<string, FormletterTool>>;
  /** The ticket's prompt text (each choosable record as `handle: label`): put it in the system prompt. */
  readonly instructions: string;
}

/**
 * A ticket's formletter tools for the Vercel AI SDK (`ai` 6): `tool()`s whose input schema is the
 * catalog's (this ticket's handles and keys, passed through `jsonSchema()` without validation, so any
 * arguments reach `outbox.handle()` and escalate with a hint there), and whose result is a code-written
 * outcome (the model reads it as one line of text). A template that needs a person (`approval:
 * "human"`, a first contact held, a ceiling with `over: "approval"`) becomes the SDK's tool approval:
 * the outbox queues the exact draft, the SDK emits a `tool-approval-request`, and
 * {@link formletterApprovals} shows the draft and approves or rejects the queue item. An approval in
 * the message history alone sends nothing.
 *
 * @example
 * import { formletterTools } from "formletter/ai-sdk";
 * import { generateText, stepCountIs } from "ai";
 * const { tools, instructions } = await formletterTools({ outbox, ticketId: "T-1", runId: "run-9" });
 * const result = await generateText({ model, system: instructions, tools, prompt, stopWhen: stepCountIs(3) });
 */
export async function formletterTools(options: FormletterToolsOptions): Promise<FormletterTools> {
  const { tool, jsonSchema } = loadAi();
  const agent = await createAgentTools(options);
  const lookup =
    "outbox" in options
      ? async (name: string, input: unknown) =>
          resumeOutcome(await findApproval(options.outbox, options.ticketId, name, input))
      : // A task token cannot read the queue: the relay's operators approve, and the chat learns nothing.
        async (): Promise<FormletterToolOutput> => ({ outcome: "approval_at_relay" });
  const gate = createCallGate((name, input) => agent.call(name, input), lookup);
  const tools = Object.fromEntries(
    agent.tools.map(({ name, description, inputSchema }) => [
      name,
      tool<unknown, FormletterToolOutput>({
        description,
        inputSchema: jsonSchema(inputSchema),
        needsApproval: (input, options) => gate.needsApproval(name, input, options),
        execute: (input, options) => gate.execute(name, input, options),
        toModelOutput: ({ output }) => ({ type: "text", value: outputText(output) }),
      }),
    ]),
  );
  return { tools, instructions: agent.description };
}
