/**
 * Input tokens an agent sends per ticket on the seller catalog: the tools, the fixed instructions of
 * the examples and `describe()`, for each provider shape and both cache modes, counted with a real
 * GPT-4o tokenizer (gpt-tokenizer, o200k_base) over the bundled tickets; the share of each prompt that
 * every ticket shares (what a prompt cache holds); the output tokens of a typical tool call; and how
 * close the library's tokenizer-free estimate comes.
 *
 * Tools are counted as their JSON text: providers render them in their own formats, so treat the
 * figures as a like-for-like measure between versions and modes, not as an invoice.
 */
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { createOutbox, memoryStore } from "formletter";
import { estimateTokens, type LlmProvider, noneValue, type ToolsCache } from "formletter/llm";
import { createMcpServer } from "formletter/mcp";
import { encode } from "gpt-tokenizer";
import { instructions } from "../examples/agent-kit.js";
import { sellerCatalog } from "../templates/seller.js";
import { figure, report } from "./measure.js";

interface TicketLine {
  readonly ticketId: string;
  readonly records: { readonly ticketId: string };
  readonly output: unknown;
}

const lines: TicketLine[] = readFileSync(new URL("../examples/data/tickets.jsonl", import.meta.url), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as TicketLine);
const tickets = lines.filter((line) => sellerCatalog.prepare(line.records).ok);
const providers: readonly LlmProvider[] = ["openai", "openai-responses", "anthropic", "ai-sdk"];
const modes: readonly ToolsCache[] = ["ticket", "prefix"];

/**
 * Goals: a ticket's own tools at most 1,300 tokens at the median (every choice label said in full);
 * shared tools at least 85% cacheable.
 */
const goals = { ticketMedian: 1_300, prefixShare: 0.85 };

const at = (sorted: readonly number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;
const sorted = (values: readonly number[]) => [...values].sort((a, b) => a - b);
const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

/** The prompt of one ticket's first request, in the order providers read it: tools, instructions, records. */
function prompt(records: object, provider: LlmProvider, cache: ToolsCache): string {
  const tools = JSON.stringify(sellerCatalog.tools(records, { provider, cache }).tools);
  return `${tools}\n${instructions}\n${sellerCatalog.describe(records, { cache })}`;
}

/** Tokens at the start that every prompt shares. */
function sharedPrefix(prompts: readonly number[][]): number {
  const first = prompts[0] ?? [];
  let shared = first.length;
  for (const tokens of prompts) {
    let index = 0;
    while (index < shared && tokens[index] === first[index]) index += 1;
    shared = index;
  }
  return shared;
}

process.stdout.write(
  `\nPrompt tokens per ticket — seller catalog, ${tickets.length} bundled tickets, gpt-tokenizer (o200k_base)\n`,
);
report("fixed instructions (examples/agent-kit.ts)", `${figure(encode(instructions).length)} tokens`);
let ticketGoal = true;
let prefixGoal = true;
for (const cache of modes) {
  process.stdout.write(
    `\n  cache: "${cache}"${cache === "prefix" ? " (tools identical for every ticket)" : " (default: this ticket's tools)"}\n`,
  );
  for (const provider of providers) {
    const prompts = tickets.map((line) => encode(prompt(line.records, provider, cache)));
    const totals = sorted(prompts.map((tokens) => tokens.length));
    const median = at(totals, 0.5);
    const shared = sharedPrefix(prompts);
    const estimates = sorted(tickets.map((line) => estimateTokens(prompt(line.records, provider, cache))));
    if (cache === "ticket" && median > goals.ticketMedian) ticketGoal = false;
    if (cache === "prefix" && shared / median < goals.prefixShare) prefixGoal = false;
    report(
      `${provider}: median / p95 input tokens`,
      `${figure(median)} / ${figure(at(totals, 0.95))}  (estimate ${figure(at(estimates, 0.5))})`,
    );
    report(
      `${provider}: prefix shared by every ticket`,
      `${figure(shared)} tokens, ${percent(shared / median)} of the median`,
    );
  }
}

// MCP: the tools/list answer of `formletter/mcp` for each ticket, through the SDK's own client. A
// client forwards name, description and inputSchema to the model; the outputSchema stays with it.
const outbox = createOutbox({
  catalog: sellerCatalog,
  load: (ticketId) => tickets.find((line) => line.ticketId === ticketId)?.records,
  store: memoryStore(),
  mode: "shadow",
});
for (const cache of modes) {
  const served: number[] = [];
  const forwarded: number[] = [];
  for (const line of tickets) {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = createMcpServer({ outbox, ticketId: line.ticketId, runId: "bench", cache });
    const client = new Client({ name: "bench", version: "1.0.0" });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    const { tools } = await client.listTools();
    served.push(encode(JSON.stringify(tools)).length);
    const plain = tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
    forwarded.push(encode(JSON.stringify(plain)).length);
    await client.close();
  }
  process.stdout.write(`\n  MCP tools/list, cache: "${cache}" (tools only, describe-ticket included)\n`);
  report(
    "as served, with outputSchema: median / p95",
    `${figure(at(sorted(served), 0.5))} / ${figure(at(sorted(served), 0.95))}`,
  );
  report(
    "as a client forwards it: median / p95",
    `${figure(at(sorted(forwarded), 0.5))} / ${figure(at(sorted(forwarded), 0.95))}`,
  );
}
await outbox.close();

// Output: the recorded proposals of the bundled tickets, as the tool call a strict model writes.
const calls = { ticket: [] as number[], prefix: [] as number[] };
for (const line of tickets) {
  const output = line.output as { template?: unknown; slots?: Record<string, unknown> } | null;
  if (typeof output?.template !== "string" || output.slots === undefined) continue;
  const args = Object.fromEntries(
    Object.entries(output.slots).map(([slot, value]) => [slot, value === null ? noneValue : value]),
  );
  calls.ticket.push(encode(`${output.template}${JSON.stringify(args)}`).length);
  calls.prefix.push(encode(`${output.template}${JSON.stringify({ to: noneValue, ...args })}`).length);
}
process.stdout.write("\n  output: one tool call (name and arguments)\n");
report(
  "own tools: median / p95 output tokens",
  `${at(sorted(calls.ticket), 0.5)} / ${at(sorted(calls.ticket), 0.95)}`,
);
report(
  "shared tools: median / p95 output tokens",
  `${at(sorted(calls.prefix), 0.5)} / ${at(sorted(calls.prefix), 0.95)}`,
);

// What a free-text tool would cost, for scale: it is what the design refuses to offer.
const freeText = JSON.stringify([
  {
    type: "function",
    function: {
      name: "message_seller",
      description: "Send a message to the seller of an order.",
      parameters: {
        type: "object",
        properties: { order: { type: "string" }, subject: { type: "string" }, body: { type: "string" } },
        required: ["order", "subject", "body"],
        additionalProperties: false,
      },
      strict: true,
    },
  },
]);
process.stdout.write("\n");
report("for scale: one free-text tool (not offered)", `${figure(encode(freeText).length)} tokens`);
report(`goal: own tools ≤ ${figure(goals.ticketMedian)} at the median`, ticketGoal ? "met" : "NOT met");
report(`goal: shared tools ≥ ${percent(goals.prefixShare)} a shared prefix`, prefixGoal ? "met" : "NOT met");
