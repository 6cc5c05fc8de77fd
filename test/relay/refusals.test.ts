import { base64url, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { mintOperatorToken, mintTaskToken } from "../../src/relay/index.js";
import { proposal } from "../fixtures/property.js";
import {
  type Answer,
  agentSecret,
  auditOf,
  call,
  operatorSecret,
  type RelayRig,
  useRelay,
} from "./harness.js";

const otherSecret = "a-different-relay-secret-0123456789-abcd";
const hour = 3_600_000;

/** A token whose payload was swapped for another ticket's, keeping the original signature. */
async function tampered(): Promise<string> {
  const token = await mintTaskToken({ secret: agentSecret, ticketId: "T-1", runId: "run-1" });
  const [header, payload, signature] = token.split(".");
  const claims = JSON.parse(new TextDecoder().decode(base64url.decode(payload ?? "")));
  const swapped = base64url.encode(JSON.stringify({ ...claims, sub: "T-VICTIM" }));
  return `${header}.${swapped}.${signature}`;
}

/** An unsigned token ("alg": "none") claiming the ticket. */
function unsigned(): string {
  const now = Math.floor(Date.now() / 1000);
  const part = (value: unknown) => base64url.encode(JSON.stringify(value));
  return `${part({ alg: "none", typ: "JWT" })}.${part({ sub: "T-1", run: "run-1", aud: "formletter-agent", iss: "formletter", iat: now, exp: now + 600, jti: "x" })}.`;
}

/** A token signed with the right secret under another algorithm than the pinned HS256. */
function otherAlgorithm(): Promise<string> {
  return new SignJWT({ run: "run-1" })
    .setProtectedHeader({ alg: "HS512" })
    .setSubject("T-1")
    .setAudience("formletter-agent")
    .setIssuer("formletter")
    .setIssuedAt()
    .setExpirationTime("10m")
    .setJti("hs512")
    .sign(new TextEncoder().encode(agentSecret));
}

/** A token issued two days ago that claims to expire tomorrow: longer than any task token may live. */
function overlong(): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ run: "run-1" })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject("T-1")
    .setAudience("formletter-agent")
    .setIssuer("formletter")
    .setIssuedAt(now - 2 * 86_400)
    .setExpirationTime(now + 86_400)
    .setJti("overlong")
    .sign(new TextEncoder().encode(agentSecret));
}

interface Case {
  readonly name: string;
  readonly status: number;
  readonly code: string;
  /** The ticket the audit event names: known only when the token carried a valid signature. */
  readonly auditedTicket?: string;
  send(rig: RelayRig): Promise<Answer>;
}

const propose = (rig: RelayRig, token: string | undefined, init: Parameters<typeof call>[2] = {}) =>
  call(rig.url, "/v1/proposals", {
    ...(init.body === undefined ? { json: { output: proposal("T-1") } } : {}),
    ...(token ? { token } : {}),
    ...init,
  });
const task = (rig: RelayRig) => rig.relay.mintTaskToken({ ticketId: "T-1", runId: "run-1" });

const cases: readonly Case[] = [
  { name: "no token", status: 401, code: "token_missing", send: (rig) => propose(rig, undefined) },
  {
    name: "a Basic credential instead of a bearer token",
    status: 401,
    code: "token_missing",
    send: (rig) => propose(rig, undefined, { headers: { authorization: "Basic dXNlcjpwYXNz" } }),
  },
  {
    name: "a token that is not a JWT",
    status: 401,
    code: "token_invalid",
    send: (rig) => propose(rig, "not.a-jwt"),
  },
  {
    name: "a token forged with another secret",
    status: 401,
    code: "token_invalid",
    send: async (rig) =>
      propose(rig, await mintTaskToken({ secret: otherSecret, ticketId: "T-1", runId: "run-1" })),
  },
  {
    name: "a token whose payload was changed to another ticket",
    status: 401,
    code: "token_invalid",
    send: async (rig) => propose(rig, await tampered()),
  },
  {
    name: "an unsigned token (alg none)",
    status: 401,
    code: "token_invalid",
    send: (rig) => propose(rig, unsigned()),
  },
  {
    name: "a token signed with HS512 instead of HS256",
    status: 401,
    code: "token_invalid",
    send: async (rig) => propose(rig, await otherAlgorithm()),
  },
  {
    name: "a token of another issuer",
    status: 401,
    code: "token_invalid",
    send: async (rig) =>
      propose(
        rig,
        await mintTaskToken({ secret: agentSecret, ticketId: "T-1", runId: "run-1", issuer: "elsewhere" }),
      ),
  },
  {
    name: "an expired token",
    status: 401,
    code: "token_expired",
    auditedTicket: "T-1",
    send: async (rig) =>
      propose(
        rig,
        await mintTaskToken({
          secret: agentSecret,
          ticketId: "T-1",
          runId: "run-1",
          ttl: 60,
          now: Date.now() - hour,
        }),
      ),
  },
  {
    name: "a token issued longer ago than any task token lives",
    status: 401,
    code: "token_expired",
    auditedTicket: "T-1",
    send: async (rig) => propose(rig, await overlong()),
  },
  {
    name: "a body naming another ticket",
    status: 403,
    code: "ticket_mismatch",
    auditedTicket: "T-1",
    send: async (rig) =>
      propose(rig, await task(rig), { json: { output: proposal("T-2"), ticketId: "T-2" } }),
  },
  {
    name: "a body naming another run",
    status: 403,
    code: "ticket_mismatch",
    auditedTicket: "T-1",
    send: async (rig) =>
      propose(rig, await task(rig), { json: { output: proposal("T-1"), runId: "run-fresh" } }),
  },
  {
    name: "an operator token on an agent endpoint",
    status: 403,
    code: "wrong_audience",
    send: async (rig) => propose(rig, await rig.relay.mintOperatorToken({ operator: "ana@example.com" })),
  },
  {
    name: "a task token on an operator endpoint",
    status: 403,
    code: "wrong_audience",
    auditedTicket: "T-1",
    send: async (rig) => call(rig.url, "/v1/queue", { token: await task(rig) }),
  },
  {
    name: "a task token signed with the operator secret",
    status: 401,
    code: "token_invalid",
    send: async (rig) =>
      propose(rig, await mintTaskToken({ secret: operatorSecret, ticketId: "T-1", runId: "run-1" })),
  },
  {
    name: "a body over the size cap, declared",
    status: 413,
    code: "body_too_large",
    auditedTicket: "T-1",
    send: async (rig) => propose(rig, await task(rig), { json: { output: "x".repeat(1_100_000) } }),
  },
  {
    name: "a body over the size cap, streamed without a length",
    status: 413,
    code: "body_too_large",
    auditedTicket: "T-1",
    send: async (rig) => {
      const chunk = new TextEncoder().encode(`{"output":"${"x".repeat(16_000)}`);
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          sent += 1;
          if (sent > 70) controller.close();
          else controller.enqueue(chunk);
        },
      });
      return propose(rig, await task(rig), { body, headers: { "content-type": "application/json" } });
    },
  },
  {
    name: "malformed JSON",
    status: 400,
    code: "body_malformed",
    auditedTicket: "T-1",
    send: async (rig) =>
      propose(rig, await task(rig), {
        body: '{"output": {"template": ',
        headers: { "content-type": "application/json" },
      }),
  },
  {
    name: "bytes that are not UTF-8",
    status: 400,
    code: "body_malformed",
    auditedTicket: "T-1",
    send: async (rig) =>
      propose(rig, await task(rig), {
        body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
        headers: { "content-type": "application/json" },
      }),
  },
  {
    name: "a form instead of JSON",
    status: 415,
    code: "unsupported_media_type",
    auditedTicket: "T-1",
    send: async (rig) =>
      propose(rig, await task(rig), {
        body: "output=hello",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      }),
  },
  {
    name: "JSON sent as text/plain",
    status: 415,
    code: "unsupported_media_type",
    auditedTicket: "T-1",
    send: async (rig) =>
      propose(rig, await task(rig), {
        body: JSON.stringify({ output: {} }),
        headers: { "content-type": "text/plain" },
      }),
  },
  {
    name: "JSON with no content type at all",
    status: 415,
    code: "unsupported_media_type",
    auditedTicket: "T-1",
    send: async (rig) =>
      // Bytes, not a string: fetch adds no content type of its own.
      propose(rig, await task(rig), { body: new Uint8Array(Buffer.from(JSON.stringify({ output: {} }))) }),
  },
  {
    name: "JSON in another charset",
    status: 415,
    code: "unsupported_media_type",
    auditedTicket: "T-1",
    send: async (rig) =>
      propose(rig, await task(rig), {
        body: JSON.stringify({ output: {} }),
        headers: { "content-type": "application/json; charset=iso-8859-1" },
      }),
  },
];

describe("refused requests", () => {
  const setup = useRelay();

  it.each(cases)("$name: $status $code, one access audit event, nothing decided", async (test) => {
    const { rig } = setup;
    const answer = await test.send(rig);
    expect(answer.status).toBe(test.status);
    expect(answer.body).toEqual({ error: { code: test.code, message: expect.any(String) } });
    // Error bodies are fixed texts: no stack, no file, no exception message.
    expect(answer.text).not.toMatch(/\bat \w|\.ts\b|\.js\b|Error:|node_modules/);
    if (test.status === 401) expect(answer.headers.get("www-authenticate")).toMatch(/^Bearer /);
    const events = await auditOf(rig.store, { type: "access" });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: "access", actor: "relay", ticketId: test.auditedTicket });
    expect(events[0]?.data).toMatchObject({ refusal: test.code, status: test.status });
    expect(await auditOf(rig.store, { type: "decision" })).toEqual([]);
    expect(rig.transport.sent).toEqual([]);
  });

  it("answers an unknown endpoint with 404 in JSON", async () => {
    const answer = await call(setup.rig.url, "/v1/secrets", { undocumented: true });
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe("not_found");
  });
});

describe("a remembered token", () => {
  let now = Date.now();
  const setup = useRelay({ relay: { clock: () => now } });

  it("is refused once it expires, though its verification is still remembered", async () => {
    const { rig } = setup;
    const token = await rig.relay.mintTaskToken({ ticketId: "T-1", runId: "run-1", ttl: 60 });
    expect((await call(rig.url, "/v1/describe", { token })).status).toBe(200);
    now += 10_000;
    expect((await call(rig.url, "/v1/describe", { token })).status).toBe(200);
    now += 60_000;
    const late = await call(rig.url, "/v1/describe", { token });
    expect(late.status).toBe(401);
    expect(late.body.error.code).toBe("token_expired");
    const [event] = await auditOf(rig.store, { type: "access" });
    expect(event).toMatchObject({ ticketId: "T-1", runId: "run-1" });
    expect(event?.data).toMatchObject({ refusal: "token_expired", route: "/v1/describe", method: "GET" });
  });
});

describe("the per-token rate limit", () => {
  // A clock the test moves: windows are aligned to the minute, and a real one could end mid-test.
  let now = Math.floor(Date.now() / 60_000) * 60_000 + 1_000;
  const setup = useRelay({ relay: { rateLimit: { max: 3, windowMs: 60_000 }, clock: () => now } });

  it("answers 429 with Retry-After past the limit, audits the first refusal of the burst, and spares other tokens", async () => {
    const { relay, url, store } = setup.rig;
    const token = await relay.mintTaskToken({ ticketId: "T-1", runId: "run-1" });
    for (let i = 0; i < 3; i++) expect((await call(url, "/v1/describe", { token })).status).toBe(200);
    const refused = await call(url, "/v1/proposals", { token, json: { output: proposal("T-1") } });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("rate_limited");
    expect(refused.headers.get("retry-after")).toBe("59");
    for (let i = 0; i < 5; i++) expect((await call(url, "/v1/describe", { token })).status).toBe(429);
    const events = await auditOf(store, { type: "access" });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ ticketId: "T-1", runId: "run-1" });
    expect(events[0]?.data).toMatchObject({ refusal: "rate_limited", status: 429, route: "/v1/proposals" });
    expect(await auditOf(store, { type: "decision" })).toEqual([]);
    const other = await relay.mintTaskToken({ ticketId: "T-2", runId: "run-2" });
    expect((await call(url, "/v1/describe", { token: other })).status).toBe(200);
    const metrics = await (await fetch(`${url}/metrics`)).text();
    expect(metrics).toContain('formletter_relay_refusals_total{refusal="rate_limited"} 6');
    expect(metrics).toContain('formletter_relay_limit_events_total{limit="rate"} 6');
    now += 59_000;
    expect((await call(url, "/v1/describe", { token })).status).toBe(200);
  });
});

describe("a relay without an operator secret", () => {
  const setup = useRelay({ operator: false });

  it("serves no operator endpoints and mints no operator tokens", async () => {
    const { relay, url } = setup.rig;
    const token = await mintOperatorToken({ secret: operatorSecret, operator: "ana@example.com" });
    expect((await call(url, "/v1/queue", { token, undocumented: true })).status).toBe(404);
    expect((await call(url, "/v1/report", { token, undocumented: true })).status).toBe(404);
    await expect(relay.mintOperatorToken({ operator: "ana@example.com" })).rejects.toMatchObject({
      code: "relay_invalid",
    });
  });
});
