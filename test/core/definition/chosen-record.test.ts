import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import {
  chosenRecord,
  createCatalog,
  defineRecords,
  defineTemplate,
  readableBy,
} from "../../../src/index.js";

// A bike workshop telling a customer which mechanic has their repair.
const records = defineRecords({
  repairs: z.object({ id: z.string(), ref: z.string(), mechanicId: z.string() }),
  mechanics: z.object({ id: z.string(), name: z.string(), wage: readableBy(["staff"], z.number()) }),
  customers: z.object({ id: z.string(), email: z.email() }),
});
const { slot } = records;
const seen: unknown[] = [];
const template = defineTemplate(records, {
  id: "repair_assigned",
  description: "Tell the customer who repairs their bike",
  audience: "customer",
  effect: "informational",
  channel: "email",
  to: slot.ref("customers", { show: "email" }),
  subject: "Repair {{repair}}",
  body: "Your repair {{repair}} is with {{mechanic}}.",
  slots: {
    repair: slot.ref("repairs", { show: "ref" }),
    mechanic: slot.derived((context) => {
      const repair = chosenRecord(context, "repair", "repairs");
      expectTypeOf(repair).toEqualTypeOf<{ id: string; ref: string; mechanicId: string } | undefined>();
      seen.push(chosenRecord(context, "repair", "mechanics"), chosenRecord(context, "nope", "repairs"));
      const mechanic = context.records.mechanics.find((row) => row.id === repair?.mechanicId);
      seen.push(mechanic);
      return mechanic?.name;
    }),
  },
  limits: { perTicket: 1, perDay: 100 },
});
const catalog = createCatalog(records, [template]);
const ticket = {
  ticketId: "B-1",
  repairs: [
    { id: "r1", ref: "R-100", mechanicId: "m2" },
    { id: "r2", ref: "R-200", mechanicId: "m1" },
  ],
  mechanics: [
    { id: "m1", name: "Ada", wage: 21 },
    { id: "m2", name: "Ben", wage: 23 },
  ],
  customers: [{ id: "c1", email: "rider@example.com" }],
};

describe("chosenRecord", () => {
  it("gives a derived slot the record chosen for an earlier slot, typed by its collection", () => {
    seen.length = 0;
    const repair = catalog.handles(ticket).get("repairs", "r1");
    const decision = catalog.decide({ template: "repair_assigned", slots: { repair } }, ticket);
    expect(decision.outcome).toBe("send");
    expect(decision.outcome === "send" && decision.message.text).toBe("Your repair R-100 is with Ben.");
  });

  it("is undefined for a slot of another collection or a slot that does not exist", () => {
    seen.length = 0;
    const repair = catalog.handles(ticket).get("repairs", "r2");
    catalog.decide({ template: "repair_assigned", slots: { repair } }, ticket);
    expect(seen[0]).toBeUndefined();
    expect(seen[1]).toBeUndefined();
  });

  it("hands a derived slot only what its audience may read", () => {
    seen.length = 0;
    const repair = catalog.handles(ticket).get("repairs", "r2");
    catalog.decide({ template: "repair_assigned", slots: { repair } }, ticket);
    expect(seen[2]).toEqual({ id: "m1", name: "Ada" });
  });
});
