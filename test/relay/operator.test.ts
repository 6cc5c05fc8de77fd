import { describe, expect, it } from "vitest";
import type { QueueItem } from "../../src/store/store.js";
import { contractorEmail, proposal } from "../fixtures/property.js";
import { auditOf, call, type RelayRig, useRelay } from "./harness.js";

/** Three tickets through the agent endpoints: an escalation, a draft awaiting approval, and a send. */
async function populate(rig: RelayRig): Promise<void> {
  const propose = async (ticketId: string, output: unknown) => {
    const token = await rig.relay.mintTaskToken({ ticketId, runId: `run-${ticketId}` });
    const answer = await call(rig.url, "/v1/proposals", {
      token,
      json: { output, tags: { category: "repair" } },
    });
    expect(answer.status).toBe(200);
  };
  await propose("T-1", { escalate: "needs_human", note: "tenant is upset" });
  await propose("T-2", proposal("T-2", "payment_release"));
  await propose("T-3", proposal("T-3"));
}

describe("the human queue over HTTP", () => {
  const setup = useRelay();
  const operator = (rig: RelayRig, who = "ana@example.com") => rig.relay.mintOperatorToken({ operator: who });

  it("lists open items, filters, pages, and shows one", async () => {
    const { rig } = setup;
    await populate(rig);
    const token = await operator(rig);
    const open = await call(rig.url, "/v1/queue", { token });
    expect(open.status).toBe(200);
    expect(open.body.items.map((item: QueueItem) => item.reason)).toEqual([
      "model_escalated",
      "approval_required",
    ]);
    const approvals = await call(rig.url, "/v1/queue?reason=approval_required", { token });
    expect(approvals.body.items).toHaveLength(1);
    expect(approvals.body.items[0].draft.to).toBe(contractorEmail("T-2"));
    const first = await call(rig.url, "/v1/queue?limit=1", { token });
    expect(first.body.items).toHaveLength(1);
    const second = await call(rig.url, `/v1/queue?limit=1&cursor=${first.body.nextCursor}`, { token });
    expect(second.body.items[0].reason).toBe("approval_required");
    const one = await call(rig.url, `/v1/queue/${first.body.items[0].id}`, { token });
    expect(one.body).toMatchObject({ ticketId: "T-1", note: "tenant is upset" });
    // The typed fields of its escalation, as the audit event keeps them: no parsing of `detail`.
    expect(one.body.facts).toMatchObject({ code: expect.any(String), note: "tenant is upset" });
    expect((await call(rig.url, "/v1/queue/999999", { token })).status).toBe(404);
  });

  it.each([
    ["status=closed", "status"],
    ["reason=whatever", "reason"],
    ["limit=-1", "limit"],
  ])("refuses ?%s with 400 naming the parameter", async (query, name) => {
    const { rig } = setup;
    const answer = await call(rig.url, `/v1/queue?${query}`, { token: await operator(rig) });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe("request_invalid");
    expect(answer.body.error.message).toContain(name);
  });

  it("claims, approves and rejects as the token's operator, never as a name in the body", async () => {
    const { rig } = setup;
    await populate(rig);
    const ana = await operator(rig);
    const { items } = (await call(rig.url, "/v1/queue", { token: ana })).body as { items: QueueItem[] };
    const [escalation, approval] = items as [QueueItem, QueueItem];

    const claimed = await call(rig.url, `/v1/queue/${approval.id}/claim`, {
      token: ana,
      json: { by: "mallory" },
    });
    expect(claimed.status).toBe(200);
    expect(claimed.body).toMatchObject({ status: "claimed", claimedBy: "ana@example.com" });

    const bob = await operator(rig, "bob@example.com");
    const taken = await call(rig.url, `/v1/queue/${approval.id}/claim`, { token: bob, json: {} });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe("queue_transition_invalid");

    const approved = await call(rig.url, `/v1/queue/${approval.id}/approve`, { token: ana, json: {} });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ approvedNow: true, outbound: { status: "delivered" } });
    const again = await call(rig.url, `/v1/queue/${approval.id}/approve`, { token: ana, json: {} });
    expect(again.body.approvedNow).toBe(false);
    expect(rig.transport.sent.filter((sent) => sent.message.template === "payment_release")).toHaveLength(1);

    const rejected = await call(rig.url, `/v1/queue/${escalation.id}/reject`, {
      token: bob,
      json: { note: "duplicate" },
    });
    expect(rejected.body).toMatchObject({
      status: "rejected",
      closedBy: "bob@example.com",
      closeNote: "duplicate",
    });
    const twice = await call(rig.url, `/v1/queue/${escalation.id}/reject`, { token: bob, json: {} });
    expect(twice.status).toBe(409);

    const actors = (await auditOf(rig.store, { type: "queue" })).map((event) => [
      event.data.action,
      event.actor,
    ]);
    expect(actors).toEqual([
      ["claim", "ana@example.com"],
      ["approve", "ana@example.com"],
      ["reject", "bob@example.com"],
    ]);
  });

  it("resolves with a resolution, refuses one without, and 404s an unknown item", async () => {
    const { rig } = setup;
    await populate(rig);
    const token = await operator(rig);
    const [item] = (await call(rig.url, "/v1/queue", { token })).body.items as QueueItem[];
    const missing = await call(rig.url, `/v1/queue/${item?.id}/resolve`, { token, json: {} });
    expect(missing.status).toBe(400);
    const resolved = await call(rig.url, `/v1/queue/${item?.id}/resolve`, {
      token,
      json: { resolution: "called the tenant" },
    });
    expect(resolved.body).toMatchObject({ status: "resolved", resolution: "called the tenant" });
    const unknown = await call(rig.url, "/v1/queue/424242/claim", { token, json: {} });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("queue_item_not_found");
  });

  it("takes an empty body as no fields, and refuses a body that is not JSON with 415, audited", async () => {
    const { rig } = setup;
    await populate(rig);
    const token = await operator(rig);
    const [item] = (await call(rig.url, "/v1/queue", { token })).body.items as QueueItem[];
    const empty = await call(rig.url, `/v1/queue/${item?.id}/claim`, {
      token,
      body: "",
      headers: { "content-type": "application/json" },
    });
    expect(empty.status).toBe(200);
    const form = await call(rig.url, `/v1/queue/${item?.id}/reject`, {
      token,
      body: "note=x",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(415);
    const [event] = await auditOf(rig.store, { type: "access" });
    expect(event?.data).toMatchObject({
      refusal: "unsupported_media_type",
      operator: "ana@example.com",
      route: "/v1/queue/:id/reject",
    });
  });
});

describe("GET /v1/report", () => {
  const setup = useRelay();

  it("reports escalation rates from the audit log, refused requests aside", async () => {
    const { rig } = setup;
    await populate(rig);
    await call(rig.url, "/v1/proposals", { token: "forged.token.value", json: { output: {} } });
    const token = await rig.relay.mintOperatorToken({ operator: "ana@example.com" });
    const report = await call(rig.url, "/v1/report", { token });
    expect(report.status).toBe(200);
    expect(report.body.source).toBe("audit");
    expect(report.body.overall).toMatchObject({ key: "all", decided: 3, sent: 1, escalated: 2 });
    expect(report.body.byReason.map((row: { reason: string }) => row.reason).sort()).toEqual([
      "approval_required",
      "model_escalated",
    ]);
    expect(report.body.byTag).toMatchObject([{ tag: "category" }]);
    expect(report.body.byTag[0].rows[0]).toMatchObject({ key: "repair", decided: 3 });
    const later = await call(rig.url, `/v1/report?since=${Date.now() + 60_000}`, { token });
    expect(later.body.overall.decided).toBe(0);
    const iso = await call(rig.url, "/v1/report?since=2020-01-01&volume=100", { token });
    expect(iso.body.overall.decided).toBe(3);
    expect(iso.body.projection).toBeDefined();
    const bad = await call(rig.url, "/v1/report?since=yesterday", { token });
    expect(bad.status).toBe(400);
  });
});
