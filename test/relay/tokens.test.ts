import { createHmac } from "node:crypto";
import { base64url, decodeJwt, decodeProtectedHeader, jwtVerify, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { createOutbox, isFormletterError, memoryStore, memoryTransport } from "../../src/index.js";
import {
  agentAudience,
  createRelay,
  mintOperatorToken,
  mintTaskToken,
  operatorAudience,
  RelayError,
} from "../../src/relay/index.js";
import { loadTicket, propertyCatalog } from "../fixtures/property.js";
import { agentSecret, call, operatorSecret, useRelay } from "./harness.js";

function parts() {
  const store = memoryStore();
  const outbox = createOutbox({
    catalog: propertyCatalog,
    load: loadTicket,
    store,
    transports: { email: memoryTransport() },
  });
  return { outbox };
}

describe("task and operator tokens", () => {
  it("are HS256 JWTs scoped by audience, with issuer, subject, run, expiry and a unique id", async () => {
    const relay = createRelay({ ...parts(), secret: agentSecret, operatorSecret });
    const now = Date.now();
    const task = await relay.mintTaskToken({ ticketId: "T-1", runId: "run-1", ttl: 600 });
    expect(decodeProtectedHeader(task)).toEqual({ alg: "HS256", typ: "JWT" });
    const claims = decodeJwt(task);
    expect(claims).toMatchObject({ aud: agentAudience, iss: "formletter", sub: "T-1", run: "run-1" });
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(600);
    expect(Math.abs((claims.iat ?? 0) * 1000 - now)).toBeLessThan(2_000);
    const other = decodeJwt(await relay.mintTaskToken({ ticketId: "T-1", runId: "run-1" }));
    expect(other.jti).not.toBe(claims.jti);
    expect((other.exp ?? 0) - (other.iat ?? 0)).toBe(900);
    const operator = decodeJwt(await relay.mintOperatorToken({ operator: "ana@example.com" }));
    expect(operator).toMatchObject({ aud: operatorAudience, sub: "ana@example.com" });
    expect(operator.run).toBeUndefined();
    expect((operator.exp ?? 0) - (operator.iat ?? 0)).toBe(28_800);
  });

  it.each([0, -5, 1.5, 86_401, Number.NaN])("refuses a task token ttl of %s", async (ttl) => {
    const relay = createRelay({ ...parts(), secret: agentSecret });
    await expect(relay.mintTaskToken({ ticketId: "T-1", runId: "r", ttl })).rejects.toMatchObject({
      code: "relay_invalid",
    });
  });

  it.each([
    ["an empty ticket", { ticketId: "", runId: "r" }],
    ["an over-long ticket", { ticketId: "T".repeat(201), runId: "r" }],
    ["no run", { ticketId: "T-1", runId: "" }],
  ])("refuses %s", async (_name, input) => {
    await expect(mintTaskToken({ secret: agentSecret, ...input })).rejects.toBeInstanceOf(RelayError);
  });

  it("refuses an operator token living longer than a week", async () => {
    await expect(
      mintOperatorToken({ secret: operatorSecret, operator: "ana", ttl: 7 * 86_400 + 1 }),
    ).rejects.toMatchObject({ code: "relay_invalid" });
  });
});

describe("createRelay", () => {
  it.each([
    ["a short secret", { secret: "too-short" }, "at least 32 bytes"],
    ["a short operator secret", { secret: agentSecret, operatorSecret: "short" }, "operatorSecret"],
    ["one secret for both audiences", { secret: agentSecret, operatorSecret: agentSecret }, "must differ"],
    ["a body cap of zero", { secret: agentSecret, maxBodyBytes: 0 }, "maxBodyBytes"],
    ["a fractional rate limit", { secret: agentSecret, rateLimit: { max: 1.5 } }, "rateLimit.max"],
  ])("refuses %s at start-up with relay_invalid", (_name, options, message) => {
    let thrown: unknown;
    try {
      createRelay({ ...parts(), ...options });
    } catch (error) {
      thrown = error;
    }
    expect(isFormletterError(thrown)).toBe(true);
    expect(thrown).toMatchObject({ code: "relay_invalid" });
    expect((thrown as Error).message).toContain(message);
  });

  it("takes the outbox whole, and refuses what is not one", () => {
    const { outbox } = parts();
    const without = (name: string) =>
      Object.fromEntries(Object.entries(outbox).filter(([key]) => key !== name));
    for (const broken of [
      {},
      without("handle"),
      without("records"),
      without("catalog"),
      { ...outbox, audit: {} },
    ]) {
      expect(() => createRelay({ outbox: broken as never, secret: agentSecret })).toThrow(
        /createRelay: outbox/,
      );
    }
  });

  it("accepts a secret given as bytes", async () => {
    const relay = createRelay({ ...parts(), secret: new TextEncoder().encode(agentSecret) });
    const { url } = await relay.listen({ port: 0 });
    try {
      const token = await mintTaskToken({ secret: agentSecret, ticketId: "T-1", runId: "r" });
      expect((await call(url, "/v1/describe", { token })).status).toBe(200);
    } finally {
      await relay.close();
    }
  });

  it("listens on loopback by default and refuses to listen twice", async () => {
    const relay = createRelay({ ...parts(), secret: agentSecret });
    const address = await relay.listen({ port: 0 });
    try {
      expect(address.host).toBe("127.0.0.1");
      expect(address.url).toBe(`http://127.0.0.1:${address.port}`);
      await expect(relay.listen({ port: 0 })).rejects.toMatchObject({ code: "relay_invalid" });
    } finally {
      await relay.close();
    }
  });
});

describe("a relay with its own issuer", () => {
  const setup = useRelay({ relay: { issuer: "acme-support" } });

  it("accepts tokens minted elsewhere with that issuer and the same secret, and no others", async () => {
    const { url } = setup.rig;
    const ours = await mintTaskToken({
      secret: agentSecret,
      issuer: "acme-support",
      ticketId: "T-1",
      runId: "r",
    });
    expect((await call(url, "/v1/describe", { token: ours })).status).toBe(200);
    const theirs = await mintTaskToken({ secret: agentSecret, ticketId: "T-1", runId: "r" });
    expect((await call(url, "/v1/describe", { token: theirs })).status).toBe(401);
  });
});

describe("token verification, against jose's jwtVerify", () => {
  const setup = useRelay();
  const key = new TextEncoder().encode(agentSecret);
  const now = () => Math.floor(Date.now() / 1000);
  const claims = () => ({
    sub: "T-1",
    run: "run-1",
    aud: agentAudience,
    iss: "formletter",
    jti: "j-1",
    iat: now(),
    exp: now() + 600,
  });
  const sign = (
    payload: Record<string, unknown>,
    header: Record<string, unknown> = { alg: "HS256", typ: "JWT" },
    secret = key,
  ) => new SignJWT(payload).setProtectedHeader(header as { alg: string }).sign(secret);

  // jose will not sign a header it cannot honour, so this one is signed by hand.
  const handSigned = (header: object, payload: object) => {
    const input = `${base64url.encode(JSON.stringify(header))}.${base64url.encode(JSON.stringify(payload))}`;
    return `${input}.${createHmac("sha256", key).update(input).digest("base64url")}`;
  };

  const cases: readonly [string, () => Promise<string>][] = [
    ["a valid token", () => sign(claims())],
    ["a valid token without typ", () => sign(claims(), { alg: "HS256" })],
    ["another key", () => sign(claims(), undefined, new TextEncoder().encode(`${agentSecret}x`))],
    ["HS384", () => sign(claims(), { alg: "HS384" })],
    [
      "an unknown critical header",
      async () => handSigned({ alg: "HS256", crit: ["exp2"], exp2: 1 }, claims()),
    ],
    ["expired", () => sign({ ...claims(), exp: now() - 60 })],
    ["no expiry", () => sign({ ...claims(), exp: undefined })],
    ["issued in the future", () => sign({ ...claims(), iat: now() + 600, exp: now() + 1200 })],
    ["not yet valid", () => sign({ ...claims(), nbf: now() + 600 })],
    ["issued two days ago", () => sign({ ...claims(), iat: now() - 2 * 86_400 })],
    ["another issuer", () => sign({ ...claims(), iss: "elsewhere" })],
    ["another audience", () => sign({ ...claims(), aud: "someone-else" })],
    ["no jti", () => sign({ ...claims(), jti: undefined })],
    ["no subject", () => sign({ ...claims(), sub: undefined })],
    [
      "a payload swapped after signing",
      async () => {
        const [header, , signature] = (await sign(claims())).split(".");
        return `${header}.${base64url.encode(JSON.stringify({ ...claims(), sub: "T-2" }))}.${signature}`;
      },
    ],
  ];

  it.each(cases)("agrees on %s", async (_name, make) => {
    const token = await make();
    const joseAccepts = await jwtVerify(token, key, {
      algorithms: ["HS256"],
      audience: agentAudience,
      issuer: "formletter",
      requiredClaims: ["exp", "iat", "jti", "sub"],
      maxTokenAge: 86_400,
      clockTolerance: 5,
    }).then(
      () => true,
      () => false,
    );
    const answer = await call(setup.rig.url, "/v1/describe", { token });
    expect(answer.status === 200).toBe(joseAccepts);
  });

  it("refuses what jose would accept but formletter never mints: no run, or a typ other than JWT", async () => {
    const { url } = setup.rig;
    const noRun = await sign({ ...claims(), run: undefined });
    const otherType = await sign(claims(), { alg: "HS256", typ: "at+jwt" });
    for (const token of [noRun, otherType])
      expect((await call(url, "/v1/describe", { token })).status).toBe(401);
  });
});
