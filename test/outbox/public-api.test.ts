import { describe, expect, it } from "vitest";
import { memoryStore, openHumanQueue } from "../../src/index.js";
import { propertyCatalog, propertyTicket, proposal } from "../fixtures/property.js";
import { auditOf, outboxOver, t0 } from "./harness.js";

describe("the outbox's public view, for a service in front of it", () => {
  it("catalog is the catalog it decides with", () => {
    const { outbox } = outboxOver(memoryStore());
    expect(outbox.catalog.version).toBe(propertyCatalog.version);
  });

  it("records() loads as handle() does: the ticket's own records, or a problem, never a throw", async () => {
    const store = memoryStore();
    const { outbox } = outboxOver(store);
    expect(await outbox.records("T-1")).toEqual({ ok: true, records: propertyTicket("T-1") });
    const wrong = outboxOver(store, { load: () => propertyTicket("T-2") }).outbox;
    expect(await wrong.records("T-1")).toMatchObject({ ok: false });
    const throwing = outboxOver(store, {
      load: () => {
        throw new Error("db down");
      },
    }).outbox;
    expect(await throwing.records("T-1")).toMatchObject({ ok: false });
  });

  it("records() answers with a promise whether the loader answers at once or later", async () => {
    const store = memoryStore();
    const atOnce = outboxOver(store).outbox.records("T-1");
    const later = outboxOver(store, { load: async (id: string) => propertyTicket(id) }).outbox.records("T-1");
    expect(atOnce).toBeInstanceOf(Promise);
    expect(later).toBeInstanceOf(Promise);
    expect(await atOnce).toEqual(await later);
    expect(await atOnce).toEqual({ ok: true, records: propertyTicket("T-1") });
  });

  it("audit.append() writes an event into the same log as the decisions", async () => {
    const { outbox } = outboxOver(memoryStore());
    await outbox.handle({ ticketId: "T-1", output: proposal("T-1"), runId: "r" });
    const id = await outbox.audit.append({
      at: t0 + 1,
      type: "access",
      ticketId: "T-1",
      runId: "r",
      template: undefined,
      outcome: undefined,
      reason: undefined,
      key: undefined,
      actor: "relay",
      data: { refusal: "rate_limited" },
    });
    const events = await auditOf(outbox);
    expect(events.map((event) => event.type)).toEqual(["decision", "delivery", "access"]);
    expect(events.at(-1)?.id).toBe(id);
  });
});

describe("openHumanQueue(store): the queue without an outbox", () => {
  it("release writes the approval and the outbound row, and delivers nothing; the outbox's flush() sends it", async () => {
    const store = memoryStore();
    const { outbox, transport } = outboxOver(store);
    const result = await outbox.handle({
      ticketId: "T-1",
      output: proposal("T-1", "payment_release"),
      runId: "r",
    });
    expect(result.decision).toMatchObject({ reason: "approval_required" });
    const queue = openHumanQueue(store);
    expect(queue).not.toHaveProperty("approve");
    const approval = await queue.release(result.queueItemId as string, { by: "ada" });
    expect(approval.approvedNow).toBe(true);
    expect(approval.outbound?.status).toBe("pending");
    expect(transport.sent).toHaveLength(0);
    expect(await outbox.flush()).toEqual({ delivered: 1, failed: 0 });
    expect(transport.sent).toHaveLength(1);
  });
});
