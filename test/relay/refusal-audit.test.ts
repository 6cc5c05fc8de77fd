import { describe, expect, it } from "vitest";
import { auditOf, call, type RelayRig, useRelay } from "./harness.js";

/** Sends `count` requests refused for their token, a batch at a time; returns their statuses. */
async function refusedRequests(rig: RelayRig, count: number, token?: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let sent = 0; sent < count; sent += 25) {
    const batch = Array.from({ length: Math.min(25, count - sent) }, () =>
      call(rig.url, "/v1/describe", token === undefined ? {} : { token }),
    );
    statuses.push(...(await Promise.all(batch)).map((answer) => answer.status));
  }
  return statuses;
}

const sample = (text: string, series: string) => {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.split(" ")[1]);
};

describe("requests refused for their token are audited in a sample", () => {
  // A fixed clock: on the real one, a run crossing a window's edge would start the sample over.
  const setup = useRelay({ relay: { clock: () => Date.UTC(2026, 2, 1, 12, 0, 30) } });

  it("a flood of 130 requests without a token: each refused and counted, 21 audited", {
    timeout: 20_000,
  }, async () => {
    const { rig } = setup;
    const statuses = await refusedRequests(rig, 130);
    expect(statuses.every((status) => status === 401)).toBe(true);
    const events = await auditOf(rig.store, { type: "access" });
    // The first 20 of the window, then the 120th, which says 99 went unaudited before it.
    expect(events).toHaveLength(21);
    const unaudited = events.map((event) => Number(event.data.unaudited ?? 0));
    expect(unaudited).toEqual([...Array(20).fill(0), 99]);
    const metrics = await rig.relay.metrics();
    expect(sample(metrics, 'formletter_relay_refusals_total{refusal="token_missing"}')).toBe(130);
    expect(sample(metrics, 'formletter_relay_refusals_unaudited_total{refusal="token_missing"}')).toBe(109);
  });

  it("tokens that are not the relay's share the same sample", async () => {
    const { rig } = setup;
    await refusedRequests(rig, 15);
    await refusedRequests(rig, 15, "not.a.token");
    const events = await auditOf(rig.store, { type: "access" });
    expect(events.map((event) => event.data.refusal)).toEqual([
      ...Array(15).fill("token_missing"),
      ...Array(5).fill("token_invalid"),
    ]);
    const metrics = await rig.relay.metrics();
    expect(sample(metrics, 'formletter_relay_refusals_total{refusal="token_invalid"}')).toBe(15);
    expect(sample(metrics, 'formletter_relay_refusals_unaudited_total{refusal="token_invalid"}')).toBe(10);
  });
});

describe("the sample starts over each window", () => {
  let now = Date.UTC(2026, 2, 1, 12, 0, 0);
  const setup = useRelay({
    relay: { clock: () => now, tokenRefusalAudit: { full: 3, every: 10, windowMs: 60_000 } },
  });

  it("audits the first `full` of every window", async () => {
    const { rig } = setup;
    await refusedRequests(rig, 12);
    now += 60_000;
    await refusedRequests(rig, 4);
    const events = await auditOf(rig.store, { type: "access" });
    // Window one: 1, 2, 3 and the 13th would be next; window two: 1, 2, 3.
    expect(events).toHaveLength(6);
    expect(events.map((event) => event.at)).toEqual([...Array(3).fill(now - 60_000), ...Array(3).fill(now)]);
  });
});
