/**
 * Revoked tokens: a relay given a revocation check asks it on every request, so a token revoked while
 * its agent works is refused on its next request, over /v1/proposals and mid-session over /mcp alike.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { createRelay, type RevocationQuery } from "../../src/relay/index.js";
import { proposal } from "../fixtures/property.js";
import { agentSecret, auditOf, call, useRelay } from "./harness.js";

const stopped = new Set<string>();
let checkFails = false;
const asked: RevocationQuery[] = [];

describe("a relay with a revocation check", () => {
  const setup = useRelay({
    relay: {
      revoked: async (token) => {
        asked.push(token);
        if (checkFails) throw new Error("revocation list unreachable");
        return stopped.has(token.runId ?? token.operator ?? "");
      },
    },
  });

  it("refuses a revoked run's token on its next proposal, audited, and sends nothing", async () => {
    const { relay, url, transport, store } = setup.rig;
    const token = await relay.mintTaskToken({ ticketId: "T-1", runId: "run-stop" });
    expect((await call(url, "/v1/describe", { token })).status).toBe(200);
    expect(asked.at(-1)).toMatchObject({ ticketId: "T-1", runId: "run-stop" });
    stopped.add("run-stop");
    const refused = await call(url, "/v1/proposals", { token, json: { output: proposal("T-1") } });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe("token_revoked");
    expect(transport.sent).toHaveLength(0);
    const access = (await auditOf(store)).filter((event) => event.type === "access");
    expect(access.map((event) => event.data.refusal)).toContain("token_revoked");
  });

  it("refuses a revoked token mid-session over MCP", async () => {
    const { relay, url, transport } = setup.rig;
    const token = await relay.mintTaskToken({ ticketId: "T-2", runId: "run-mcp" });
    const client = new Client({ name: "agent", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    try {
      expect((await client.listTools()).tools.length).toBeGreaterThan(1);
      stopped.add("run-mcp");
      await expect(
        client.callTool({ name: "completion_check", arguments: proposal("T-2").slots }),
      ).rejects.toThrow(/token_revoked/);
      expect(transport.sent).toHaveLength(0);
    } finally {
      await client.close();
    }
  });

  it("fails closed when the check cannot answer: 503, nothing sent", async () => {
    const { relay, url, transport } = setup.rig;
    const token = await relay.mintTaskToken({ ticketId: "T-3", runId: "run-3" });
    checkFails = true;
    try {
      const answer = await call(url, "/v1/proposals", { token, json: { output: proposal("T-3") } });
      expect(answer.status).toBe(503);
      expect(answer.body.error.code).toBe("unavailable");
    } finally {
      checkFails = false;
    }
    expect(transport.sent).toHaveLength(0);
    expect((await call(url, "/v1/proposals", { token, json: { output: proposal("T-3") } })).status).toBe(200);
  });

  it("refuses a check that is not a function when the relay is built", () => {
    const { outbox } = setup.rig;
    expect(() => createRelay({ outbox, secret: agentSecret, revoked: "run-1" as never })).toThrow(
      /revoked must be a function/,
    );
  });
});
