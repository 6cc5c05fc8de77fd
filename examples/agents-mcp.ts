/**
 * formletter as an MCP server: the relay serves the sample ticket's tools at /mcp to the MCP SDK's own
 * client, holding a task token and nothing else, in three scenes — a normal send; a refund that waits
 * for a person (the tool answers `queued_for_approval` with the queue item, an operator reads the exact
 * draft and approves that item at the relay's queue endpoint, and it is sent once); and an escalation
 * with the hint the model gets.
 *
 * A desktop client or a local agent runs the same tools over stdio instead:
 * `formletter mcp --catalog ./catalog.ts --db outbox.db --ticket T-1`.
 *
 *   npx tsx examples/agents-mcp.ts
 */

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createOutbox, memoryStore, memoryTransport } from "formletter";
import { createRelay } from "formletter/relay";
import { sellerCatalog } from "../templates/seller.js";
import { delivered, ticket } from "./sample-ticket.js";

const transport = memoryTransport();
const outbox = createOutbox({
  catalog: sellerCatalog,
  load: () => ticket,
  store: memoryStore(),
  transports: { email: transport },
});
// Secrets come from your secret store; these are for the example only.
const relay = createRelay({
  outbox,
  secret: "example-task-secret-0123456789-abcdefghij",
  operatorSecret: "example-operator-secret-0123456789-abcdef",
});
const { url } = await relay.listen({ port: 0 });

// The agent's side: a task token for this ticket and run, and the MCP client it already has.
const token = await relay.mintTaskToken({ ticketId: ticket.ticketId, runId: "run-1", ttl: 600 });
const client = new Client({ name: "support-agent", version: "1.0.0" });
await client.connect(
  new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  }),
);

try {
  const { tools } = await client.listTools();
  console.log("tools       →", tools.map((tool) => tool.name).join(", "));
  const said = (result: Awaited<ReturnType<typeof client.callTool>>) =>
    (result.content as { type: string; text?: string }[]).map((part) => part.text ?? "").join(" ");

  // 1. A normal send: tracking for the delivered order.
  const sent = await client.callTool({ name: "tracking_request", arguments: delivered });
  console.log("1. send      →", said(sent));

  // 2. A refund needs a person: the tool answers with the queue item, never the draft.
  const held = await client.callTool({
    name: "refund_request",
    arguments: { ...delivered, reason: "damaged" },
  });
  console.log("2. held      →", said(held));
  const { queueItemId } = held.structuredContent as { queueItemId: string };
  // The operator's side: the exact draft by the item's id, then its approval, both at the queue endpoints.
  const operator = await relay.mintOperatorToken({ operator: "ana@example.com" });
  const headers = { authorization: `Bearer ${operator}`, "content-type": "application/json" };
  const item = (await (await fetch(`${url}/v1/queue/${queueItemId}`, { headers })).json()) as {
    draft: { to: string; subject: string; text: string };
  };
  console.log("   draft     →", item.draft.to, "/", item.draft.subject);
  await fetch(`${url}/v1/queue/${queueItemId}/approve`, { method: "POST", headers, body: "{}" });
  console.log("   approved  → messages sent:", transport.sent.length);

  // 3. A handle of no record: escalated, and the hint lists what a corrected call may use.
  const wrong = await client.callTool({
    name: "tracking_request",
    arguments: { ...delivered, order: "o-0000" },
  });
  console.log("3. escalate  →", said(wrong));
} finally {
  await client.close();
  await relay.close();
  await outbox.close();
}
