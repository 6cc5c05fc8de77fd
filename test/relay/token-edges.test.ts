import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { mintTaskToken } from "../../src/relay/index.js";
import { agentSecret, auditOf, call, operatorSecret, useRelay } from "./harness.js";

const base64urlAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** The other spellings of a signature's last character: the same six bits but the two a decoder drops. */
function sameBytesSpellings(token: string): string[] {
  const last = token.at(-1) as string;
  const value = base64urlAlphabet.indexOf(last);
  return [0, 1, 2, 3]
    .map((low) => base64urlAlphabet[(value & ~3) | low] as string)
    .filter((char) => char !== last)
    .map((char) => `${token.slice(0, -1)}${char}`);
}

/** A token signed with the relay's own key, iat now, living `ttl` seconds. */
function signedFor(ttl: number, audience = "formletter-agent", secret = agentSecret): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT(audience === "formletter-agent" ? { run: "run-1" } : {})
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject("T-1")
    .setAudience(audience)
    .setIssuer("formletter")
    .setIssuedAt(now)
    .setExpirationTime(now + ttl)
    .setJti(`ttl-${ttl}`)
    .sign(new TextEncoder().encode(secret));
}

describe("a token's signature must be spelled canonically", () => {
  const setup = useRelay();

  it("the canonical token verifies", async () => {
    const token = await mintTaskToken({ secret: agentSecret, ticketId: "T-1", runId: "run-1" });
    expect((await call(setup.rig.url, "/v1/describe", { token })).status).toBe(200);
  });

  it("the same signature bytes with another last character are refused", async () => {
    const token = await mintTaskToken({ secret: agentSecret, ticketId: "T-1", runId: "run-1" });
    const variants = sameBytesSpellings(token);
    expect(variants).toHaveLength(3);
    for (const variant of variants) {
      // Same bytes to a lenient decoder: only the spelling differs.
      expect(Buffer.from(variant.split(".")[2] ?? "", "base64url")).toEqual(
        Buffer.from(token.split(".")[2] ?? "", "base64url"),
      );
      const answer = await call(setup.rig.url, "/v1/describe", { token: variant });
      expect(answer.status).toBe(401);
      expect(answer.body.error.code).toBe("token_invalid");
    }
  });

  it.each([
    ["padding", (token: string) => `${token}=`],
    ["standard base64 characters", (token: string) => token.replace(/-/g, "+").replace(/_/g, "/")],
    [
      "a base64 signature",
      (token: string) => {
        const [head, body, signature] = token.split(".");
        return `${head}.${body}.${Buffer.from(signature ?? "", "base64url").toString("base64")}`;
      },
    ],
  ])("%s is refused", async (_, respell) => {
    let token = await mintTaskToken({ secret: agentSecret, ticketId: "T-1", runId: "run-1" });
    // Retry until the signature holds a character the respelling changes.
    while (respell(token) === token || !/[-_]/.test(token.split(".")[2] ?? ""))
      token = await mintTaskToken({ secret: agentSecret, ticketId: "T-1", runId: "run-1" });
    expect((await call(setup.rig.url, "/v1/describe", { token: respell(token) })).status).toBe(401);
  });
});

describe("the cap on a token's life is enforced when it is verified", () => {
  const setup = useRelay();

  it("a task token signed with the relay's key for 24 hours verifies", async () => {
    expect((await call(setup.rig.url, "/v1/describe", { token: await signedFor(86_400) })).status).toBe(200);
  });

  it("a task token signed to live longer than 24 hours is refused from its first second, and audited", async () => {
    for (const ttl of [86_401, 30 * 86_400]) {
      const answer = await call(setup.rig.url, "/v1/describe", { token: await signedFor(ttl) });
      expect(answer.status).toBe(401);
      expect(answer.body.error.code).toBe("token_invalid");
    }
    const refusals = (await auditOf(setup.rig.store)).filter((event) => event.type === "access");
    expect(refusals.map((event) => event.data.refusal)).toEqual(["token_invalid", "token_invalid"]);
    // Signed with the relay's key, so what it claimed is kept.
    expect(refusals[0]).toMatchObject({ ticketId: "T-1", runId: "run-1" });
  });

  it("an operator token signed to live longer than a week is refused", async () => {
    const week = 7 * 86_400;
    const ok = await signedFor(week, "formletter-operator", operatorSecret);
    const long = await signedFor(week + 1, "formletter-operator", operatorSecret);
    expect((await call(setup.rig.url, "/v1/queue", { token: ok })).status).toBe(200);
    expect((await call(setup.rig.url, "/v1/queue", { token: long })).status).toBe(401);
  });
});
