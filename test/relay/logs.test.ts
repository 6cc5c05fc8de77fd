/**
 * The relay's JSON log lines, from a real pino logger: one a request with its route pattern, status,
 * duration, token subject and refusal, and never a body, token, query string, record value or message.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CliIo } from "../../src/cli/output.js";
import { serveRelay } from "../../src/cli/serve.js";
import { mintTaskToken } from "../../src/relay/index.js";
import { contractorEmail, propertyTicket, proposal } from "../fixtures/property.js";
import { agentSecret, call, operatorSecret, signedElsewhere, useRelay } from "./harness.js";

const canaries = {
  name: "Canary-Name-k4Rt",
  unit: "Canary-Unit-b8Qs",
  email: "canary-mail-z2Wx@canary-host.example",
  tag: "Canary-Tag-m5Pd",
  note: "Canary-Note-v7Hj",
  query: "Canary-Query-c3Nf",
  path: "Canary-Path-g6Ly",
  body: "Canary-Body-t9Ue",
  resolution: "Canary-Resolution-a1Zo",
} as const;

/** The fixture ticket, its values replaced by canaries (ids kept, so the fixture's proposals fit). */
function canaryTicket(ticketId: string) {
  const ticket = propertyTicket(ticketId);
  for (const contractor of ticket.contractors) {
    contractor.name = canaries.name;
    contractor.email = canaries.email;
  }
  for (const order of ticket.work_orders) order.unit = canaries.unit;
  return ticket;
}

const lines: string[] = [];
const logger = pino({ name: "formletter-relay" }, { write: (line: string) => lines.push(line) });

/** Every line written, parsed: a line that is not JSON fails here. */
const parsed = () => lines.flatMap((chunk) => chunk.trimEnd().split("\n")).map((line) => JSON.parse(line));

describe("the relay's request log", () => {
  const setup = useRelay({ relay: { logger }, outbox: { load: canaryTicket } });
  beforeEach(() => {
    lines.length = 0;
  });

  it("writes one JSON line a request: method, route pattern, status, duration, token subject, refusal; no content", async () => {
    const { relay, url, transport } = setup.rig;
    const token = await relay.mintTaskToken({ ticketId: "T-1", runId: "run-1" });
    const operator = await relay.mintOperatorToken({ operator: "ana@example.com" });
    const forged = `${token.slice(0, -6)}AAAAAA`;
    const tags = { category: canaries.tag };
    const sent = await call(url, "/v1/proposals", { token, json: { output: proposal("T-1"), tags } });
    expect(sent.body).toEqual({ outcome: "send" });
    const escalation = { escalate: "needs_human", note: canaries.note };
    await call(url, "/v1/proposals", { token, json: { output: escalation } });
    await call(url, `/v1/tools?provider=openai&template=${canaries.query}`, { token });
    await call(url, "/v1/describe", { token });
    await call(url, "/v1/describe", { token: forged });
    await call(url, "/v1/proposals", {
      token,
      body: `{"output": "${canaries.body}"`,
      headers: { "content-type": "application/json" },
    });
    await call(url, `/v1/${canaries.path}?secret=${canaries.query}`, { undocumented: true });
    const queue = await call(url, `/v1/queue?ticketId=${canaries.query}&status=all`, { token: operator });
    expect(queue.status).toBe(200);
    const [item] = (await call(url, "/v1/queue", { token: operator })).body.items;
    await call(url, `/v1/queue/${item.id}/claim`, { token: operator, json: { note: canaries.note } });
    await call(url, `/v1/queue/${item.id}/resolve`, {
      token: operator,
      json: { resolution: canaries.resolution },
    });

    const logged = parsed();
    // The harness reads /openapi.json to check the replies: those lines are left out here.
    const requests = logged.filter((line) => line.msg === "request" && line.route !== "/openapi.json");
    expect(requests).toHaveLength(11);
    for (const line of requests) {
      expect(line).toMatchObject({
        name: "formletter-relay",
        method: expect.stringMatching(/^(GET|POST)$/),
        route: expect.stringMatching(/^(\/[a-z0-9.:/]*|unmatched)$/),
        status: expect.any(Number),
        durationMs: expect.any(Number),
      });
    }
    expect(requests[0]).toMatchObject({
      method: "POST",
      route: "/v1/proposals",
      status: 200,
      ticketId: "T-1",
      runId: "run-1",
      tokenId: expect.any(String),
    });
    expect(requests[0]).not.toHaveProperty("refusal");
    expect(requests[4]).toMatchObject({ route: "/v1/describe", status: 401, refusal: "token_invalid" });
    expect(requests[4]).not.toHaveProperty("ticketId");
    expect(requests[5]).toMatchObject({ status: 400, refusal: "body_malformed", ticketId: "T-1" });
    expect(requests[6]).toMatchObject({ method: "GET", route: "unmatched", status: 404 });
    expect(requests[9]).toMatchObject({
      route: "/v1/queue/:id/claim",
      status: 200,
      operator: "ana@example.com",
    });

    const text = lines.join("");
    const message = transport.sent[0]?.message;
    const forbidden = [
      ...Object.values(canaries),
      token,
      operator,
      forged,
      contractorEmail("T-1"),
      message?.to ?? "",
      message?.subject ?? "",
      message?.text ?? "",
      "?",
    ];
    for (const value of forbidden) expect(text.toLowerCase()).not.toContain(value.toLowerCase());
  });

  it("logs when the relay listens and stops", async () => {
    const { relay, url } = setup.rig;
    await relay.close();
    expect(parsed()).toContainEqual(expect.objectContaining({ msg: "relay stopped", url, level: 30 }));
  });
});

describe("the request log of refusals left out of the audit log", () => {
  const setup = useRelay({
    relay: { logger, tokenRefusalAudit: { full: 1, every: 1000 }, rateLimit: { max: 1, windowMs: 60_000 } },
  });
  beforeEach(() => {
    lines.length = 0;
  });

  it("still names the refusal and the token's subject", async () => {
    const { relay, url } = setup.rig;
    const token = await relay.mintTaskToken({ ticketId: "T-1", runId: "run-1" });
    const forged = `${token.slice(0, -6)}AAAAAA`;
    for (let i = 0; i < 3; i++) expect((await call(url, "/v1/describe", { token: forged })).status).toBe(401);
    for (let i = 0; i < 3; i++) await call(url, "/v1/describe", { token });
    const requests = parsed().filter((line) => line.msg === "request" && line.route === "/v1/describe");
    expect(requests.map((line) => line.refusal)).toEqual([
      "token_invalid",
      "token_invalid",
      "token_invalid",
      undefined,
      "rate_limited",
      "rate_limited",
    ]);
    expect(requests.slice(3).every((line) => line.ticketId === "T-1")).toBe(true);
  });
});

describe("formletter serve's log", () => {
  const fixture = fileURLToPath(new URL("./fixtures/relay-module.ts", import.meta.url));
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "formletter-serve-log-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("is JSON lines on standard output: start, each request, stop; without tokens or content", async () => {
    let stdout = "";
    let stderr = "";
    const io: CliIo = { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) };
    const stop = new AbortController();
    const env = { FORMLETTER_SECRET: agentSecret, FORMLETTER_OPERATOR_SECRET: operatorSecret };
    const serving = serveRelay(
      {
        catalog: fixture,
        db: join(dir, "relay.db"),
        port: 0,
        host: "127.0.0.1",
        shadow: true,
        flushEvery: 30,
      },
      io,
      env,
      stop.signal,
    );
    for (let waited = 0; !stdout.includes('"msg":"serving"') && waited < 10_000; waited += 10)
      await new Promise((resolve) => setTimeout(resolve, 10));
    const lines = () =>
      stdout
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line));
    const url = lines().find((line) => line.msg === "serving")?.url;
    const token = await mintTaskToken({ secret: agentSecret, ticketId: "T-1", runId: "run-1" });
    // A subject a terminal would act on: CSI (C1), ESC, a bidi override, a line separator. The minters
    // refuse it, so it is signed here as another holder of the operator secret could sign it.
    const hostileName = "ana-Hostile-q8\u009b31m\u001b[2J\u202e\u2028@example.com";
    const operator = await signedElsewhere(hostileName);
    const tags = { category: canaries.tag };
    await call(url, "/v1/proposals", { token, json: { output: proposal("T-1"), tags } });
    await call(url, `/v1/queue?ticketId=${canaries.query}`, { token: operator });
    stop.abort();
    await serving;

    const logged = lines();
    expect(logged.map((line) => line.msg)).toEqual([
      "relay listening",
      "serving",
      "request",
      "request",
      "request",
      "stopping",
      "relay stopped",
    ]);
    expect(logged[1]).toMatchObject({ url, transports: "none (shadow mode)", operatorEndpoints: true });
    const routes = logged.filter((line) => line.msg === "request").map((line) => line.route);
    expect(routes.sort()).toEqual(["/openapi.json", "/v1/proposals", "/v1/queue"]);
    for (const value of [token, operator, canaries.tag, canaries.query, contractorEmail("T-1"), "?"])
      expect(stdout).not.toContain(value);
    // Written out as JSON escapes: nothing raw reaches the terminal, and the line reads back the same.
    expect(stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2028\u2029]/);
    // Refused as an actor name, and the name is not logged at all.
    const queueLine = logged.find((line) => line.route === "/v1/queue");
    expect(queueLine).toMatchObject({ status: 400, refusal: "actor_invalid" });
    expect(queueLine).not.toHaveProperty("operator");
    expect(stdout).not.toContain("Hostile-q8");
    expect(stderr).toBe("");
  });
});
