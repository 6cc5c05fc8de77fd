/**
 * formletter in the Vercel AI SDK: the seller catalog's tools for `generateText`, in three scenes on the
 * sample ticket — a normal send; a refund that waits for a person (the SDK emits a tool approval request,
 * a person reads the exact draft and approves the queue item through the outbox, and the run continues);
 * and an escalation with the hint the model gets.
 *
 * The model is the SDK's own `MockLanguageModelV3`, so the example runs offline; pass a real model
 * (`openai("gpt-5")`, `anthropic(...)`) to `generateText` to let it choose.
 *
 *   npx tsx examples/agents-ai-sdk.ts
 */

import { generateText, type ModelMessage, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { createOutbox, memoryStore, memoryTransport } from "formletter";
import { formletterApprovals, formletterTools } from "formletter/ai-sdk";
import { sellerCatalog } from "../templates/seller.js";
import { delivered, placed, ticket } from "./sample-ticket.js";

const transport = memoryTransport();
const outbox = createOutbox({
  catalog: sellerCatalog,
  load: () => ticket,
  store: memoryStore(),
  transports: { email: transport },
});
const { tools, instructions } = await formletterTools({ outbox, ticketId: ticket.ticketId, runId: "run-1" });
const approvals = formletterApprovals({ outbox, ticketId: ticket.ticketId });

/** A stand-in model: it makes `call`, then repeats what the tool answered. */
function model(call: { tool: string; args: Record<string, unknown> }) {
  const usage = {
    inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 0, text: 0, reasoning: 0 },
  };
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      const last = prompt.at(-1);
      if (last?.role !== "tool") {
        const input = JSON.stringify(call.args);
        const content = [{ type: "tool-call" as const, toolCallId: "call_1", toolName: call.tool, input }];
        return { content, finishReason: { unified: "tool-calls", raw: undefined }, usage, warnings: [] };
      }
      const said = last.content.map((part) =>
        part.type === "tool-result" && part.output.type === "text" ? part.output.value : "",
      );
      const content = [{ type: "text" as const, text: `(the tool said) ${said.join(" ")}` }];
      return { content, finishReason: { unified: "stop", raw: undefined }, usage, warnings: [] };
    },
  });
}

const system = `You write to sellers only through the tools.\n${instructions}`;

/** One turn of the agent: the model, the ticket's tools, the conversation so far. */
const turn = (llm: MockLanguageModelV3, messages: ModelMessage[]) =>
  generateText({ model: llm, system, tools, messages, stopWhen: stepCountIs(3) });
const say = (content: string): ModelMessage[] => [{ role: "user", content }];

// 1. A normal send: tracking for the delivered order.
const sent = await turn(model({ tool: "tracking_request", args: delivered }), say("Where is my parcel?"));
console.log("1. send      →", sent.text);

// 2. A refund needs a person: the run stops at a tool approval request for the outbox's queue item.
const refund = model({ tool: "refund_request", args: { ...delivered, reason: "damaged" } });
const messages = say("The hose arrived split open.");
const held = await turn(refund, messages);
messages.push(...held.response.messages);
for (const part of held.content) {
  if (part.type !== "tool-approval-request") continue;
  const review = await approvals.review(part);
  if (!review.ok) throw new Error(`nothing to approve: ${review.problem}`);
  console.log(`2. approval  → queue item ${review.queueItemId}, to ${review.to}: ${review.subject}`);
  // The person's decision goes through the outbox; only then does the SDK hear of it.
  const decided = await approvals.approve(part, { by: "ana@example.com", queueItemId: review.queueItemId });
  if (decided.ok) messages.push({ role: "tool", content: [decided.response] });
}
const resumed = await turn(refund, messages);
console.log("   resumed   →", resumed.text);
console.log(
  "   delivered →",
  transport.sent.map((one) => one.message.subject),
);

// 3. An escalation: tracking for an order that has not shipped; the model gets the valid handles.
const escalated = await turn(model({ tool: "tracking_request", args: placed }), say("Track 4505-3241."));
console.log("3. escalate  →", escalated.text);
await outbox.close();
