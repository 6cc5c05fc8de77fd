/**
 * An agent loop on OpenAI Chat Completions: each buyer ticket becomes a prompt (`describe()`), the
 * ticket's strict tools (`tools()`), the model's tool call, a proposal (`parseToolCall()`) and a
 * decision (`decide()`), handed to an outbox that sends it (console transport) or queues it for a person.
 * A rejected choice goes back to the model once or twice with decide()'s hint, which holds only handles
 * and keys.
 *
 * With OPENAI_API_KEY set it calls the API with fetch (no SDK); without, a scripted stand-in replays the
 * responses in examples/data/recorded-tool-calls.openai.json, so it runs offline.
 *
 *   npx tsx examples/openai-agent.ts
 *   OPENAI_API_KEY=sk-... OPENAI_MODEL=gpt-5.4-mini npx tsx examples/openai-agent.ts
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

const model = process.env.OPENAI_MODEL ?? "gpt-5.4-mini";
const recordings = new URL("./data/recorded-tool-calls.openai.json", import.meta.url);

/** The parts of the Chat Completions API this loop uses, typed by hand: the package needs no SDK. */
interface ToolCall {
  readonly id: string;
  readonly type: "function";
  readonly function: { readonly name: string; readonly arguments: string };
}
type ChatMessage =
  | { readonly role: "system" | "user"; readonly content: string }
  | { readonly role: "assistant"; readonly content: string | null; readonly tool_calls?: readonly ToolCall[] }
  | { readonly role: "tool"; readonly tool_call_id: string; readonly content: string };
interface ChatResponse {
  readonly choices: readonly {
    readonly message: { readonly content: string | null; readonly tool_calls?: readonly ToolCall[] };
  }[];
}
type CallModel = (ticketId: string, request: Record<string, unknown>) => Promise<ChatResponse>;

/** The real API, over fetch. */
function openaiModel(apiKey: string): CallModel {
  return async (_ticketId, request) => {
    const response = await fetch("https://api.openai.com/v1/chat/completions", {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify(request),
    });
    if (!response.ok) throw new Error(`OpenAI answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as ChatResponse;
  };
}

/** One ticket, start to end: the output the loop settles on, and the reasons of the tries before it. */
async function runTicket(
  ticket: Ticket,
  callModel: CallModel,
): Promise<{ output: unknown; retried: string[] }> {
  const { records } = ticket;
  let offer = sellerCatalog.tools(records, { provider: "openai" });
  const messages: ChatMessage[] = [
    // Fixed text first and the ticket's records after it, so the start of every request is the same.
    { role: "system", content: instructions },
    { role: "user", content: `${sellerCatalog.describe(records)}\n\n${buyerText(ticket)}` },
  ];
  const retried: string[] = [];
  let output: unknown = "";
  for (let turn = 1; turn <= maxCalls; turn++) {
    const request = {
      model,
      messages,
      tools: offer.tools,
      tool_choice: "required",
      parallel_tool_calls: false,
    };
    const message = (await callModel(ticket.ticketId, request)).choices[0]?.message;
    const call = message?.tool_calls?.[0];
    if (call === undefined) {
      // No tool call: the text goes to decide() as it is; unless it is a proposal's JSON, it escalates.
      output = message?.content ?? "";
      break;
    }
    messages.push({ role: "assistant", content: null, tool_calls: [call] });
    // Too many templates for one request: the model chose a template first; now it fills that one.
    const stageTwo = offer.next(call.function.name, call.function.arguments);
    if (stageTwo !== undefined) {
      offer = stageTwo;
      messages.push({ role: "tool", tool_call_id: call.id, content: "Now fill the slots of that template." });
      continue;
    }
    output = sellerCatalog.parseToolCall(call.function.name, call.function.arguments);
    // A dry run, pure and cheap; the outbox decides again and records the decision durably.
    const decision = sellerCatalog.decide(output, records);
    if (!retryable(decision) || turn === maxCalls) break;
    retried.push(decision.reason);
    messages.push({
      role: "tool",
      tool_call_id: call.id,
      content: `Not sent (${decision.reason}). ${decision.hint}`,
    });
  }
  return { output, retried };
}

const apiKey = process.env.OPENAI_API_KEY;
const callModel: CallModel = apiKey ? openaiModel(apiKey) : scriptedModel<ChatResponse>(recordings);
console.log(
  apiKey
    ? `model: ${model} (OpenAI Chat Completions)`
    : "model: scripted stand-in replaying examples/data/recorded-tool-calls.openai.json (set OPENAI_API_KEY for the API)",
);

await runAgentExample("openai", (ticket) => runTicket(ticket, callModel));
