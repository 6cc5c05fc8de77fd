import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { isFormletterError } from "../../src/index.js";
import { createRelayClient, RelayRequestError } from "../../src/relay/index.js";
import { proposal } from "../fixtures/property.js";
import { auditOf, useRelay } from "./harness.js";

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("createRelayClient", () => {
  // Mid-window, so the rate limit test cannot straddle the end of a window.
  const now = Math.floor(Date.now() / 60_000) * 60_000 + 1_000;
  const setup = useRelay({ relay: { rateLimit: { max: 6, windowMs: 60_000 }, clock: () => now } });

  it("proposes with tags, reads tools and the description, with nothing but the task token", async () => {
    const { relay, url, store, transport } = setup.rig;
    const client = createRelayClient({
      url,
      token: await relay.mintTaskToken({ ticketId: "T-1", runId: "run-1" }),
    });
    const description = await client.describe();
    expect(description).toMatch(/^Records \(handle: label\):\ncontractors:/);
    const tools = await client.tools("anthropic");
    expect(tools.stage).toBe("single");
    expect(Array.isArray(tools.tools)).toBe(true);
    expect((await client.tools("openai", { template: "visit_request" })).templates).toEqual([
      "visit_request",
    ]);
    expect(await client.propose(proposal("T-1"), { tags: { category: "repair" } })).toEqual({
      outcome: "send",
    });
    expect(await client.propose({ escalate: "needs_human" })).toEqual({
      outcome: "escalate",
      reason: "model_escalated",
    });
    expect(transport.sent).toHaveLength(1);
    expect((await auditOf(store, { type: "decision" }))[0]?.data.tags).toEqual({ category: "repair" });
  });

  it("throws a RelayRequestError with the status and the relay's code when refused", async () => {
    const { relay, url } = setup.rig;
    const forged = createRelayClient({ url, token: "forged.task.token" });
    const error = await forged.describe().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RelayRequestError);
    expect(isFormletterError(error)).toBe(true);
    expect(error).toMatchObject({ code: "relay_request_failed", status: 401, problem: "token_invalid" });

    const client = createRelayClient({
      url,
      token: await relay.mintTaskToken({ ticketId: "T-2", runId: "run-2" }),
    });
    for (let i = 0; i < 6; i++) await client.describe();
    const limited = await client.propose(proposal("T-2")).catch((caught: unknown) => caught);
    expect(limited).toMatchObject({ status: 429, problem: "rate_limited" });
    expect((limited as RelayRequestError).retryAfterSeconds).toBeGreaterThan(0);
  });

  it("reports a relay that cannot be reached as status 0, and refuses a bad url or an empty token", async () => {
    const port = await closedPort();
    const client = createRelayClient({ url: `http://127.0.0.1:${port}`, token: "a.b.c" });
    await expect(client.describe()).rejects.toMatchObject({ status: 0, problem: "network" });
    expect(() => createRelayClient({ url: "relay.internal", token: "t" })).toThrow(/absolute/);
    expect(() => createRelayClient({ url: "ftp://relay.internal", token: "t" })).toThrow(/http/);
    expect(() => createRelayClient({ url: "http://127.0.0.1:1", token: "" })).toThrow(/token/);
  });

  it("gives up after its timeout", async () => {
    const { relay, url } = setup.rig;
    const token = await relay.mintTaskToken({ ticketId: "T-3", runId: "run-3" });
    const slow: typeof fetch = (input, init) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => resolve(fetch(input, init)), 1_000);
        init?.signal?.addEventListener("abort", () => {
          clearTimeout(timer);
          reject(init.signal?.reason);
        });
      });
    const client = createRelayClient({ url, token, timeoutMs: 50, fetch: slow });
    await expect(client.describe()).rejects.toMatchObject({ status: 0, problem: "timeout" });
  });
});
