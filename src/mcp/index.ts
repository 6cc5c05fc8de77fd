/**
 * @module formletter/mcp: a ticket's tools as a Model Context Protocol server (stdio here; Streamable HTTP inside the relay at /mcp), calls through the outbox; needs `@modelcontextprotocol/sdk`.
 */

export { createMcpServer, describeResourceUri, describeToolName } from "./mcp-server.js";
export type { StdioStreams } from "./stdio.js";
export { serveStdio } from "./stdio.js";
