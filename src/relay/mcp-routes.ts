import { createHmac } from "node:crypto";
import { z } from "zod";
import { createAgentTools } from "../agent-tools/agent-tools.js";
import { mcpServerOver } from "../mcp/mcp-server.js";
import { loadMcpSdk, type McpSdk } from "../mcp/sdk.js";
import type { Outbox } from "../outbox/index.js";
import type { Gate } from "./gate.js";
import { problem } from "./http.js";
import type { RelayMetrics } from "./relay-metrics.js";
import type { ErrorCode } from "./reply-schemas.js";
import type { Route } from "./routes.js";
import { agentAudience } from "./tokens.js";
import type { TokenClaims } from "./verify-token.js";

/** What the MCP endpoint needs. */
export interface McpRoutesOptions {
  readonly outbox: Outbox;
  readonly gate: Gate;
  readonly metrics: RelayMetrics;
  /** The task-token secret: session ids are keyed by a key derived from it, the same on every instance. */
  readonly secret: Uint8Array;
  /** Origins a browser page may call from (`https://app.example.com`); any other Origin is refused. */
  readonly allowedOrigins: readonly string[];
}

type AgentClaims = Extract<TokenClaims, { audience: typeof agentAudience }>;

/** JSON-RPC error codes: the spec's parse error and invalid request, and one of the server range. */
const parseError = -32_700;
const invalidRequest = -32_600;
const refused = -32_001;

/**
 * A refusal as a JSON-RPC error without an id (the request was not read as one), keeping the relay's
 * status, headers, code and message: an MCP client reads the one, a person the other.
 */
async function asJsonRpc(response: Response): Promise<Response> {
  const body = (await response.json()) as { error: { code: ErrorCode; message: string } };
  const { code, message } = body.error;
  const rpc =
    code === "body_malformed"
      ? parseError
      : code === "body_too_large" ||
          code === "unsupported_media_type" ||
          code === "request_invalid" ||
          code === "body_invalid"
        ? invalidRequest
        : refused;
  return new Response(
    JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: rpc, message, data: { code } } }),
    { status: response.status, headers: response.headers },
  );
}

/** True when the JSON-RPC body is an `initialize` request (alone: the SDK refuses it in a batch). */
function isInitialize(body: unknown): boolean {
  return typeof body === "object" && body !== null && (body as { method?: unknown }).method === "initialize";
}

const cacheQuery = z.object({ cache: z.enum(["ticket", "prefix"]).optional() });

/**
 * `POST /mcp`: the ticket's tools over MCP's Streamable HTTP transport, for a task token. Stateless: every
 * request is checked as `/v1/proposals` checks it (Origin, token, rate, body) and served by a server
 * built for the token's ticket alone, so an expired token is refused on the next request whatever
 * session it belongs to. The session id the relay hands out on `initialize` is a keyed hash of the
 * token's id: a session id of another token is refused, and no session is held in memory.
 * `GET /mcp` (a server-initiated stream) and `DELETE /mcp` (ending a session) are not offered: 405, as
 * the transport allows.
 */
export function mcpRoutes(options: McpRoutesOptions): Route[] {
  const { outbox, gate, metrics } = options;
  const origins = new Set(options.allowedOrigins);
  // A key of its own, derived from the secret, so a session id can never be mistaken for a signature.
  const sessionKey = createHmac("sha256", options.secret).update("formletter mcp session ids").digest();
  const sessionOf = (claims: AgentClaims) =>
    createHmac("sha256", sessionKey).update(claims.jti).digest("base64url");

  /** The Origin check DNS rebinding needs: a page of any origin not allowed is refused before the token. */
  const originRefused = (request: Request): Response | undefined => {
    const origin = request.headers.get("origin");
    if (origin === null || origins.has(origin)) return undefined;
    // Not audited: any page can send these, and the token (if any) is not read.
    metrics.refusal("origin_refused");
    return problem(403, { code: "origin_refused" }, { connection: "close" });
  };

  const serve = async (request: Request, route: string): Promise<Response> => {
    const refusedOrigin = originRefused(request);
    if (refusedOrigin !== undefined) return asJsonRpc(refusedOrigin);
    const authorized = await gate.authorize(request, route, agentAudience);
    if (!authorized.ok) return asJsonRpc(authorized.response);
    const claims = authorized.value as AgentClaims;
    const session = request.headers.get("mcp-session-id");
    const ownSession = sessionOf(claims);
    if (session !== null && session !== ownSession)
      return asJsonRpc(await gate.refuse(request, route, "session_mismatch", 404, { claims }));
    const query = cacheQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!query.success) return asJsonRpc(problem(400, { code: "request_invalid" }));
    const body = await gate.body(request, route, claims);
    if (!body.ok) return asJsonRpc(body.response);
    if (body.value === undefined) return asJsonRpc(problem(400, { code: "body_malformed" }));
    // One message a request, as one proposal a request at /v1/proposals: a batch of a hundred calls
    // would pass the rate limit as one request (and MCP no longer has batches).
    if (Array.isArray(body.value))
      return asJsonRpc(await gate.refuse(request, route, "body_invalid", 400, { claims }));
    let sdk: McpSdk;
    try {
      sdk = loadMcpSdk("the relay's /mcp endpoint");
    } catch {
      return asJsonRpc(problem(501, { code: "not_implemented" }));
    }
    const server = mcpServerOver(
      () =>
        createAgentTools({
          outbox,
          ticketId: claims.ticketId,
          runId: claims.runId,
          ...(query.data.cache === undefined ? {} : { cache: query.data.cache }),
          observe: (result) => metrics.decision(result.decision, result.duplicate, result.delivery?.status),
        }),
      sdk,
    );
    // Stateless, JSON answers: the session lives in the token, and the answer is whole when returned.
    const transport = new sdk.WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
    try {
      await server.connect(transport);
      const answer = await transport.handleRequest(request, { parsedBody: body.value });
      const headers = new Headers(answer.headers);
      headers.set("cache-control", "no-store");
      if (isInitialize(body.value) && answer.ok) headers.set("mcp-session-id", ownSession);
      return new Response(await answer.text(), { status: answer.status, headers });
    } finally {
      await server.close();
    }
  };

  return [
    {
      method: "POST",
      path: "/mcp",
      doc: {
        summary: "The ticket's tools over the Model Context Protocol (Streamable HTTP, JSON answers)",
        description:
          "JSON-RPC 2.0 messages of MCP: initialize, tools/list (the token's ticket's tools; `?cache=prefix` for the tools every ticket shares), tools/call (through the outbox, as POST /v1/proposals), resources/list and resources/read (the ticket's description). One message a request: a batch is refused. Refusals are JSON-RPC errors without an id, carrying the relay's code in `error.data.code`.",
        auth: "task",
        query: cacheQuery,
        body: { schema: z.unknown(), name: "JsonRpcMessage", required: true },
        success: { mediaType: "application/json", description: "A JSON-RPC 2.0 response" },
        errors: {
          400: ["request_invalid"],
          403: ["origin_refused"],
          404: ["session_mismatch"],
          501: ["not_implemented"],
        },
      },
      // A failure nobody foresaw is still a JSON-RPC answer, without details.
      handle: (request, route) =>
        serve(request, route).catch(() => asJsonRpc(problem(500, { code: "internal" }))),
    },
    // The transport's other two methods, which a stateless server declines with 405 as the spec allows:
    // no stream the server opens (GET), and no session to end (DELETE: the token's expiry ends it).
    ...(["GET", "DELETE"] as const).map(
      (method): Route => ({
        method,
        path: "/mcp",
        doc: {
          summary: `Not served: ${method === "GET" ? "the relay opens no server-initiated stream" : "a session ends with its token"} (405, Allow: POST)`,
          auth: "none",
          success: { mediaType: "application/json", description: "Never given" },
          errors: { 405: ["method_not_allowed"] },
        },
        handle: async (request) =>
          asJsonRpc(
            originRefused(request) ?? problem(405, { code: "method_not_allowed" }, { allow: "POST" }),
          ),
      }),
    ),
  ];
}
