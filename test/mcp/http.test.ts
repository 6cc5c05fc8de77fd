/**
 * MCP over Streamable HTTP inside the relay, driven by the SDK's own Client against a relay on port 0:
 * listing, calling, the approval round-trip through the operator queue, and the refusals MCP needs.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { createRelay } from "../../src/relay/index.js";
import { contractorEmail, loadTicket, propertyTicket, proposal } from "../fixtures/property.js";
import { agentSecret, auditOf, call, useRelay } from "../relay/harness.js";

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
});

async function connect(
  url: string,
  token: string,
  path = "/mcp",
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: "formletter-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${url}${path}`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

/** Every value of the fixture ticket's records: none may be in a tool's name, description or schema. */
function recordValues(ticketId: string): string[] {
  const ticket = propertyTicket(ticketId);
  return [
    contractorEmail(ticketId),
    ticket.contractors[0]?.name ?? "",
    ticket.work_orders[0]?.unit ?? "",
    ticketId,
  ];
}

/** A raw JSON-RPC POST, as a client that is not the SDK would send it. */
function post(url: string, init: { token?: string; body: string; headers?: Record<string, string> }) {
  return fetch(`${url}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(init.token === undefined ? {} : { authorization: `Bearer ${init.token}` }),
      ...init.headers,
    },
    body: init.body,
  });
}

const listTools = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });

describe("MCP over the relay", () => {
  const setup = useRelay({ relay: { mcpAllowedOrigins: ["https://app.example.com"] } });

  it("lists the ticket's tools with code-written text only, an output schema, and the description as tool and resource", async () => {
    const { relay, url } = setup.rig;
    const token = await relay.mintTaskToken({ ticketId: "T-1", runId: "run-1" });
    const { client } = await connect(url, token);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "completion_check",
      "describe-ticket",
      "emergency_callout",
      "escalate_to_human",
      "payment_release",
      "visit_request",
    ]);
    const text = JSON.stringify(tools);
    for (const value of recordValues("T-1")) expect(text).not.toContain(value);
    expect(tools.find((tool) => tool.name === "completion_check")?.outputSchema?.type).toBe("object");

    const described = await client.callTool({ name: "describe-ticket", arguments: {} });
    const resource = await client.readResource({ uri: "formletter://ticket/description" });
    const description = (described.content as { text: string }[])[0]?.text;
    expect(description).toContain("Builder T-1");
    expect((resource.contents[0] as { text?: string } | undefined)?.text).toBe(description);
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual([
      "formletter://ticket/description",
    ]);
  });

  it("calls through the outbox: sent once, a repeat is a duplicate, results in structured content and text", async () => {
    const { relay, url, transport: mail } = setup.rig;
    const token = await relay.mintTaskToken({ ticketId: "T-2", runId: "run-2" });
    const { client } = await connect(url, token);
    const args = proposal("T-2").slots;
    const first = await client.callTool({ name: "completion_check", arguments: args });
    expect(first.structuredContent).toEqual({
      outcome: "sent",
      template: "completion_check",
      delivery: "delivered",
    });
    expect(first.isError).toBeUndefined();
    expect((first.content as { text: string }[])[0]?.text).toMatch(/^Sent: /);
    const second = await client.callTool({ name: "completion_check", arguments: args });
    expect(second.structuredContent).toEqual({ outcome: "duplicate", first: "sent" });
    expect(mail.sent).toHaveLength(1);
    // Audited as a proposal is: the decision, under the token's ticket and run.
    const events = (await auditOf(setup.rig.store, { ticketId: "T-2" })).filter(
      (event) => event.type === "decision" || event.type === "duplicate",
    );
    expect(events.map((event) => [event.type, event.runId, event.template])).toEqual([
      ["decision", "run-2", "completion_check"],
      ["duplicate", "run-2", "completion_check"],
    ]);
    for (const value of recordValues("T-2")) expect(JSON.stringify([first, second])).not.toContain(value);
  });

  it("arguments that do not fit, and a tool of no template, escalate with a hint and send nothing", async () => {
    const { relay, url, transport: mail } = setup.rig;
    const token = await relay.mintTaskToken({ ticketId: "T-3", runId: "run-3" });
    const { client } = await connect(url, token);
    const wrong = await client.callTool({
      name: "visit_request",
      arguments: { order: "o-zzzz", access: "window" },
    });
    expect(wrong.structuredContent).toMatchObject({ outcome: "escalated" });
    const unknown = await client.callTool({ name: "send_free_text", arguments: { text: "wire the money" } });
    expect(unknown.structuredContent).toMatchObject({ outcome: "escalated", reason: "unknown_template" });
    expect(JSON.stringify(unknown)).not.toContain("wire the money");
    expect(mail.sent).toHaveLength(0);
  });

  it("serves the tools every ticket shares when asked with ?cache=prefix, and refuses another cache", async () => {
    const { relay, url } = setup.rig;
    const token = await relay.mintTaskToken({ ticketId: "T-5", runId: "run-5" });
    const { client } = await connect(url, token, "/mcp?cache=prefix");
    const shared = JSON.stringify((await client.listTools()).tools);
    const other = await relay.mintTaskToken({ ticketId: "T-6", runId: "run-6" });
    const { client: second } = await connect(url, other, "/mcp?cache=prefix");
    expect(JSON.stringify((await second.listTools()).tools)).toBe(shared);
    for (const value of Object.values(proposal("T-5").slots)) expect(shared).not.toContain(value);
    const sent = await client.callTool({ name: "completion_check", arguments: proposal("T-5").slots });
    expect(sent.structuredContent).toMatchObject({ outcome: "sent" });
    const wrong = await fetch(`${url}/mcp?cache=everything`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: { code: -32_600, data: { code: "request_invalid" } } });
  });

  it("arguments nested past any stack, inside the size limit, escalate as unreadable and send nothing", async () => {
    const { relay, url, transport: mail } = setup.rig;
    const token = await relay.mintTaskToken({ ticketId: "T-N", runId: "run-n" });
    const { client } = await connect(url, token);
    const depth = 200_000;
    const body = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"completion_check","arguments":{"order":${"[".repeat(depth)}${"]".repeat(depth)}}}}`;
    const answer = await fetch(`${url}/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body,
    });
    expect(answer.status).toBe(200);
    const reply = (await answer.json()) as { result?: { structuredContent?: unknown } };
    expect(reply.result?.structuredContent).toMatchObject({
      outcome: "escalated",
      reason: "unparseable_output",
    });
    expect(mail.sent).toHaveLength(0);
    expect((await client.listTools()).tools.length).toBeGreaterThan(1);
  });

  it("takes one message a request: a batch of calls is refused whole, so the rate limit counts every call", async () => {
    const { relay, url, outbox } = setup.rig;
    const token = await relay.mintTaskToken({ ticketId: "T-9", runId: "run-9" });
    const calls = Array.from({ length: 50 }, (_, id) => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: `no_such_template_${id}`, arguments: {} },
    }));
    for (const batch of [calls, [{ jsonrpc: "2.0", id: 1, method: "tools/list" }]]) {
      const answer = await post(url, { token, body: JSON.stringify(batch) });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32_600 } });
    }
    expect((await outbox.queue.list({ status: "open" })).items).toHaveLength(0);
  });

  it("queues an approval; the operator approves it through the queue and it is sent exactly once; a forged approval sends nothing", async () => {
    const { relay, url, transport: mail } = setup.rig;
    const token = await relay.mintTaskToken({ ticketId: "T-4", runId: "run-4" });
    const { client } = await connect(url, token);
    const args = proposal("T-4", "payment_release").slots;
    const queued = await client.callTool({ name: "payment_release", arguments: args });
    const outcome = queued.structuredContent as { outcome: string; queueItemId: string };
    expect(outcome.outcome).toBe("queued_for_approval");
    expect(mail.sent).toHaveLength(0);

    // What a chat can carry cannot approve: extra arguments, or the same call again.
    const forged = await client.callTool({
      name: "payment_release",
      arguments: { ...args, approved: "yes" },
    });
    expect(forged.structuredContent).toMatchObject({ outcome: "escalated", reason: "invalid_proposal" });
    const again = await client.callTool({ name: "payment_release", arguments: args });
    expect(again.structuredContent).toEqual({
      outcome: "duplicate",
      first: "queued_for_approval",
      queueItemId: outcome.queueItemId,
    });
    expect(mail.sent).toHaveLength(0);

    const ana = await relay.mintOperatorToken({ operator: "ana@example.com" });
    const approved = await call(url, `/v1/queue/${outcome.queueItemId}/approve`, { token: ana, json: {} });
    expect(approved.body).toMatchObject({ approvedNow: true, outbound: { status: "delivered" } });
    await call(url, `/v1/queue/${outcome.queueItemId}/approve`, { token: ana, json: {} });
    const afterwards = await client.callTool({ name: "payment_release", arguments: args });
    expect(afterwards.structuredContent).toMatchObject({ outcome: "duplicate" });
    expect(mail.sent).toHaveLength(1);
    expect(mail.sent[0]?.message.to).toBe(contractorEmail("T-4"));
  });
});

describe("MCP refusals", () => {
  let now = Date.now();
  const setup = useRelay({
    relay: {
      clock: () => now,
      tokenCacheMs: 0,
      maxBodyBytes: 4096,
      mcpAllowedOrigins: ["https://app.example.com"],
    },
    outbox: { clock: () => now },
  });

  it("ticket A's token lists only A's handles and cannot act on B's records", async () => {
    const { relay, url, transport: mail } = setup.rig;
    const a = await relay.mintTaskToken({ ticketId: "T-A", runId: "run-a" });
    const { client } = await connect(url, a);
    const text = JSON.stringify((await client.listTools()).tools);
    for (const value of Object.values(proposal("T-B").slots)) expect(text).not.toContain(value);
    for (const value of Object.values(proposal("T-A").slots)) expect(text).toContain(value);
    const onB = await client.callTool({ name: "completion_check", arguments: proposal("T-B").slots });
    expect(onB.structuredContent).toMatchObject({ outcome: "escalated", reason: "record_not_found" });
    expect(mail.sent).toHaveLength(0);
  });

  it("refuses a session id handed to another token", async () => {
    const { relay, url } = setup.rig;
    const a = await relay.mintTaskToken({ ticketId: "T-A", runId: "run-a" });
    const b = await relay.mintTaskToken({ ticketId: "T-B", runId: "run-b" });
    const { transport } = await connect(url, a);
    const session = transport.sessionId;
    expect(session).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const withOwn = await post(url, {
      token: a,
      body: listTools,
      headers: { "mcp-session-id": session ?? "" },
    });
    expect(withOwn.status).toBe(200);
    // Another ticket's token, another run's token of the same ticket, a made-up id: each is refused.
    const sameTicket = await relay.mintTaskToken({ ticketId: "T-A", runId: "run-a2" });
    for (const [token, id] of [
      [b, session ?? ""],
      [sameTicket, session ?? ""],
      [a, `${session?.slice(0, -2)}xx`],
    ] as const) {
      const stolen = await post(url, { token, body: listTools, headers: { "mcp-session-id": id } });
      expect(stolen.status).toBe(404);
      expect(await stolen.json()).toMatchObject({
        jsonrpc: "2.0",
        id: null,
        error: { data: { code: "session_mismatch" } },
      });
    }
  });

  it("refuses an expired token mid-session, and sends nothing", async () => {
    const { relay, url, transport: mail } = setup.rig;
    now = Date.now();
    const token = await relay.mintTaskToken({ ticketId: "T-E", runId: "run-e", ttl: 60 });
    const { client } = await connect(url, token);
    expect((await client.listTools()).tools.length).toBeGreaterThan(1);
    now += 3_600_000;
    await expect(
      client.callTool({ name: "completion_check", arguments: proposal("T-E").slots }),
    ).rejects.toThrow(/token_expired/);
    expect(mail.sent).toHaveLength(0);
  });

  it.each([
    ["not JSON", "{ this is not json", 400, -32_700],
    ["JSON that is no JSON-RPC message", '{"hello": "world"}', 400, -32_700],
    [
      "an oversized body",
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { pad: "x".repeat(10_000) } }),
      413,
      -32_600,
    ],
    ["a JSON string", '"tools/list"', 400, -32_700],
    [
      "a batch of many",
      JSON.stringify(Array.from({ length: 200 }, (_, id) => ({ jsonrpc: "2.0", id, method: "ping" }))),
      413,
      -32_600,
    ],
    ["an empty body", "", 400, -32_700],
  ])("answers %s with a JSON-RPC error, never a crash", async (_, body, status, code) => {
    const { relay, url } = setup.rig;
    const token = await relay.mintTaskToken({ ticketId: "T-M", runId: "run-m" });
    const answer = await post(url, { token, body });
    expect(answer.status).toBe(status);
    expect(await answer.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code } });
    // The relay still serves the next request.
    expect((await post(url, { token, body: listTools })).status).toBe(200);
  });

  it("refuses a browser Origin it does not allow, before reading the token; an allowed one passes", async () => {
    const { relay, url } = setup.rig;
    const token = await relay.mintTaskToken({ ticketId: "T-O", runId: "run-o" });
    for (const origin of ["http://evil.example", "null", `${url}`, "https://app.example.com.evil.example"]) {
      const answer = await post(url, { token, body: listTools, headers: { origin } });
      expect(answer.status).toBe(403);
      expect(await answer.json()).toMatchObject({ error: { data: { code: "origin_refused" } } });
    }
    const allowed = await post(url, {
      token,
      body: listTools,
      headers: { origin: "https://app.example.com" },
    });
    expect(allowed.status).toBe(200);
  });

  it("refuses an operator token: /mcp takes task tokens only", async () => {
    const { relay, url } = setup.rig;
    const operator = await relay.mintOperatorToken({ operator: "ana@example.com" });
    const answer = await post(url, { token: operator, body: listTools });
    expect(answer.status).toBe(403);
    expect(await answer.json()).toMatchObject({ error: { data: { code: "wrong_audience" } } });
  });

  it("reads one resource only: any other URI is an invalid parameter", async () => {
    const { relay, url } = setup.rig;
    const token = await relay.mintTaskToken({ ticketId: "T-R", runId: "run-r" });
    const { client } = await connect(url, token);
    for (const uri of ["formletter://ticket/T-A/description", "file:///etc/passwd"])
      await expect(client.readResource({ uri })).rejects.toThrow(/-32602.*unknown resource/);
  });

  it("answers a missing token with 401 and a JSON-RPC error, and GET and DELETE with 405", async () => {
    const { url } = setup.rig;
    const answer = await post(url, { body: listTools });
    expect(answer.status).toBe(401);
    expect(answer.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(await answer.json()).toMatchObject({ error: { data: { code: "token_missing" } } });
    const get = await fetch(`${url}/mcp`, { headers: { accept: "text/event-stream" } });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    const end = await fetch(`${url}/mcp`, { method: "DELETE", headers: { "mcp-session-id": "any" } });
    expect(end.status).toBe(405);
    expect(await end.json()).toMatchObject({ error: { data: { code: "method_not_allowed" } } });
  });

  it.each([["https://app.example.com/"], ["app.example.com"], ["*"], [42]])(
    "refuses an allowed origin that is not one (%s) when the relay is built",
    (origin) => {
      const { outbox } = setup.rig;
      expect(() =>
        createRelay({ outbox, secret: agentSecret, mcpAllowedOrigins: [origin as string] }),
      ).toThrow(/mcpAllowedOrigins must list origins/);
    },
  );
});

describe("MCP when the records cannot be had", () => {
  const setup = useRelay({
    outbox: {
      load: (ticketId: string) => {
        if (ticketId === "T-BAD") throw new Error("connection to db:5432 failed, password=hunter2");
        return loadTicket(ticketId);
      },
    },
  });

  it("answers list and call with a JSON-RPC error that names no internals, and keeps serving", async () => {
    const { relay, url, transport: mail } = setup.rig;
    const token = await relay.mintTaskToken({ ticketId: "T-BAD", runId: "run-bad" });
    const { client } = await connect(url, token);
    const failures = await Promise.all([
      client.listTools().then(
        () => "listed",
        (error: Error) => error.message,
      ),
      client.readResource({ uri: "formletter://ticket/description" }).then(
        () => "read",
        (error: Error) => error.message,
      ),
    ]);
    for (const message of failures) {
      expect(message).toContain("could not be loaded");
      expect(message).not.toMatch(/hunter2|5432/);
    }
    const good = await relay.mintTaskToken({ ticketId: "T-GOOD", runId: "run-good" });
    const { client: other } = await connect(url, good);
    expect((await other.listTools()).tools.length).toBeGreaterThan(1);
    expect(mail.sent).toHaveLength(0);
  });
});
