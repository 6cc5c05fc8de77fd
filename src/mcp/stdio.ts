import type { Readable, Writable } from "node:stream";
import { type AgentToolsOptions, createAgentTools } from "../agent-tools/index.js";
import { mcpServerOver } from "./mcp-server.js";
import { loadMcpSdk } from "./sdk.js";

/** Where the stdio server reads and writes: the process's own streams unless told otherwise. */
export interface StdioStreams {
  readonly stdin?: Readable;
  readonly stdout?: Writable;
  /** Ends the server (a signal); it also ends when the client closes standard input. */
  readonly signal?: AbortSignal;
}

// A line longer than the longest output decide() reads, with room for the JSON-RPC envelope, is no
// proposal: the SDK drops the connection rather than buffer it.
const maxLineBytes = 1_048_576 + 65_536;

/**
 * Serves one ticket's tools over MCP's stdio transport until the client closes standard input or
 * `signal` aborts. Standard output carries the protocol alone: nothing else may write to it.
 *
 * @example
 * import { serveStdio } from "formletter/mcp";
 * await serveStdio({ outbox, ticketId: "T-1", runId: "run-9" });
 */
export async function serveStdio(options: AgentToolsOptions, streams: StdioStreams = {}): Promise<void> {
  const sdk = loadMcpSdk("the MCP server (formletter/mcp)");
  const stdin = streams.stdin ?? process.stdin;
  const server = mcpServerOver(() => createAgentTools(options), sdk);
  const transport = new sdk.StdioServerTransport(stdin, streams.stdout ?? process.stdout, {
    maxBufferSize: maxLineBytes,
  });
  const ended = new Promise<void>((done) => {
    transport.onclose = () => done();
    stdin.once("end", () => done());
    stdin.once("close", () => done());
    if (streams.signal?.aborted) done();
    streams.signal?.addEventListener("abort", () => done(), { once: true });
  });
  await server.connect(transport);
  try {
    await ended;
  } finally {
    await server.close();
  }
}
