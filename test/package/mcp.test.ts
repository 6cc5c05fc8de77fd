/**
 * formletter/mcp from the packed tarball, installed beside @modelcontextprotocol/sdk in a project of its
 * own: from an ES module and from CommonJS, the server formletter builds (with the SDK it loads) answers
 * the application's own client, and the relay serves the same tools at /mcp.
 */
import { describe, expect, it } from "vitest";
import { usePackedPackage } from "./scratch-project.js";

const packed = usePackedPackage(["@modelcontextprotocol/sdk"]);

/** The script's body, after its imports: one call in process, one through the relay's /mcp. */
const body = `
const records = defineRecords({ contacts: z.object({ id: z.string(), email: z.email() }) });
const catalog = createCatalog(records, [
  defineTemplate(records, {
    id: "payout", description: "Tell the partner their payout was released", audience: "partner",
    effect: "informational", channel: "email", to: records.slot.ref("contacts", { show: "email" }),
    subject: "Payout released", body: "Your payout was released.", slots: {},
    limits: { perTicket: 1, perDay: 10 },
  }),
]);
const transport = memoryTransport();
const outbox = createOutbox({
  catalog, store: memoryStore(), transports: { email: transport },
  load: (ticketId) => ({ ticketId, contacts: [{ id: "c1", email: "ana@partner.example" }] }),
});
const main = async () => {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "app", version: "1.0.0" });
  await Promise.all([createMcpServer({ outbox, ticketId: "T-1", runId: "run-1" }).connect(serverSide), client.connect(clientSide)]);
  const names = (await client.listTools()).tools.map((tool) => tool.name).join(",");
  const sent = await client.callTool({ name: "payout", arguments: {} });
  const relay = createRelay({ outbox, secret: "scratch-task-secret-0123456789-abcdefghij" });
  const { url } = await relay.listen({ port: 0 });
  const token = await relay.mintTaskToken({ ticketId: "T-2", runId: "run-2" });
  const remote = new Client({ name: "app", version: "1.0.0" });
  await remote.connect(new StreamableHTTPClientTransport(new URL(url + "/mcp"), { requestInit: { headers: { authorization: "Bearer " + token } } }));
  const viaRelay = await remote.callTool({ name: "payout", arguments: {} });
  console.log([names, sent.structuredContent.outcome, viaRelay.structuredContent.outcome, transport.sent.length].join(" "));
  await remote.close();
  await client.close();
  await relay.close();
  await outbox.close();
};
`;

const esm = `import { z } from "zod";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { createCatalog, createOutbox, defineRecords, defineTemplate, memoryStore, memoryTransport } from "formletter";
import { createMcpServer } from "formletter/mcp";
import { createRelay } from "formletter/relay";
${body}
await main();
`;

const cjs = `const { z } = require("zod");
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StreamableHTTPClientTransport } = require("@modelcontextprotocol/sdk/client/streamableHttp.js");
const { InMemoryTransport } = require("@modelcontextprotocol/sdk/inMemory.js");
const { createCatalog, createOutbox, defineRecords, defineTemplate, memoryStore, memoryTransport } = require("formletter");
const { createMcpServer } = require("formletter/mcp");
const { createRelay } = require("formletter/relay");
${body}
main();
`;

describe("formletter/mcp from the packed package", () => {
  it.each([
    ["an ES module", "mcp.mjs", esm],
    ["CommonJS", "mcp.cjs", cjs],
  ])("runs from %s: lists and calls in process and through the relay's /mcp", async (_, name, source) => {
    expect(await packed.runScript(name, source)).toBe("payout,escalate_to_human,describe-ticket sent sent 2");
  });
});
