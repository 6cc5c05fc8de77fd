import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { beforeEach, describe, expect, it } from "vitest";
import { createOutbox, isFormletterError, memoryTransport, openHumanQueue } from "../../src/index.js";
import { destinationHash } from "../../src/outbox/first-contact.js";
import { sqliteStore } from "../../src/store/sqlite/index.js";
import type { AuditEvent } from "../../src/store/store.js";
import { refundCatalog, refundProposal, refundTicket } from "../fixtures/refunds.js";
import { manualClock, storeKinds, t0, useStore } from "./harness.js";

const contactKey = "a secret of at least thirty-two bytes, for tests";
// Ticket ids stay unique across outboxes on one store: a repeated id would be an idempotent duplicate.
let setUps = 0;

describe.each(storeKinds)("first contact on the %s store", (kind) => {
  const ctx = useStore(kind);

  function setUp(options: { hold?: "template" | "outbox"; key?: string | undefined } = {}) {
    const catalog = refundCatalog(
      { refunds: { values: ["refund.amount"], max: { EUR: { day: 1_000_000 } } } },
      options.hold === "template" ? { firstContact: "hold" } : {},
    );
    const tickets = new Map<string, ReturnType<typeof refundTicket>>();
    const transport = memoryTransport();
    const key = "key" in options ? options.key : contactKey;
    const outbox = createOutbox({
      catalog,
      load: (ticketId) => tickets.get(ticketId),
      store: ctx.store,
      transports: { email: transport },
      clock: manualClock(t0),
      ...(key === undefined ? {} : { contactKey: key }),
      ...(options.hold === "outbox" ? { firstContact: "hold" as const } : {}),
    });
    let n = 0;
    setUps += 1;
    const prefix = setUps === 1 ? "T" : `T${setUps}`;
    const send = (email: string) => {
      n += 1;
      const ticket = refundTicket(`${prefix}-${n}`, {}, {}, email);
      tickets.set(ticket.ticketId, ticket);
      return outbox.handle({
        ticketId: ticket.ticketId,
        output: refundProposal(catalog, ticket),
        runId: `run-${n}`,
      });
    };
    return { outbox, transport, send };
  }
  beforeEach(() => {
    setUps = 0;
  });

  async function firstContacts(): Promise<AuditEvent[]> {
    const events: AuditEvent[] = [];
    for await (const event of ctx.store.queryAudit({ type: "first_contact" })) events.push(event);
    return events;
  }

  it("the first accepted send to a destination is marked and audited once, by a hash prefix, never the address", async () => {
    const { send, transport } = setUp();
    const first = await send("Ana@Shop.example");
    const second = await send("ana@shop.example");
    const other = await send("ben@shop.example");
    const prefix = destinationHash(contactKey, { channel: "email", to: "ana@shop.example" }).slice(0, 12);
    expect(first.decision).toMatchObject({ outcome: "send", firstContact: { destination: prefix } });
    expect(second.decision.outcome).toBe("send");
    expect(second.decision).not.toHaveProperty("firstContact");
    expect(other.decision).toHaveProperty("firstContact");
    expect(transport.sent).toHaveLength(3);
    const events = await firstContacts();
    expect(events.map((event) => [event.ticketId, event.data.destination])).toEqual([
      ["T-1", prefix],
      ["T-3", destinationHash(contactKey, { channel: "email", to: "ben@shop.example" }).slice(0, 12)],
    ]);
    expect(JSON.stringify(events)).not.toMatch(/shop\.example/);
  });

  it("firstContact: hold sends a first message to a person; approving sends it and records the destination", async () => {
    for (const hold of ["template", "outbox"] as const) {
      const { send, outbox, transport } = setUp({ hold });
      const email = `carla-${hold}@shop.example`;
      const held = await send(email);
      const prefix = destinationHash(contactKey, { channel: "email", to: email }).slice(0, 12);
      expect(held.decision).toMatchObject({
        outcome: "escalate",
        reason: "approval_required",
        firstContact: { destination: prefix },
        draft: { to: email },
      });
      expect(transport.sent.filter((sent) => sent.message.to === email)).toHaveLength(0);
      // A second message to the same destination before approval waits too: it is still unknown.
      expect((await send(email)).decision).toMatchObject({ reason: "approval_required" });
      const approval = await outbox.queue.approve(held.queueItemId as string, { by: "ana" });
      expect(approval.approvedNow).toBe(true);
      expect(transport.sent.filter((sent) => sent.message.to === email)).toHaveLength(1);
      expect((await firstContacts()).filter((event) => event.data.destination === prefix)).toMatchObject([
        { actor: "ana", template: "refund_notice" },
      ]);
      // Known now: the next message goes out directly, and is not a first contact.
      const later = await send(email);
      expect(later.decision.outcome).toBe("send");
      expect(later.decision).not.toHaveProperty("firstContact");
    }
  });

  it("a queue opened on the store alone records an approved first contact when given the key", async () => {
    for (const key of [contactKey, undefined]) {
      const { send } = setUp({ hold: "template" });
      const email = `erin-${key === undefined ? "unkeyed" : "keyed"}@shop.example`;
      const held = await send(email);
      const queue = openHumanQueue(ctx.store, key === undefined ? {} : { contactKey: key });
      expect((await queue.release(held.queueItemId as string, { by: "erin" })).approvedNow).toBe(true);
      const prefix = destinationHash(contactKey, { channel: "email", to: email }).slice(0, 12);
      const recorded = (await firstContacts()).filter((event) => event.data.destination === prefix);
      expect(recorded).toHaveLength(key === undefined ? 0 : 1);
      // Recorded: the next message to it goes out; unrecorded: it is held again.
      expect((await send(email)).decision.outcome).toBe(key === undefined ? "escalate" : "send");
    }
    expect(() => openHumanQueue(ctx.store, { contactKey: "short" })).toThrow(/at least 32 bytes/);
  });

  it("without a contactKey nothing is recorded; a hold without one, or a short key, is refused at start-up", async () => {
    const { send } = setUp({ key: undefined });
    expect((await send("dan@shop.example")).decision).not.toHaveProperty("firstContact");
    expect(await firstContacts()).toEqual([]);
    for (const hold of ["template", "outbox"] as const) {
      let refused: unknown;
      try {
        setUp({ hold, key: undefined });
      } catch (error) {
        refused = error;
      }
      expect(isFormletterError(refused) && refused.message).toMatch(
        /holds first contacts, which needs contactKey/,
      );
    }
    expect(() => setUp({ key: "short" })).toThrow(/at least 32 bytes/);
  });

  it("the key matters: the same address under another key is another hash", () => {
    const to = { channel: "email" as const, to: "ana@shop.example" };
    expect(destinationHash(contactKey, to)).not.toBe(destinationHash(`${contactKey}!`, to));
    expect(destinationHash(contactKey, to)).not.toBe(destinationHash(contactKey, { ...to, channel: "sms" }));
  });

  if (kind === "sqlite") {
    it("the contacts table holds hashes only", async () => {
      const dir = mkdtempSync(join(tmpdir(), "formletter-contacts-"));
      const file = join(dir, "outbox.db");
      const store = sqliteStore(file);
      try {
        const catalog = refundCatalog({ refunds: { values: ["refund.amount"], max: { EUR: { day: 100 } } } });
        const ticket = refundTicket("T-1", {}, {}, "eve@shop.example");
        const outbox = createOutbox({
          catalog,
          load: () => ticket,
          store,
          transports: { email: memoryTransport() },
          contactKey,
        });
        expect(
          (await outbox.handle({ ticketId: "T-1", output: refundProposal(catalog, ticket), runId: "run-1" }))
            .decision,
        ).toHaveProperty("firstContact");
        await outbox.close();
        const db = new Database(file, { readonly: true });
        const rows = db.prepare("SELECT * FROM contacts").all();
        db.close();
        expect(rows).toHaveLength(1);
        expect(rows).toEqual([
          {
            destination: destinationHash(contactKey, { channel: "email", to: "eve@shop.example" }),
            template: "refund_notice",
            at: expect.any(Number),
          },
        ]);
      } finally {
        await store.close().catch(() => undefined);
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
