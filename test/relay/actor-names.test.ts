/**
 * Who acts on the queue is an operator token's subject, held to one rule (src/core/visible-name.ts):
 * a name made of nothing visible, or holding a control, invisible or bidi character, is refused with a
 * typed 400 on every operator route, and never logged or audited; the minters refuse it first.
 */
import { describe, expect, it } from "vitest";
import { mintOperatorToken, mintTaskToken } from "../../src/relay/index.js";
import { proposal } from "../fixtures/property.js";
import { unreadableNames } from "../fixtures/unreadable-names.js";
import { agentSecret, auditOf, call, operatorSecret, signedElsewhere, useRelay } from "./harness.js";

describe("actor names at the relay", () => {
  const setup = useRelay();

  it.each(unreadableNames)(
    "an operator named by %s is refused with 400 actor_invalid on every operator route",
    async (_name, operator) => {
      const { rig } = setup;
      const task = await rig.relay.mintTaskToken({ ticketId: "T-1", runId: "run-1" });
      await call(rig.url, "/v1/proposals", {
        token: task,
        json: { output: proposal("T-1", "payment_release") },
      });
      const token = await signedElsewhere(operator);
      const requests: [string, { json?: unknown }][] = [
        ["/v1/queue", {}],
        ["/v1/queue/1", {}],
        ["/v1/queue/1/claim", { json: {} }],
        ["/v1/queue/1/approve", { json: {} }],
        ["/v1/queue/1/reject", { json: {} }],
        ["/v1/queue/1/resolve", { json: { resolution: "called back" } }],
        ["/v1/report", {}],
      ];
      for (const [path, init] of requests) {
        const answer = await call(rig.url, path, { token, ...init });
        expect(answer.status, path).toBe(400);
        expect(answer.body.error.code).toBe("actor_invalid");
        expect(answer.body.error.message).toContain("token claim sub must be 1 to 200 characters");
      }
      // Nothing was done under the name, and the audit log does not hold it.
      const queued = await rig.outbox.queue.list({});
      expect(queued.items.map((item) => item.status)).toEqual(["open"]);
      const access = await auditOf(rig.store, { type: "access" });
      expect(access).toHaveLength(requests.length);
      for (const event of access) {
        expect(event.data).toMatchObject({ refusal: "actor_invalid", status: 400, jti: "signed-elsewhere" });
        expect(event.data).not.toHaveProperty("operator");
      }
    },
  );

  it("acts under a readable name of any script, trimmed", async () => {
    const { rig } = setup;
    const task = await rig.relay.mintTaskToken({ ticketId: "T-1", runId: "run-1" });
    await call(rig.url, "/v1/proposals", { token: task, json: { output: { escalate: "needs_human" } } });
    const [item] = (await rig.outbox.queue.list({})).items;
    const token = await signedElsewhere("  Zoë Ødegaard 李雷 ");
    const claimed = await call(rig.url, `/v1/queue/${item?.id}/claim`, { token, json: {} });
    expect(claimed.status).toBe(200);
    expect(claimed.body.claimedBy).toBe("Zoë Ødegaard 李雷");
  });

  it.each(unreadableNames)(
    "the minters refuse an operator named by %s, without repeating it",
    async (_name, operator) => {
      const { rig } = setup;
      const refusals = [
        rig.relay.mintOperatorToken({ operator }),
        mintOperatorToken({ secret: operatorSecret, operator }),
      ];
      for (const refusal of refusals) {
        await expect(refusal).rejects.toMatchObject({
          code: "relay_invalid",
          message: expect.stringMatching(/^operator must be 1 to 200 characters/),
        });
      }
    },
  );

  it.each([...unreadableNames, ["a space at the end", "T-1 "]] as const)(
    "the minters refuse a ticket or run id made of %s",
    async (_name, id) => {
      for (const ids of [
        { ticketId: id, runId: "run-1" },
        { ticketId: "T-1", runId: id },
      ]) {
        await expect(mintTaskToken({ secret: agentSecret, ...ids })).rejects.toMatchObject({
          code: "relay_invalid",
        });
      }
    },
  );
});
