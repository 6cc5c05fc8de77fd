/**
 * formletter in the OpenAI Agents SDK: the seller catalog's tools as function tools of an `Agent`, in
 * three scenes on the sample ticket — a normal send, a refund that waits for a person (the run stops with
 * an interruption, is saved, the process "restarts", a person approves the queue item as
 * `formletter queue` does, and the saved run resumes), and an escalation with the hint the model gets.
 *
 * The model is the SDK's own `ScriptedModel`, so the example runs offline; give the agent a model name
 * instead (and set OPENAI_API_KEY) to let a real model choose.
 *
 *   npx tsx examples/agents-openai.ts
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, type ModelRequest, Runner, RunState } from "@openai/agents";
import { assistantMessage, functionCall, modelResponder, ScriptedModel } from "@openai/agents/testing";
import { createOutbox, memoryTransport, openHumanQueue } from "formletter";
import { formletterTools } from "formletter/openai-agents";
import { sqliteStore } from "formletter/sqlite";
import { sellerCatalog } from "../templates/seller.js";
import { delivered, placed, ticket } from "./sample-ticket.js";

const directory = mkdtempSync(join(tmpdir(), "formletter-agents-openai-"));
const database = join(directory, "outbox.db");
const runner = new Runner({ tracingDisabled: true });

/** One process: an outbox on the database file, and the ticket's tools for one agent run. */
async function start() {
  const transport = memoryTransport();
  const outbox = createOutbox({
    catalog: sellerCatalog,
    load: () => ticket,
    store: sqliteStore(database),
    transports: { email: transport },
  });
  const kit = await formletterTools({ outbox, ticketId: ticket.ticketId, runId: "run-1" });
  /** The agent, with a stand-in model that makes `call` (if any), then says what the tool answered. */
  const agent = (call?: { tool: string; args: Record<string, unknown> }) =>
    new Agent({
      name: "seller-support",
      instructions: `You write to sellers only through the tools.\n${kit.description}`,
      tools: kit.tools,
      model: new ScriptedModel([
        ...(call === undefined ? [] : [[functionCall(call.tool, call.args, { callId: "call_1" })]]),
        modelResponder(({ request }) => [assistantMessage(`(the tool said) ${toolResult(request)}`)]),
      ]),
    });
  return { outbox, transport, kit, agent };
}

/** The last tool result in the model's input, as text. */
function toolResult(request: ModelRequest): string {
  const last = Array.isArray(request.input) ? request.input.at(-1) : undefined;
  if (last?.type !== "function_call_result") return "(none)";
  const { output } = last;
  if (typeof output === "string") return output;
  return "text" in output && typeof output.text === "string" ? output.text : JSON.stringify(output);
}

try {
  let running = await start();

  // 1. A normal send: tracking for the delivered order.
  const sent = await runner.run(
    running.agent({ tool: "tracking_request", args: delivered }),
    "Where is my parcel?",
  );
  console.log("1. send      →", sent.finalOutput);

  // 2. A refund needs a person: the run stops with an interruption, mapped to its queue item and draft.
  const refund = { tool: "refund_request", args: { ...delivered, reason: "damaged" } };
  const held = await runner.run(running.agent(refund), "The hose arrived split open.");
  const [approval] = await running.kit.approvals(held.interruptions);
  if (approval?.status !== "waiting") throw new Error("expected the refund to wait for a person");
  console.log(
    `2. approval  → queue item ${approval.queueItemId}, to ${approval.draft.to}: ${approval.draft.subject}`,
  );
  const saved = held.state.toString();
  await running.outbox.close();

  // A person approves the queue item outside the run, as `formletter queue release <id> --db … --by …` does.
  const store = sqliteStore(database);
  await openHumanQueue(store).release(approval.queueItemId, { by: "ana@example.com" });
  await store.close();

  // A new process: its outbox sends what was approved, and the saved run resumes where it stopped.
  running = await start();
  await running.outbox.flush();
  const agent = running.agent();
  const state = await RunState.fromString(agent, saved);
  if ((await running.kit.settle(state)).resumable) {
    const resumed = await runner.run(agent, state);
    console.log("   resumed   →", resumed.finalOutput);
  }
  console.log(
    "   delivered →",
    running.transport.sent.map((one) => one.message.subject),
  );

  // 3. An escalation: tracking for an order that has not shipped; the model gets the valid handles.
  const escalated = await runner.run(
    running.agent({ tool: "tracking_request", args: placed }),
    "Track 4505-3241.",
  );
  console.log("3. escalate  →", escalated.finalOutput);
  await running.outbox.close();
} finally {
  rmSync(directory, { recursive: true, force: true });
}
