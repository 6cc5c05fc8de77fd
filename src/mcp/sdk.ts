import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type * as Types from "@modelcontextprotocol/sdk/types.js";
import { requirePeer } from "../core/peer-dependency.js";

/** The parts of `@modelcontextprotocol/sdk` the server uses, loaded once, when first needed. */
export interface McpSdk {
  readonly Server: typeof Server;
  readonly StdioServerTransport: typeof StdioServerTransport;
  readonly WebStandardStreamableHTTPServerTransport: typeof WebStandardStreamableHTTPServerTransport;
  readonly types: typeof Types;
}

let loaded: McpSdk | undefined;

/**
 * Loads the MCP SDK, an optional peer: importing `formletter/mcp` or `formletter/relay` never needs
 * it, serving MCP does. A missing package is a `dependency_missing` error naming the install command.
 */
export function loadMcpSdk(neededBy: string): McpSdk {
  if (loaded !== undefined) return loaded;
  const name = "@modelcontextprotocol/sdk";
  loaded = {
    Server: requirePeer<{ Server: typeof Server }>(name, neededBy, "server/index.js").Server,
    StdioServerTransport: requirePeer<{ StdioServerTransport: typeof StdioServerTransport }>(
      name,
      neededBy,
      "server/stdio.js",
    ).StdioServerTransport,
    WebStandardStreamableHTTPServerTransport: requirePeer<{
      WebStandardStreamableHTTPServerTransport: typeof WebStandardStreamableHTTPServerTransport;
    }>(name, neededBy, "server/webStandardStreamableHttp.js").WebStandardStreamableHTTPServerTransport,
    types: requirePeer<typeof Types>(name, neededBy, "types.js"),
  };
  return loaded;
}
