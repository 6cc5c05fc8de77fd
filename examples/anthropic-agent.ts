/**
 * An agent loop on the Anthropic Messages API: each buyer ticket becomes a prompt (`describe()`), the
 * ticket's strict tools (`tools()`), the model's tool call, a proposal (`parseToolCall()`) and a
 * decision (`decide()`), handed to an outbox that sends it (console transport) or queues it for a person.
 * A rejected choice goes back to the model once or twice with decide()'s hint, which holds only handles
 * and keys.
 *
 * With ANTHROPIC_API_KEY set it calls the API with fetch (no SDK); without, a scripted stand-in replays
 * the responses in examples/data/recorded-tool-calls.anthropic.json, so it runs offline.
 *
 *   npx tsx examples/anthropic-agent.ts
 *   ANTHROPIC_API_KEY=sk-ant-... ANTHROPIC_MODEL=claude-sonnet-4-6 npx tsx examples/anthropic-agent.ts
 */

import { sellerCatalog } from "../templates/seller.js";
import {
  buyerText,
  instructions,
  maxCalls,
  retryable,
  runAgentExample,
  scriptedModel,
  type Ticket,
} from "./agent-kit.js";

const model = process.env.ANTHROPIC_MODEL ?? "claude-sonnet-4-6";
const recordings = new URL("./data/recorded-tool-calls.anthropic.json", import.meta.url);

/** The parts of the Messages API this loop uses, typed by hand: the package needs no SDK. */
type ContentBlock =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "tool_use"; readonly id: string; readonly name: string; readonly input: unknown };
type Message =
  | { readonly role: "user"; readonly content: string | readonly ToolResult[] }
  | { readonly role: "assistant"; readonly content: readonly ContentBlock[] };
interface ToolResult {
  readonly type: "tool_result";
  readonly tool_use_id: string;
  readonly content: string;
  readonly is_error?: boolean;
}
interface MessageResponse {
  readonly content: readonly ContentBlock[];
}
type CallModel = (ticketId: string, request: Record<string, unknown>) => Promise<MessageResponse>;

/** The real API, over fetch. */
function anthropicModel(apiKey: string): CallModel {
  return async (_ticketId, request) => {
    const response = await fetch("https://api.anthropic.com/v1/messages", {
      method: "POST",
      headers: { "x-api-key": apiKey, "anthropic-version": "2023-06-01", "content-type": "application/json" },
      body: JSON.stringify(request),
    });
    if (!response.ok) throw new Error(`Anthropic answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as MessageResponse;
  };
}

/** One ticket, start to end: the output the loop settles on, and the reasons of the tries before it. */
async function runTicket(
  ticket: Ticket,
  callModel: CallModel,
): Promise<{ output: unknown; retried: string[] }> {
  const { records } = ticket;
  let offer = sellerCatalog.tools(records, { provider: "anthropic" });
  // Fixed text first and the ticket's records after it, so the start of every request is the same.
  const system = instructions;
  const messages: Message[] = [
    { role: "user", content: `${sellerCatalog.describe(records)}\n\n${buyerText(ticket)}` },
  ];
  const retried: string[] = [];
  let output: unknown = "";
  for (let turn = 1; turn <= maxCalls; turn++) {
    const request = {
      model,
      max_tokens: 1024,
      system,
      messages,
      tools: offer.tools,
      tool_choice: { type: "any", disable_parallel_tool_use: true },
    };
    const { content } = await callModel(ticket.ticketId, request);
    const call = content.find((block) => block.type === "tool_use");
    if (call === undefined) {
      // No tool call: the text goes to decide() as it is; unless it is a proposal's JSON, it escalates.
      output = content.map((block) => (block.type === "text" ? block.text : "")).join("");
      break;
    }
    messages.push({ role: "assistant", content });
    const answer = (text: string, isError: boolean): Message => ({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: call.id, content: text, is_error: isError }],
    });
    // Too many templates for one request: the model chose a template first; now it fills that one.
    const stageTwo = offer.next(call.name, call.input);
    if (stageTwo !== undefined) {
      offer = stageTwo;
      messages.push(answer("Now fill the slots of that template.", false));
      continue;
    }
    output = sellerCatalog.parseToolCall(call.name, call.input);
    // A dry run, pure and cheap; the outbox decides again and records the decision durably.
    const decision = sellerCatalog.decide(output, records);
    if (!retryable(decision) || turn === maxCalls) break;
    retried.push(decision.reason);
    messages.push(answer(`Not sent (${decision.reason}). ${decision.hint}`, true));
  }
  return { output, retried };
}

const apiKey = process.env.ANTHROPIC_API_KEY;
const callModel: CallModel = apiKey ? anthropicModel(apiKey) : scriptedModel<MessageResponse>(recordings);
console.log(
  apiKey
    ? `model: ${model} (Anthropic Messages)`
    : "model: scripted stand-in replaying examples/data/recorded-tool-calls.anthropic.json (set ANTHROPIC_API_KEY for the API)",
);

await runAgentExample("anthropic", (ticket) => runTicket(ticket, callModel));
