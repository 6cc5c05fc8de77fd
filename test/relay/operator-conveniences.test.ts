import { describe, expect, it } from "vitest";
import { deliveryEvent } from "../../src/providers/events/delivery-event.js";
import { createRelayClient } from "../../src/relay/index.js";
import type { QueueItem } from "../../src/store/index.js";
import { propertyCatalog, proposal } from "../fixtures/property.js";
import { call, type RelayRig, useRelay } from "./harness.js";

/** One escalation through the agent endpoint: an open queue item and one decision in the audit log. */
async function escalateOne(rig: RelayRig): Promise<string> {
  const token = await rig.relay.mintTaskToken({ ticketId: "T-1", runId: "run-1" });
  const answer = await call(rig.url, "/v1/proposals", {
    token,
    json: { output: { escalate: "needs_human" } },
  });
  expect(answer.status).toBe(200);
  const operator = await rig.relay.mintOperatorToken({ operator: "ana@example.com" });
  const [item] = (await call(rig.url, "/v1/queue", { token: operator })).body.items as QueueItem[];
  return item?.id ?? "";
}

describe("operator POSTs without a body", () => {
  const setup = useRelay();

  it("accepts a POST with no body and no content type (curl -X POST)", async () => {
    const { rig } = setup;
    const id = await escalateOne(rig);
    const token = await rig.relay.mintOperatorToken({ operator: "ana@example.com" });
    const claimed = await call(rig.url, `/v1/queue/${id}/claim`, { token, method: "POST" });
    expect(claimed.status).toBe(200);
    expect(claimed.body).toMatchObject({ status: "claimed", claimedBy: "ana@example.com" });
  });

  it("accepts an empty body whatever its content type, and still refuses a body that is not JSON", async () => {
    const { rig } = setup;
    const id = await escalateOne(rig);
    const token = await rig.relay.mintOperatorToken({ operator: "ana@example.com" });
    const empty = await call(rig.url, `/v1/queue/${id}/claim`, {
      token,
      body: "",
      headers: { "content-type": "text/plain" },
    });
    expect(empty.status).toBe(200);
    const text = await call(rig.url, `/v1/queue/${id}/reject`, {
      token,
      body: '{"note":"x"}',
      headers: { "content-type": "text/plain" },
    });
    expect(text.status).toBe(415);
    const chunked = await call(rig.url, `/v1/queue/${id}/reject`, {
      token,
      // A stream has no declared length: read, found non-empty, refused.
      body: new Blob(['{"note":"x"}']).stream(),
      headers: { "content-type": "text/plain" },
    });
    expect(chunked.status).toBe(415);
  });
});

describe("GET /v1/report?since=", () => {
  const setup = useRelay();

  it("takes a time ago as the CLI does (7d, 24h, 30m, 2w)", async () => {
    const { rig } = setup;
    await escalateOne(rig);
    const token = await rig.relay.mintOperatorToken({ operator: "ana@example.com" });
    for (const since of ["7d", "24h", "30m", "2w"]) {
      const report = await call(rig.url, `/v1/report?since=${since}`, { token });
      expect(report.status).toBe(200);
      expect(report.body.overall.decided).toBe(1);
    }
    const until = await call(rig.url, "/v1/report?until=1d", { token });
    expect(until.body.overall.decided).toBe(0);
    const bad = await call(rig.url, "/v1/report?since=7days", { token });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain("7d");
  });
});

describe("GET /v1/report by version", () => {
  const setup = useRelay();

  it("holds the delivery outcomes of each version's messages on its row, as the document describes", async () => {
    const { rig } = setup;
    const agent = await rig.relay.mintTaskToken({ ticketId: "T-1", runId: "run-1" });
    const sent = await call(rig.url, "/v1/proposals", { token: agent, json: { output: proposal("T-1") } });
    expect(sent.body).toEqual({ outcome: "send" });
    await rig.outbox.recordDeliveryEvents([
      deliveryEvent({
        provider: "ses",
        eventId: "e-1",
        messageId: rig.transport.sent[0]?.id as string,
        status: "delivered",
      }),
    ]);
    const token = await rig.relay.mintOperatorToken({ operator: "ana@example.com" });
    const report = await call(rig.url, "/v1/report", { token });
    expect(report.status).toBe(200);
    expect(report.body.byCatalogVersion).toEqual([
      expect.objectContaining({
        key: propertyCatalog.version,
        decided: 1,
        deliveryOutcomes: expect.objectContaining({ delivered: 1 }),
      }),
    ]);
  });
});

describe("createRelayClient: a malformed token is reported as what is wrong with it", () => {
  const client = (token: string) => () => createRelayClient({ url: "http://127.0.0.1:1", token });
  const header = "eyJhbGciOiJIUzI1NiJ9";

  it.each([
    ["with a trailing newline", `${header}.e30.c2ln\n`, /whitespace or a line break/],
    ["with a space inside", `${header}.e30 .c2ln`, /whitespace or a line break/],
    ["cut short", `${header}.e30`, /has 2 parts separated by dots; a task token \(a JWT\) has 3/],
    ["with an empty part", `${header}..c2ln`, /empty part/],
    ["with a character outside base64url", `${header}.e30.c2ln+/=`, /not base64url/],
    ["in non-ASCII letters", `${header}.é30.c2ln`, /not base64url/],
  ])("a token %s", (_, token, message) => {
    expect(client(token)).toThrow(
      expect.objectContaining({ code: "relay_invalid", message: expect.stringMatching(message) }),
    );
  });

  it("accepts a well-formed token without a request", () => {
    expect(client(`${header}.e30.c2ln`)).not.toThrow();
  });
});
