import { describe, expect, it } from "vitest";
import { propertyCatalog, proposal } from "../fixtures/property.js";
import { call, useRelay } from "./harness.js";

/** The value of one series in Prometheus text, or undefined when it is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("GET /healthz", () => {
  const setup = useRelay();

  it("answers ok with the catalog version, without a token", async () => {
    const answer = await call(setup.rig.url, "/healthz");
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ status: "ok", catalogVersion: propertyCatalog.version });
  });
});

describe("GET /metrics", () => {
  const setup = useRelay({ outbox: { maxPerRun: 1 } });

  it("counts decisions, duplicates, deliveries, limits, refusals, queue depth and latency", async () => {
    const { relay, url } = setup.rig;
    const token = await relay.mintTaskToken({ ticketId: "T-1", runId: "run-1" });
    const propose = (output: unknown) => call(url, "/v1/proposals", { token, json: { output } });
    expect((await propose(proposal("T-1"))).body).toEqual({ outcome: "send" });
    expect((await propose(proposal("T-1"))).body).toEqual({ outcome: "send", duplicate: true });
    expect((await propose(proposal("T-1", "emergency_callout"))).body).toMatchObject({
      reason: "limit_exceeded",
    });
    expect((await propose({ template: "nope" })).body).toMatchObject({ reason: "unknown_template" });
    expect((await call(url, "/v1/proposals", { token: "bad", json: { output: {} } })).status).toBe(401);

    const answer = await fetch(`${url}/metrics`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    const text = await answer.text();
    const decisions = "formletter_relay_decisions_total";
    expect(sample(text, `${decisions}{outcome="send",reason="none",template="completion_check"}`)).toBe(1);
    expect(
      sample(text, `${decisions}{outcome="escalate",reason="limit_exceeded",template="emergency_callout"}`),
    ).toBe(1);
    expect(sample(text, `${decisions}{outcome="escalate",reason="unknown_template",template="none"}`)).toBe(
      1,
    );
    expect(sample(text, 'formletter_relay_duplicates_total{template="completion_check"}')).toBe(1);
    expect(sample(text, 'formletter_relay_deliveries_total{status="delivered"}')).toBe(1);
    expect(sample(text, 'formletter_relay_limit_events_total{limit="template"}')).toBe(1);
    expect(sample(text, 'formletter_relay_refusals_total{refusal="token_invalid"}')).toBe(1);
    expect(sample(text, 'formletter_relay_queue_depth{status="open"}')).toBe(2);
    expect(sample(text, 'formletter_relay_queue_depth{status="claimed"}')).toBe(0);
    expect(sample(text, 'formletter_relay_requests_total{route="/v1/proposals",status="200"}')).toBe(4);
    expect(sample(text, 'formletter_relay_requests_total{route="/v1/proposals",status="401"}')).toBe(1);

    const histogram = "formletter_relay_request_duration_seconds";
    const buckets = text
      .split("\n")
      .filter((line) => line.startsWith(`${histogram}_bucket{route="/v1/proposals",`))
      .map((line) => Number(line.split(" ")[1]));
    expect(buckets.length).toBeGreaterThan(5);
    // Cumulative: never decreasing, ending at the count.
    expect(buckets).toEqual([...buckets].sort((a, b) => a - b));
    expect(buckets.at(-1)).toBe(5);
    expect(sample(text, `${histogram}_count{route="/v1/proposals"}`)).toBe(5);
    expect(sample(text, `${histogram}_sum{route="/v1/proposals"}`)).toBeGreaterThan(0);
  });

  it("writes valid exposition text: HELP and TYPE before each family, one sample a line", async () => {
    const { relay, url } = setup.rig;
    const token = await relay.mintTaskToken({ ticketId: "T-2", runId: "run-2" });
    await call(url, "/v1/proposals", { token, json: { output: proposal("T-2") } });
    const text = await (await fetch(`${url}/metrics`)).text();
    const declared = new Set<string>();
    for (const line of text.trimEnd().split("\n")) {
      const type = /^# TYPE (\w+) (counter|gauge|histogram)$/.exec(line);
      if (type?.[1] !== undefined) {
        declared.add(type[1]);
        continue;
      }
      if (line.startsWith("# HELP ")) continue;
      const match =
        /^(\w+?)(_bucket|_sum|_count)?(\{[a-z_]+="[^"\\\n]*"(,[a-z_]+="[^"\\\n]*")*\})? [0-9.e+-]+$/.exec(
          line,
        );
      expect(match, line).not.toBeNull();
      const family = declared.has(match?.[1] ?? "") ? match?.[1] : `${match?.[1]}${match?.[2] ?? ""}`;
      expect(declared.has(family ?? ""), line).toBe(true);
    }
  });
});
