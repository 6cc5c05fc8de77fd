/**
 * `createMcpServer` in process, over the SDK's in-memory transport: a long session sees the ticket's
 * records as they are at each request, as handle() decides on them.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, expect, it } from "vitest";
import { createOutbox, memoryStore, memoryTransport } from "../../src/index.js";
import { createMcpServer } from "../../src/mcp/index.js";
import { type PropertyTicket, propertyCatalog, propertyTicket } from "../fixtures/property.js";

describe("createMcpServer", () => {
  it("lists the ticket's records as they are at each request, not as they were at the first", async () => {
    let ticket: PropertyTicket = propertyTicket("T-1");
    const outbox = createOutbox({
      catalog: propertyCatalog,
      load: () => ticket,
      store: memoryStore(),
      transports: { email: memoryTransport() },
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: "agent", version: "1.0.0" });
    await Promise.all([
      createMcpServer({ outbox, ticketId: "T-1", runId: "run-1" }).connect(serverSide),
      client.connect(clientSide),
    ]);
    try {
      const orderEnum = async () =>
        (await client.listTools()).tools.find((tool) => tool.name === "completion_check")?.inputSchema
          .properties?.order as { enum?: string[] } | undefined;
      expect((await orderEnum())?.enum).toHaveLength(1);
      const order = ticket.work_orders[0] as PropertyTicket["work_orders"][number];
      ticket = { ...ticket, work_orders: [order, { ...order, id: "W-new", unit: "Flat 9" }] };
      const added = propertyCatalog.handles(ticket).get("work_orders", "W-new");
      expect((await orderEnum())?.enum).toContain(added);
    } finally {
      await client.close();
      await outbox.close();
    }
  });
});
