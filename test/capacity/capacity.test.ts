import { describe, expect, it } from "vitest";
import { catalogCapacity } from "../../src/capacity/index.js";
import { isFormletterError } from "../../src/index.js";
import { catalog, sample } from "../fixtures/capacity-catalog.js";

const log3 = Math.log2(3);

describe("catalogCapacity on the two-template fixture", () => {
  it("counts candidates on a sample ticket (2 orders, 3 items, 1 customer, 2 notes) and multiplies out the limits", () => {
    const capacity = catalogCapacity(catalog, { sample });
    expect(capacity.basis).toEqual({
      kind: "sample",
      ticketId: "T-1",
      records: { orders: 2, items: 3, customers: 1, notes: 2 },
    });
    expect(capacity.templateChoices).toBe(2);
    const [status, note] = capacity.templates;

    // status_update: template 1 bit (2 templates) + order log2 2 = 1 + item log2 3 + status log2 3 (3 keys)
    //   + recipient log2 1 = 0  →  2 + 2·log2 3 = 5.1699 bits a message.
    expect(status?.slots.map((slot) => [slot.slot, slot.candidates])).toEqual([
      ["order", 2],
      ["item", 3],
      ["status", 3],
      ["to", 1],
    ]);
    expect(status?.templateBits).toBe(1);
    expect(status?.bitsPerMessage).toBeCloseTo(2 + 2 * log3, 12);
    // perTicket 2 → 2 messages, 4 + 4·log2 3 = 10.34 bits; perDay 100 → 200 + 200·log2 3 = 516.99 bits.
    expect(status?.perTicket.messages).toBe(2);
    expect(status?.perTicket.bits).toBeCloseTo(4 + 4 * log3, 12);
    expect(status?.perDay.messages).toBe(100);
    expect(status?.perDay.bits).toBeCloseTo(200 + 200 * log3, 9);

    // note_received: template 1 bit + note: 2 notes or none = 3 → log2 3 + recipient 0 → 1 + log2 3 = 2.585 bits.
    expect(note?.slots.map((slot) => [slot.slot, slot.candidates, slot.optional])).toEqual([
      ["note", 3, true],
      ["to", 1, false],
    ]);
    expect(note?.bitsPerMessage).toBeCloseTo(1 + log3, 12);
    expect(note?.perTicket).toEqual({ messages: 1, bits: note?.bitsPerMessage });
    expect(note?.perDay.bits).toBeCloseTo(50 + 50 * log3, 9);

    // Totals: per ticket 2 + 1 = 3 messages, (4 + 4·log2 3) + (1 + log2 3) = 5 + 5·log2 3 = 12.92 bits;
    // per day 100 + 50 = 150 messages, (200 + 200·log2 3) + (50 + 50·log2 3) = 250 + 250·log2 3 = 646.24 bits.
    expect(capacity.totals.perTicket.messages).toBe(3);
    expect(capacity.totals.perTicket.bits).toBeCloseTo(5 + 5 * log3, 9);
    expect(capacity.totals.perDay.messages).toBe(150);
    expect(capacity.totals.perDay.bits).toBeCloseTo(250 + 250 * log3, 9);
    expect(capacity.otherTicketsReachable).toBe(0);
  });

  it("decides every proposal on the sample: the joins leave 9 of 18 order/item/status proposals, all distinct", () => {
    const [status, note] = catalogCapacity(catalog, { sample }).templates;
    // Order o1 has items i1, i2 and o2 has i3: 3 valid pairs × 3 statuses = 9 messages of 2·3·3·1 = 18 proposals.
    expect(status?.sample).toEqual({ enumerated: true, proposals: 18, messages: 9, bits: Math.log2(9) });
    // Note n1, n2 or none: 3 distinct messages.
    expect(note?.sample).toEqual({ enumerated: true, proposals: 3, messages: 3, bits: log3 });
    const capped = catalogCapacity(catalog, { sample, maxProposals: 10 }).templates[0];
    expect(capped?.sample).toEqual({ enumerated: false, proposals: 18 });
  });

  it("without a sample, assumes records.maxPerCollection (8) per ref slot and says so", () => {
    const capacity = catalogCapacity(catalog);
    expect(capacity.basis).toEqual({ kind: "assumed", recordsPerCollection: 8, from: "maxPerCollection" });
    const [status, note] = capacity.templates;
    // status_update: 1 + log2 8 (order) + log2 8 (item) + log2 3 (status) + log2 8 (to) = 10 + log2 3.
    expect(status?.bitsPerMessage).toBeCloseTo(10 + log3, 12);
    // note_received: 1 + log2(8 + 1) (optional note) + log2 8 (to) = 4 + 2·log2 3.
    expect(note?.bitsPerMessage).toBeCloseTo(4 + 2 * log3, 12);
    expect(status?.sample).toBeUndefined();
    expect(capacity.notes[0]).toMatch(/assumed 8 records per collection \(records\.maxPerCollection/);

    const given = catalogCapacity(catalog, { recordsPerCollection: 1 });
    expect(given.basis).toEqual({ kind: "assumed", recordsPerCollection: 1, from: "given" });
    // One record a collection: only the template choice (1 bit), the status (log2 3) and the optional note remain.
    expect(given.templates[0]?.bitsPerMessage).toBeCloseTo(1 + log3, 12);
    expect(given.templates[1]?.bitsPerMessage).toBeCloseTo(2, 12);
  });

  it("a template with no candidate for a required slot cannot send on the sample: 0 messages, 0 bits", () => {
    const capacity = catalogCapacity(catalog, { sample: { ...sample, items: [] } });
    const status = capacity.templates[0];
    expect(status).toMatchObject({ canSend: false, bitsPerMessage: 0, perDay: { messages: 0, bits: 0 } });
    expect(capacity.totals.perDay.messages).toBe(50);
  });

  it("lists the fields shown and used as the address, with their labels and reader", () => {
    const capacity = catalogCapacity(catalog, { sample });
    const fields = capacity.templates.flatMap((template) => template.fields);
    expect(
      fields.map((field) => [
        field.template,
        field.slot,
        `${field.collection}.${field.field}`,
        field.use,
        field.label,
        field.shownTo,
      ]),
    ).toEqual([
      ["status_update", "order", "orders.number", "shown", "none", "customer"],
      ["status_update", "item", "items.title", "shown", "none", "customer"],
      ["status_update", "to", "customers.email", "recipient", "private", "customer"],
      ["note_received", "note", "notes.body", "shown", "untrusted", "customer"],
      ["note_received", "to", "customers.email", "recipient", "private", "customer"],
    ]);
    expect(fields[2]).toMatchObject({ readableBy: ["customer"] });
    expect(fields[3]).toMatchObject({ author: "customer" });
  });

  it("refuses an invalid sample with records_invalid", () => {
    let error: unknown;
    try {
      catalogCapacity(catalog, { sample: { ticketId: "T-1", orders: [{ id: 1 }] } });
    } catch (caught) {
      error = caught;
    }
    expect(isFormletterError(error) && error.code).toBe("records_invalid");
    expect((error as Error).message).toMatch(/sample ticket's records are invalid: orders\[0\]\.id/);
  });
});
