/**
 * The sends item: a template that produces no message on the sample (every proposal the model could make
 * escalates) is ✗ with the reasons, not a note under another check.
 */
import { buildChecklist, type Checklist, type ChecklistItem } from "formletter/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { CollectionSchemas } from "../../src/core/definition/define-records.js";
import {
  type Catalog,
  createCatalog,
  defineRecords,
  defineTemplate,
  type TemplateConfig,
} from "../../src/index.js";

const records = defineRecords({
  orders: z.object({ id: z.string(), number: z.string(), contactId: z.string(), status: z.string() }),
  contacts: z.object({ id: z.string(), email: z.email() }),
});
const { slot } = records;
const to = slot.ref("contacts", { show: "email", match: { id: "order.contactId" } });

const notice = (id: string, order: TemplateConfig["to"], more: Partial<TemplateConfig> = {}) =>
  defineTemplate(records, {
    id,
    description: "Tell the seller about an order",
    audience: "seller",
    channel: "email",
    effect: "informational",
    to,
    subject: "Order {{order}}",
    body: "About order {{order}}.",
    slots: { order },
    limits: { perTicket: 1, perDay: 100 },
    ...more,
  });

const sample = {
  ticketId: "T-1",
  orders: [
    { id: "o1", number: "5501", contactId: "c1", status: "open" },
    { id: "o2", number: "5502", contactId: "c1", status: "open" },
  ],
  contacts: [{ id: "c1", email: "shop@seller.example" }],
};

const sends = (checklist: Checklist, template: string): ChecklistItem => {
  const found = checklist.items.find((entry) => entry.check === "sends" && entry.template === template);
  if (found === undefined) throw new Error(`no sends item for ${template}`);
  return found;
};
const run = <S extends CollectionSchemas>(catalog: Catalog<S>, ticket: unknown = sample) =>
  buildChecklist(catalog, { sample: ticket, propertyRuns: 20 });

describe("sends: ✗ for a template that sends nothing on the sample", () => {
  const good = notice("order_notice", slot.ref("orders", { show: "number" }));
  const closedOnly = notice(
    "closed_notice",
    slot.ref("orders", { show: "number", where: (order) => order.status === "closed" }),
  );

  it("✓ with the count when some proposals send", () => {
    expect(sends(run(createCatalog(records, [good])), "order_notice")).toMatchObject({
      section: "live",
      status: "pass",
      summary: "2 of 2 proposals produce a message on the sample (sent, or a draft for approval)",
    });
  });

  it("✗ when a where refuses every record, naming the reason and the slot, and the catalog is not ok", () => {
    const checklist = run(createCatalog(records, [good, closedOnly]));
    const item = sends(checklist, "closed_notice");
    expect(item).toMatchObject({
      section: "live",
      status: "fail",
      summary: "sends nothing on the sample: all 2 proposals the model could make escalate",
    });
    expect(item.evidence[0]).toBe('escalations: slot_rejected on slot "order": 2');
    expect(checklist.ok).toBe(false);
    // The injection check no longer carries it as a note.
    const injection = checklist.items.find((entry) => entry.check === "injection");
    expect(injection?.evidence.join("\n")).not.toMatch(/send nothing/);
  });

  it("✗ when a match never holds (the recipient's id against the order's own id)", () => {
    const template = notice("order_notice", slot.ref("orders", { show: "number" }), {
      to: slot.ref("contacts", { show: "email", match: { id: "order.id" } }),
    });
    const item = sends(run(createCatalog(records, [template])), "order_notice");
    expect(item.status).toBe("fail");
    expect(item.evidence[0]).toMatch(/^escalations: slot_rejected on slot "to": 2$/);
  });

  it("✗ when the sample holds no record of a slot's collection: nothing to choose", () => {
    const item = sends(run(createCatalog(records, [good]), { ...sample, orders: [] }), "order_notice");
    expect(item).toMatchObject({
      status: "fail",
      summary: "sends nothing on the sample: a slot has no record or key to choose",
    });
  });

  it("says when only the first proposals were decided", () => {
    const many = {
      ticketId: "T-2",
      orders: Array.from({ length: 80 }, (_, index) => ({
        id: `o${index}`,
        number: `55${index}`,
        contactId: `c${index}`,
        status: "open",
      })),
      contacts: Array.from({ length: 80 }, (_, index) => ({
        id: `c${index}`,
        email: `shop${index}@seller.example`,
      })),
    };
    const item = sends(run(createCatalog(records, [closedOnly]), many), "closed_notice");
    expect(item.summary).toBe(
      "sends nothing on the sample: all 5000 (the first of 6400) proposals the model could make escalate",
    );
  });

  it("✗ with what was thrown when the catalog's decide throws, not a crash", () => {
    const catalog = createCatalog(records, [good]);
    const broken = Object.freeze({
      ...catalog,
      decide: () => {
        throw new Error("decide broke");
      },
    }) as typeof catalog;
    expect(sends(run(broken), "order_notice")).toMatchObject({
      status: "fail",
      summary: "the check threw: decide broke",
    });
  });
});
