/**
 * Finding a tool call's approval item without deciding the call again: what a framework resuming after
 * an approval (or showing an approval screen) reads, rather than trusting a chat history.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createAgentTools, findApproval } from "../../src/agent-tools/index.js";
import { createOutbox, memoryStore, memoryTransport, type Outbox } from "../../src/index.js";
import { propertyCatalog, propertyTicket, proposal } from "../fixtures/property.js";
import { auditOf } from "../outbox/harness.js";

const open: Outbox[] = [];
afterEach(async () => {
  for (const outbox of open.splice(0)) await outbox.close();
});

function rig(options: { hold?: boolean; load?: (ticketId: string) => unknown } = {}) {
  const transport = memoryTransport();
  const outbox = createOutbox({
    catalog: propertyCatalog,
    load: options.load ?? propertyTicket,
    store: memoryStore(),
    transports: { email: transport },
    ...(options.hold === true
      ? { firstContact: "hold" as const, contactKey: "a secret of at least thirty-two bytes, for tests" }
      : {}),
  });
  open.push(outbox);
  return { outbox, transport };
}

const slotsOf = (ticketId: string, template = "payment_release") => proposal(ticketId, template).slots;

describe("findApproval", () => {
  it("finds the item the outbox queued for a call, and follows it as a person decides", async () => {
    const { outbox, transport } = rig();
    const agent = await createAgentTools({ outbox, ticketId: "T-1", runId: "run-1" });
    const outcome = await agent.call("payment_release", slotsOf("T-1"));
    expect(outcome.outcome).toBe("queued_for_approval");
    const queueItemId = outcome.outcome === "queued_for_approval" ? outcome.queueItemId : "";
    const found = await findApproval(outbox, "T-1", "payment_release", slotsOf("T-1"));
    expect(found).toMatchObject({ found: true, item: { id: queueItemId, status: "open" } });
    await outbox.queue.approve(queueItemId, { by: "ana@example.com" });
    const after = await findApproval(outbox, "T-1", "PAYMENT_RELEASE", slotsOf("T-1"));
    expect(after).toMatchObject({ found: true, item: { id: queueItemId, status: "approved" } });
    expect(transport.sent).toHaveLength(1);
  });

  it("answers not_queued for a call the outbox never handled, and writes and sends nothing", async () => {
    const { outbox, transport } = rig();
    const before = (await auditOf(outbox)).length;
    // A call of a template needing approval, and one that would send at once: neither is decided.
    expect(await findApproval(outbox, "T-1", "payment_release", slotsOf("T-1"))).toEqual({
      found: false,
      why: "not_queued",
    });
    expect(await findApproval(outbox, "T-1", "completion_check", slotsOf("T-1", "completion_check"))).toEqual(
      { found: false, why: "not_queued" },
    );
    expect(transport.sent).toHaveLength(0);
    expect((await outbox.queue.list()).items).toHaveLength(0);
    expect(await auditOf(outbox)).toHaveLength(before);
  });

  it("never finds another ticket's item, nor an item for a sent call", async () => {
    const { outbox } = rig();
    const other = await createAgentTools({ outbox, ticketId: "T-2", runId: "run-2" });
    expect((await other.call("payment_release", slotsOf("T-2"))).outcome).toBe("queued_for_approval");
    // Ticket T-2's handles named in a call for T-1: T-1's records know none of them.
    expect(await findApproval(outbox, "T-1", "payment_release", slotsOf("T-2"))).toEqual({
      found: false,
      why: "not_queued",
    });
    const own = await createAgentTools({ outbox, ticketId: "T-1", runId: "run-1" });
    expect((await own.call("completion_check", slotsOf("T-1", "completion_check"))).outcome).toBe("sent");
    expect(await findApproval(outbox, "T-1", "completion_check", slotsOf("T-1", "completion_check"))).toEqual(
      { found: false, why: "not_queued" },
    );
  });

  it("tells two waiting calls of one template apart by the records they chose", async () => {
    const twoOrders = (ticketId: string) => {
      const ticket = propertyTicket(ticketId);
      const second = propertyTicket(`${ticketId}b`);
      return {
        ticketId,
        contractors: [...ticket.contractors, ...second.contractors],
        work_orders: [...ticket.work_orders, ...second.work_orders],
      };
    };
    // Two first contacts held (visit_request allows two a ticket): one template, two waiting items.
    const { outbox } = rig({ load: twoOrders, hold: true });
    const handles = propertyCatalog.handles(twoOrders("T-1"));
    const slots = (suffix: string) => {
      const contractor = handles.get("contractors", `C-T-1${suffix}`) as string;
      const order = handles.get("work_orders", `W-T-1${suffix}`) as string;
      return { order, contractor, to: contractor, access: "lockbox" };
    };
    const agent = await createAgentTools({ outbox, ticketId: "T-1", runId: "run-1" });
    const first = await agent.call("visit_request", slots(""));
    const second = await agent.call("visit_request", slots("b"));
    const ids = [first, second].map((outcome) =>
      outcome.outcome === "queued_for_approval" ? outcome.queueItemId : "",
    );
    expect(new Set(ids).size).toBe(2);
    expect(await findApproval(outbox, "T-1", "visit_request", slots("b"))).toMatchObject({
      item: { id: ids[1] },
    });
    expect(await findApproval(outbox, "T-1", "visit_request", slots(""))).toMatchObject({
      item: { id: ids[0] },
    });
  });

  it("finds a first contact the outbox held, by the key of the send it would be", async () => {
    const { outbox, transport } = rig({ hold: true });
    const agent = await createAgentTools({ outbox, ticketId: "T-1", runId: "run-1" });
    const outcome = await agent.call("completion_check", slotsOf("T-1", "completion_check"));
    expect(outcome.outcome).toBe("queued_for_approval");
    const found = await findApproval(outbox, "T-1", "completion_check", slotsOf("T-1", "completion_check"));
    expect(found).toMatchObject({ found: true, item: { reason: "approval_required", status: "open" } });
    expect(transport.sent).toHaveLength(0);
  });

  it.each([
    ["no arguments", "payment_release", undefined],
    ["text that is not JSON", "payment_release", "{not json"],
    [
      "a hostile object",
      "payment_release",
      {
        get slots() {
          throw new Error("boom");
        },
      },
    ],
    ["a name of no tool", "__proto__", {}],
    ["a name that is not text", 42, {}],
  ])("answers not_queued for %s, without throwing", async (_, name, args) => {
    const { outbox } = rig();
    await expect(findApproval(outbox, "T-1", name, args)).resolves.toEqual({
      found: false,
      why: "not_queued",
    });
  });

  it("answers records_unavailable when the ticket's records cannot be loaded", async () => {
    const { outbox } = rig({
      load: () => {
        throw new Error("system of record down");
      },
    });
    await expect(findApproval(outbox, "T-1", "payment_release", {})).resolves.toEqual({
      found: false,
      why: "records_unavailable",
    });
  });
});
