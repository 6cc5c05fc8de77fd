import { describe, expect, it } from "vitest";
import { z } from "zod";
import { isPreparedTicket } from "../../../src/core/decision/ticket.js";
import { createCatalog, defineRecords, defineTemplate, format } from "../../../src/index.js";
import { propertyCatalog, propertyTicket, proposal, visitRequest } from "../../fixtures/property.js";

const prepared = () => {
  const result = propertyCatalog.prepare(propertyTicket("T-1"));
  if (!result.ok) throw new Error("fixture: the ticket must prepare");
  return result.ticket;
};

/**
 * An object shaped like a prepared ticket, carrying every brand an older version checked, whose one
 * contractor has an address the ticket never held: deciding on it as if prepared would send there.
 */
function forged() {
  const real = prepared();
  const contractor = { id: "C-T-1", name: "Mallory", email: "mallory@attacker.example" };
  const collections = new Map(real.collections);
  const handle = real.collections.get("contractors")?.handles[0] as string;
  collections.set("contractors", {
    records: [contractor],
    handles: [handle],
    byHandle: new Map([[handle, contractor]]),
    handleOf: new Map([[contractor, handle]]),
  });
  return {
    [Symbol.for("formletter.preparedTicket")]: true,
    ticketId: real.ticketId,
    view: { ...real.view, contractors: [contractor] },
    collections,
  };
}

describe("the prepared-ticket marker", () => {
  it("a ticket catalog.prepare made is prepared, and decides as its records do", () => {
    const ticket = prepared();
    expect(isPreparedTicket(ticket)).toBe(true);
    expect(propertyCatalog.decide(proposal("T-1"), ticket)).toEqual(
      propertyCatalog.decide(proposal("T-1"), propertyTicket("T-1")),
    );
  });

  it("an object from outside with the old Symbol.for brand is not prepared, and is validated as records", () => {
    const fake = forged();
    expect(isPreparedTicket(fake)).toBe(false);
    const decision = propertyCatalog.decide(proposal("T-1"), fake);
    expect(decision).toMatchObject({ outcome: "escalate", reason: "records_invalid" });
    expect(JSON.stringify(decision)).not.toContain("attacker");
  });

  it("a copy of a prepared ticket is not prepared", () => {
    const copy = { ...prepared() };
    expect(isPreparedTicket(copy)).toBe(false);
    expect(isPreparedTicket(Object.create(prepared()))).toBe(false);
  });

  it("a ticket prepared against another records definition is validated again", () => {
    // The same collection names with looser schemas: its prepared tickets must not pass as this catalog's.
    const loose = defineRecords({
      contractors: z.object({ id: z.string(), name: z.string().optional(), email: z.string() }),
      work_orders: z.object({ id: z.string() }),
    });
    const other = createCatalog(loose, [
      defineTemplate(loose, {
        id: "note",
        description: "A note",
        audience: "contractor",
        effect: "informational",
        channel: "email",
        to: loose.slot.ref("contractors", { show: "email", as: format.email() }),
        subject: "Note",
        body: "A note.",
        limits: { perTicket: 1, perDay: 1 },
      }),
    ]);
    const result = other.prepare({
      ticketId: "T-1",
      contractors: [{ id: "C-T-1", email: "c@example.com" }],
      work_orders: [{ id: "W-1" }],
    });
    if (!result.ok) throw new Error("fixture: the loose ticket must prepare");
    expect(isPreparedTicket(result.ticket)).toBe(true);
    expect(propertyCatalog.prepare(result.ticket).ok).toBe(false);
    expect(propertyCatalog.decide({ template: visitRequest.id, slots: {} }, result.ticket)).toMatchObject({
      outcome: "escalate",
      reason: "records_invalid",
    });
  });
});
