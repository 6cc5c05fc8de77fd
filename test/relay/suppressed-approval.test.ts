/**
 * An approval the queue refuses because the draft's recipient is suppressed is answered as what it is:
 * `recipient_suppressed` (409) with the cause as a typed field, never the generic refusal of a status,
 * so the operator knows that lifting the suppression is the fix. Nothing is sent and the item waits.
 */
import { describe, expect, it } from "vitest";
import { contractorEmail, proposal } from "../fixtures/property.js";
import { suppressDestination } from "../fixtures/suppress.js";
import { auditOf, call, type RelayRig, useRelay } from "./harness.js";

const contactKey = "a secret of at least thirty-two bytes, for the relay";

async function awaitingApproval(rig: RelayRig, ticketId = "T-2") {
  const token = await rig.relay.mintTaskToken({ ticketId, runId: `run-${ticketId}` });
  const answer = await call(rig.url, "/v1/proposals", {
    token,
    json: { output: proposal(ticketId, "payment_release") },
  });
  expect(answer.body).toMatchObject({ outcome: "escalate", reason: "approval_required" });
  const item = await rig.outbox.queue.get(answer.body.queueItemId);
  if (item?.draft === undefined) throw new Error("fixture: the payment release holds no draft");
  return { id: item.id, draft: item.draft };
}

describe("POST /v1/queue/{id}/approve to a suppressed recipient", () => {
  // An outbox with a contact key keeps suppressions.
  const setup = useRelay({ outbox: { contactKey } });

  it.each([
    ["hard_bounce", "it bounced for good"],
    ["complaint", "its owner complained"],
  ] as const)(
    "answers 409 recipient_suppressed with the cause %s; nothing is sent and the item waits until the suppression is lifted",
    async (cause, words) => {
      const { rig } = setup;
      const { id, draft } = await awaitingApproval(rig);
      const destination = await suppressDestination(rig.store, contactKey, draft, cause);
      const token = await rig.relay.mintOperatorToken({ operator: "ana@example.com" });

      const refused = await call(rig.url, `/v1/queue/${id}/approve`, { token, json: {} });
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({
        error: {
          code: "recipient_suppressed",
          message: `the draft's recipient is suppressed (${words}): nothing was sent and the item still waits; lift the suppression, then approve again`,
          suppression: { cause },
        },
      });
      // The answer names no recipient and no destination: the item says whom, the suppressions list why.
      expect(refused.text).not.toContain(contractorEmail("T-2"));
      expect(refused.text).not.toContain(destination.slice(0, 16));
      expect(rig.transport.sent).toEqual([]);
      const waiting = await call(rig.url, `/v1/queue/${id}`, { token });
      expect(waiting.body.status).toBe("open");
      expect(waiting.body.outboundId).toBeUndefined();
      expect((await auditOf(rig.store, { type: "queue" })).map((event) => event.data.action)).toEqual([]);

      // Lifted, the same approval sends the draft once.
      expect((await rig.outbox.suppressions.lift(destination, { by: "ana@example.com" })).lifted).toBe(true);
      const approved = await call(rig.url, `/v1/queue/${id}/approve`, { token, json: {} });
      expect(approved.status).toBe(200);
      expect(approved.body).toMatchObject({ approvedNow: true, outbound: { status: "delivered" } });
      expect(rig.transport.sent.map((sent) => sent.message)).toEqual([draft]);
    },
  );

  it("still answers queue_transition_invalid for an item closed before, suppressed recipient or not", async () => {
    const { rig } = setup;
    const { id, draft } = await awaitingApproval(rig);
    const token = await rig.relay.mintOperatorToken({ operator: "ana@example.com" });
    const rejected = await call(rig.url, `/v1/queue/${id}/reject`, { token, json: { note: "wrong amount" } });
    expect(rejected.status).toBe(200);
    await suppressDestination(rig.store, contactKey, draft, "complaint");
    const refused = await call(rig.url, `/v1/queue/${id}/approve`, { token, json: {} });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("queue_transition_invalid");
    expect(refused.body.error.suppression).toBeUndefined();
    expect(rig.transport.sent).toEqual([]);
  });

  it("is documented on the approve route only", async () => {
    const { rig } = setup;
    const document = (await call(rig.url, "/openapi.json")).body;
    const conflict = (action: string) =>
      document.paths[`/v1/queue/{id}/${action}`].post.responses["409"].description as string;
    expect(conflict("approve")).toBe("queue_transition_invalid, recipient_suppressed");
    for (const action of ["claim", "reject", "resolve"])
      expect(conflict(action)).toBe("queue_transition_invalid");
    const error = document.components.schemas.Error.properties.error.properties;
    expect(error.code.enum).toContain("recipient_suppressed");
    expect(error.suppression.properties.cause.enum).toEqual(["hard_bounce", "complaint"]);
  });
});
