import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import {
  type AgentTools,
  type AgentToolsOptions,
  createAgentTools,
  outcomeText,
  type ToolOutcome,
  toolOutcomeSchema,
} from "../agent-tools/index.js";
import { formletterVersion } from "../core/version.js";
import { loadMcpSdk, type McpSdk } from "./sdk.js";

/**
 * The tool that reads the ticket's description, for clients without resources. Its name holds a "-",
 * which no template id can (ids are `[a-z0-9_]`), so it can never shadow a template's tool.
 */
export const describeToolName = "describe-ticket";

/** The ticket's description as an MCP resource. */
export const describeResourceUri = "formletter://ticket/description";

// Written here, once: what every client shows the model about this server.
const instructions =
  "Messages leave only as templates written in code: call a template's tool with the handles and keys " +
  `of this ticket, or escalate_to_human when none fits. Read the ticket description first (the ${describeToolName} tool or the ${describeResourceUri} resource).`;

/** The outcome's schema as JSON Schema: draft 7, which every client's validator reads; an object at its root. */
const outputSchema = (() => {
  const { $schema: _, ...schema } = z.toJSONSchema(toolOutcomeSchema, { target: "draft-7" });
  return schema as Tool["outputSchema"];
})();

// The call reached no outbox: the model should see it as a failed call, not as an answer.
const failed: ReadonlySet<ToolOutcome["outcome"]> = new Set(["relay_unreachable", "refused", "unavailable"]);

/** The MCP tools of a ticket: its templates' tools with the outcome schema, and the description tool. */
export function mcpTools(agent: AgentTools): Tool[] {
  const tools: Tool[] = agent.tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    outputSchema,
    // A message sent cannot be taken back; the same call twice sends once.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  }));
  tools.push({
    name: describeToolName,
    description:
      "The ticket's templates and choosable records (handle: label), as text. Read it before calling a template's tool.",
    inputSchema: { type: "object", properties: {}, additionalProperties: false },
    annotations: { readOnlyHint: true, openWorldHint: false },
  });
  return tools;
}

/** A tool's outcome as MCP returns it: the structured outcome and its one line of text. */
export function toolResult(outcome: ToolOutcome): CallToolResult {
  return {
    content: [{ type: "text", text: outcomeText(outcome) }],
    structuredContent: outcome as unknown as Record<string, unknown>,
    ...(failed.has(outcome.outcome) ? { isError: true } : {}),
  };
}

/**
 * Builds the low-level MCP server of one ticket over `agent()`, which is called for each request that
 * needs the tools (an `initialize` alone loads no records).
 */
export function mcpServerOver(agent: () => Promise<AgentTools>, sdk: McpSdk): Server {
  const { types } = sdk;
  const server = new sdk.Server(
    { name: "formletter", version: formletterVersion },
    { capabilities: { tools: {}, resources: {} }, instructions },
  );
  // Listing and reading build the tools again, so a long session (stdio) sees the ticket's records as
  // they are now, as handle() decides on them; a call reuses the last ones (handle() loads the records
  // itself), so a relay that went away answers `relay_unreachable` rather than an error.
  let latest: AgentTools | undefined;
  const tools = async (fresh = true): Promise<AgentTools> => {
    if (!fresh && latest !== undefined) return latest;
    try {
      latest = await agent();
      return latest;
    } catch {
      // The cause may name internals or records: the client learns only that they are not to be had.
      throw new types.McpError(
        types.ErrorCode.InternalError,
        "the ticket's tools could not be loaded (its records, or the relay, are unavailable); try again later",
      );
    }
  };
  server.setRequestHandler(types.ListToolsRequestSchema, async () => ({ tools: mcpTools(await tools()) }));
  server.setRequestHandler(types.CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name, arguments: args } = request.params;
    const agentTools = await tools(name === describeToolName);
    if (name === describeToolName) return { content: [{ type: "text", text: agentTools.description }] };
    return toolResult(await agentTools.call(name, args ?? {}));
  });
  server.setRequestHandler(types.ListResourcesRequestSchema, async () => ({
    resources: [
      {
        uri: describeResourceUri,
        name: "ticket-description",
        description: "The ticket's templates and choosable records (handle: label), for the system prompt.",
        mimeType: "text/plain",
      },
    ],
  }));
  server.setRequestHandler(types.ReadResourceRequestSchema, async (request) => {
    if (request.params.uri !== describeResourceUri)
      throw new types.McpError(
        types.ErrorCode.InvalidParams,
        `unknown resource; this server has one: ${describeResourceUri}`,
      );
    const { description } = await tools();
    return { contents: [{ uri: describeResourceUri, mimeType: "text/plain", text: description }] };
  });
  return server;
}

/**
 * An MCP server for one ticket's tools: each template this ticket can fill, `escalate_to_human` and
 * `describe-ticket`, plus the ticket's description as a resource. Calls go through `outbox.handle()`
 * (or the relay), so limits, idempotency, approvals and audit hold; a result is a code-written
 * outcome as `structuredContent` (with its `outputSchema`) and one line of text. Connect it to any
 * transport of the SDK; needs `@modelcontextprotocol/sdk` installed.
 *
 * @example
 * import { createMcpServer } from "formletter/mcp";
 * import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
 * const server = createMcpServer({ outbox, ticketId: "T-1", runId: "run-9" });
 * await server.connect(new StdioServerTransport());
 */
export function createMcpServer(options: AgentToolsOptions): Server {
  return mcpServerOver(() => createAgentTools(options), loadMcpSdk("the MCP server (formletter/mcp)"));
}
