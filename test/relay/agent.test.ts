import { describe, expect, it } from "vitest";
import { contractorEmail, propertyTicket, proposal } from "../fixtures/property.js";
import { auditOf, call, useRelay } from "./harness.js";

describe("POST /v1/proposals", () => {
  const setup = useRelay();

  it("sends a valid proposal for the token's ticket and answers only the outcome", async () => {
    const { relay, url, transport, store } = setup.rig;
    const token = await relay.mintTaskToken({ ticketId: "T-1", runId: "run-1" });
    const answer = await call(url, "/v1/proposals", {
      token,
      json: { output: proposal("T-1"), tags: { category: "repair" } },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ outcome: "send" });
    expect(answer.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(transport.sent.map((sent) => sent.message.to)).toEqual([contractorEmail("T-1")]);
    const [decision] = await auditOf(store, { type: "decision" });
    expect(decision).toMatchObject({
      ticketId: "T-1",
      runId: "run-1",
      outcome: "send",
      template: "completion_check",
    });
    expect(decision?.data.tags).toEqual({ category: "repair" });
  });

  it("never echoes the message, the recipient or record values to the agent", async () => {
    const { relay, url } = setup.rig;
    const token = await relay.mintTaskToken({ ticketId: "T-2", runId: "run-2" });
    const sent = await call(url, "/v1/proposals", {
      token,
      json: { output: proposal("T-2", "payment_release") },
    });
    // The queue item's id, for an approval screen or an operator: an id, never the draft.
    const [item] = (await setup.rig.outbox.queue.list({ status: "open" })).items;
    expect(sent.body).toEqual({ outcome: "escalate", reason: "approval_required", queueItemId: item?.id });
    const records = propertyTicket("T-2");
    for (const secret of [contractorEmail("T-2"), records.contractors[0]?.name, "Flat T-2", "Harbourside"]) {
      expect(sent.text).not.toContain(secret);
    }
  });

  it("answers an escalation with its reason and the hint a retry needs, and a repeat as a duplicate", async () => {
    const { relay, url, transport } = setup.rig;
    const token = await relay.mintTaskToken({ ticketId: "T-3", runId: "run-3" });
    const unknown = await call(url, "/v1/proposals", {
      token,
      json: { output: { template: "refund_everyone" } },
    });
    expect(unknown.status).toBe(200);
    expect(unknown.body.outcome).toBe("escalate");
    expect(unknown.body.reason).toBe("unknown_template");
    expect(unknown.body.hint).toContain("completion_check");
    // What was expected comes as data too, so a client need not read it out of the hint.
    expect(unknown.body.expected.kind).toBe("templates");
    expect(unknown.body.expected.ids).toContain("completion_check");
    const text = await call(url, "/v1/proposals", {
      token,
      json: { output: "I will just email them myself" },
    });
    expect(text.body).toMatchObject({ outcome: "escalate", reason: "unparseable_output" });
    expect(text.body.hint).toContain('"template"');
    const first = await call(url, "/v1/proposals", {
      token,
      json: { output: JSON.stringify(proposal("T-3")) },
    });
    const again = await call(url, "/v1/proposals", { token, json: { output: proposal("T-3") } });
    expect(first.body).toEqual({ outcome: "send" });
    expect(again.body).toEqual({ outcome: "send", duplicate: true });
    expect(transport.sent).toHaveLength(1);
  });

  it("takes the ticket and run from the token: a body repeating them is accepted", async () => {
    const { relay, url, store } = setup.rig;
    const token = await relay.mintTaskToken({ ticketId: "T-4", runId: "run-4" });
    const answer = await call(url, "/v1/proposals", {
      token,
      json: { output: proposal("T-4"), ticketId: "T-4", runId: "run-4" },
    });
    expect(answer.body).toEqual({ outcome: "send" });
    expect((await auditOf(store, { type: "decision" }))[0]?.runId).toBe("run-4");
  });

  it.each([
    ["an array", [1, 2]],
    ["a body without output", { tags: {} }],
    ["an unknown field", { output: {}, to: "attacker@example.com" }],
    ["tags that are not strings", { output: {}, tags: { category: 3 } }],
    ["a tag with an empty name", { output: {}, tags: { "": "x" } }],
    ["a 41-character tag name", { output: {}, tags: { ["n".repeat(41)]: "x" } }],
    [
      "too many tags",
      { output: {}, tags: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`t${i}`, "x"])) },
    ],
  ])("refuses %s with 400 body_invalid, audited, and decides nothing", async (_name, body) => {
    const { relay, url, store, transport } = setup.rig;
    const token = await relay.mintTaskToken({ ticketId: "T-5", runId: "run-5" });
    const answer = await call(url, "/v1/proposals", { token, json: body });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe("body_invalid");
    expect(answer.text).not.toContain("attacker@example.com");
    expect(await auditOf(store, { type: "decision" })).toEqual([]);
    const [access] = await auditOf(store, { type: "access" });
    expect(access?.data).toMatchObject({ refusal: "body_invalid", status: 400, route: "/v1/proposals" });
    expect(transport.sent).toEqual([]);
  });
});

describe("a slow loader", () => {
  const setup = useRelay({
    relay: { requestTimeoutMs: 100 },
    outbox: {
      load: async (ticketId: string) => {
        await new Promise((resolve) => setTimeout(resolve, 400));
        return propertyTicket(ticketId);
      },
    },
  });

  it("gets a 503 timeout in time, and the proposal it took still commits once", async () => {
    const { relay, url, store } = setup.rig;
    const token = await relay.mintTaskToken({ ticketId: "T-6", runId: "run-6" });
    const started = Date.now();
    const late = await call(url, "/v1/proposals", { token, json: { output: proposal("T-6") } });
    expect(Date.now() - started).toBeLessThan(350);
    expect(late.status).toBe(503);
    expect(late.body.error.code).toBe("timeout");
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await auditOf(store, { type: "decision" })).toHaveLength(1);
    const described = await call(url, "/v1/describe", { token });
    expect(described.status).toBe(503);
  });
});

describe("GET /v1/tools and /v1/describe", () => {
  const setup = useRelay();

  it.each(["openai", "openai-responses", "anthropic", "ai-sdk"] as const)(
    "builds %s tools for the token's ticket only",
    async (provider) => {
      const { relay, url } = setup.rig;
      const token = await relay.mintTaskToken({ ticketId: "T-7", runId: "run-7" });
      const answer = await call(url, `/v1/tools?provider=${provider}`, { token });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ provider, stage: "single" });
      // The same version /healthz gives: which catalog these tools came from.
      const health = await call(url, "/healthz", {});
      expect(answer.body.catalogVersion).toMatch(/^[0-9a-f]{16}$/);
      expect(answer.body.catalogVersion).toBe(health.body.catalogVersion);
      expect(answer.body.templates).toEqual([
        "visit_request",
        "completion_check",
        "emergency_callout",
        "payment_release",
      ]);
      // Handles of this ticket, never record text: the contractor's address is not in the schema.
      expect(answer.text).not.toContain(contractorEmail("T-7"));
      const other = await relay.mintTaskToken({ ticketId: "T-8", runId: "run-8" });
      const theirs = await call(url, `/v1/tools?provider=${provider}`, { token: other });
      expect(theirs.text).not.toEqual(answer.text);
    },
  );

  it("gives one template's stage-two tools, and 404 for a template not offered", async () => {
    const { relay, url } = setup.rig;
    const token = await relay.mintTaskToken({ ticketId: "T-9", runId: "run-9" });
    const one = await call(url, "/v1/tools?provider=anthropic&template=visit_request", { token });
    expect(one.body).toMatchObject({ stage: "slots", templates: ["visit_request"] });
    const none = await call(url, "/v1/tools?provider=anthropic&template=refund_everyone", { token });
    expect(none.status).toBe(404);
    expect(none.body.error.code).toBe("template_not_offered");
  });

  it("refuses an unknown provider with 400", async () => {
    const { relay, url } = setup.rig;
    const token = await relay.mintTaskToken({ ticketId: "T-10", runId: "run-10" });
    const answer = await call(url, "/v1/tools?provider=gemini", { token });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe("request_invalid");
  });

  it("describes the token's ticket with handles and labels", async () => {
    const { relay, url } = setup.rig;
    const token = await relay.mintTaskToken({ ticketId: "T-11", runId: "run-11" });
    const answer = await call(url, "/v1/describe", { token });
    expect(answer.status).toBe(200);
    // The records only: templates, slots and keys are in the tools (GET /v1/tools), said once.
    expect(answer.body.description).toContain("Records (handle: label):");
    expect(answer.body.description).toContain("contractor Builder T-11");
    expect(answer.body.description).not.toContain("T-12");
  });
});

describe("a loader that returns another ticket's records", () => {
  const setup = useRelay({ outbox: { load: () => propertyTicket("T-OTHER") } });

  it("shows none of them: tools and describe answer 503, and a proposal escalates records_invalid", async () => {
    const { relay, url } = setup.rig;
    const token = await relay.mintTaskToken({ ticketId: "T-13", runId: "run-13" });
    const described = await call(url, "/v1/describe", { token });
    expect(described.status).toBe(503);
    expect(described.body.error.code).toBe("records_unavailable");
    expect(described.text).not.toContain("T-OTHER");
    expect((await call(url, "/v1/tools?provider=openai", { token })).status).toBe(503);
    const proposed = await call(url, "/v1/proposals", { token, json: { output: proposal("T-OTHER") } });
    expect(proposed.body).toEqual({ outcome: "escalate", reason: "records_invalid" });
  });
});
