/**
 * Another MCP client than the SDK's own: the OpenAI Agents SDK's `MCPServerStreamableHttp` (built on the
 * version 2 MCP client) lists and calls the relay's /mcp tools with a task token, as an agent built on
 * that SDK would take formletter's tools without any formletter code.
 */
import { MCPServerStreamableHttp } from "@openai/agents";
import { describe, expect, it } from "vitest";
import { proposal } from "../fixtures/property.js";
import { useRelay } from "../relay/harness.js";

describe("the relay's /mcp from the OpenAI Agents SDK's MCP client", () => {
  const setup = useRelay();

  it("lists the ticket's tools, reads the description, calls a tool once and gets the outcome", async () => {
    const { relay, url, transport } = setup.rig;
    const token = await relay.mintTaskToken({ ticketId: "T-1", runId: "run-1" });
    const server = new MCPServerStreamableHttp({
      url: `${url}/mcp`,
      name: "formletter",
      requestInit: { headers: { authorization: `Bearer ${token}` } },
      useStructuredContent: true,
    });
    await server.connect();
    try {
      const tools = await server.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(["completion_check", "escalate_to_human", "describe-ticket"]),
      );
      const description = await server.readResource("formletter://ticket/description");
      expect(JSON.stringify(description.contents)).toContain("Builder T-1");
      const result = await server.callToolResult("completion_check", proposal("T-1").slots);
      expect(result.structuredContent).toEqual({
        outcome: "sent",
        template: "completion_check",
        delivery: "delivered",
      });
      const again = await server.callToolResult("completion_check", proposal("T-1").slots);
      expect(again.structuredContent).toEqual({ outcome: "duplicate", first: "sent" });
      expect(transport.sent).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});
