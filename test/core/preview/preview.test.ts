import { describe, expect, it } from "vitest";
import { z } from "zod";
import { previewTicket } from "../../../src/core/preview/index.js";
import { createCatalog, defineRecords, defineTemplate } from "../../../src/index.js";
import { sellerCatalog } from "../../../templates/seller.js";
import { largestSellerTicket } from "./tickets.js";

const records = defineRecords(
  {
    orders: z.object({ id: z.string(), number: z.string() }),
    contacts: z.object({ id: z.string(), email: z.email() }),
  },
  { maxPerCollection: 2000 },
);
const { slot } = records;
const notice = defineTemplate(records, {
  id: "order_notice",
  description: "Tell a contact about an order",
  audience: "seller",
  effect: "informational",
  channel: "email",
  to: slot.ref("contacts", { show: "email" }),
  subject: "Order {{order}}",
  body: "About order {{order}}: {{#note}}{{note}}{{/note}}.",
  slots: {
    order: slot.ref("orders", { show: "number" }),
    note: slot.choice({ late: "it is late", lost: "it is lost" }, { optional: true }),
  },
  limits: { perTicket: 1, perDay: 100 },
});
const refund = defineTemplate(records, {
  id: "refund",
  description: "Refund an order (a person approves it)",
  audience: "seller",
  effect: "irreversible",
  channel: "email",
  to: slot.ref("contacts", { show: "email" }),
  subject: "Refund for {{order}}",
  body: "We refunded order {{order}}.",
  slots: { order: slot.ref("orders", { show: "number" }) },
  limits: { perTicket: 1, perDay: 10 },
  approval: "human",
});
const catalog = createCatalog(records, [notice, refund]);

const orders = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ id: `o${index}`, number: `44-${index}` }));
const contacts = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ id: `c${index}`, email: `c${index}@shop.example` }));

describe("catalog.preview", () => {
  it("counts each template's combinations, lists the distinct messages and gives their bits", () => {
    const preview = catalog.preview({ ticketId: "T-1", orders: orders(2), contacts: contacts(1) });
    if (!preview.ok) throw new Error(preview.problem);
    const [noticePreview] = preview.templates;
    // order: 2 records or left out; note: 2 keys or none; to: 1 record or left out.
    expect(noticePreview?.combinations).toBe(3 * 3 * 2);
    expect(noticePreview?.messages).toHaveLength(2 * 3);
    expect(noticePreview?.bits).toBeCloseTo(Math.log2(6));
    expect(noticePreview?.messages.map((entry) => entry.message.text)).toContain(
      "About order 44-1: it is lost.",
    );
    // Leaving out the order is refused (two fit); leaving out the contact picks the only one.
    expect(noticePreview?.escalations).toEqual([
      expect.objectContaining({ reason: "invalid_proposal", count: 3 * 2 }),
    ]);
    expect(preview.messages).toBe(6 + 2);
    expect(preview.bits).toBeCloseTo(Math.log2(8));
    expect(preview.exact).toBe(true);
  });

  it("shows an approval template's drafts as needing approval, exactly as decide() drafts them", () => {
    const ticket = { ticketId: "T-1", orders: orders(2), contacts: contacts(2) };
    const preview = catalog.preview(ticket, { templates: ["refund"] });
    if (!preview.ok) throw new Error(preview.problem);
    const [refundPreview] = preview.templates;
    expect(refundPreview?.approval).toBe("human");
    expect(refundPreview?.effect).toBe("irreversible");
    expect(catalog.preview(ticket, { templates: ["order_notice"] })).toMatchObject({
      templates: [{ template: "order_notice", effect: "informational", approval: undefined }],
    });
    expect(refundPreview?.messages).toHaveLength(4);
    for (const entry of refundPreview?.messages ?? []) {
      expect(entry.outcome).toBe("approval");
      const decision = catalog.decide(entry.proposal, ticket);
      expect(decision.outcome === "escalate" && decision.reason).toBe("approval_required");
      expect(decision.outcome === "escalate" && decision.draft).toEqual(entry.message);
    }
    expect(refundPreview?.escalations.map((group) => group.reason)).not.toContain("approval_required");
  });

  it("decides at most `limit` combinations per template and says how many more there are", () => {
    const ticket = { ticketId: "T-1", orders: orders(2000), contacts: contacts(2000) };
    let decided = 0;
    const counting = {
      ...catalog,
      decide: (output: unknown, given: unknown) => {
        decided += 1;
        return catalog.decide(output, given);
      },
    };
    const preview = previewTicket(counting, ticket, { limit: 25 });
    if (!preview.ok) throw new Error(preview.problem);
    expect(decided).toBe(50);
    const [noticePreview] = preview.templates;
    expect(noticePreview?.combinations).toBe(2001 * 3 * 2001);
    expect(noticePreview?.decided).toBe(25);
    expect(noticePreview?.more).toBe(2001 * 3 * 2001 - 25);
    expect(noticePreview?.exact).toBe(false);
    expect(preview.exact).toBe(false);
    expect(preview.more).toBe(2001 * 3 * 2001 - 25 + (2001 * 2001 - 25));
  });

  it("pages through the combinations with offset: the pages together hold the whole preview", () => {
    const ticket = { ticketId: "T-1", orders: orders(3), contacts: contacts(2) };
    const whole = catalog.preview(ticket, { templates: ["order_notice"] });
    if (!whole.ok) throw new Error(whole.problem);
    const keys = new Set<string>();
    for (let offset = 0; offset < (whole.templates[0]?.combinations ?? 0); offset += 7) {
      const page = catalog.preview(ticket, { templates: ["order_notice"], limit: 7, offset });
      if (!page.ok) throw new Error(page.problem);
      for (const entry of page.templates[0]?.messages ?? []) keys.add(entry.key);
    }
    expect([...keys].sort()).toEqual(whole.templates[0]?.messages.map((entry) => entry.key).sort());
  });

  it("takes hostile ids (__proto__, constructor) as ordinary records", () => {
    const ticket = {
      ticketId: "__proto__",
      orders: [
        { id: "__proto__", number: "1" },
        { id: "constructor", number: "2" },
      ],
      contacts: [{ id: "hasOwnProperty", email: "a@shop.example" }],
    };
    const preview = catalog.preview(ticket);
    if (!preview.ok) throw new Error(preview.problem);
    expect(preview.templates[0]?.messages.map((entry) => entry.message.subject).sort()).toEqual([
      "Order 1",
      "Order 1",
      "Order 1",
      "Order 2",
      "Order 2",
      "Order 2",
    ]);
    expect(Object.getPrototypeOf(preview.templates[0]?.messages[0]?.proposal.slots)).toBe(Object.prototype);
  });

  it("on a ticket with no records, every template only escalates, and says why", () => {
    const preview = catalog.preview({ ticketId: "T-1" });
    if (!preview.ok) throw new Error(preview.problem);
    expect(preview.messages).toBe(0);
    expect(preview.bits).toBe(0);
    for (const template of preview.templates) {
      expect(template.messages).toEqual([]);
      expect(template.escalations.map((group) => group.reason)).toEqual(["slot_rejected"]);
      expect(template.escalations[0]?.examples[0]?.detail).toMatch(/no orders record of this ticket fits/);
    }
  });

  it("returns invalid records as a result, never a throw", () => {
    for (const input of [undefined, null, 42, "T-1", [], { ticketId: 1 }, { ticketId: "T", nope: [] }]) {
      const preview = catalog.preview(input);
      expect(preview.ok).toBe(false);
      expect(!preview.ok && preview.reason).toBe("records_invalid");
    }
    const throwing = new Proxy(
      {},
      {
        get() {
          throw new Error("hostile");
        },
      },
    );
    expect(catalog.preview(throwing).ok).toBe(false);
  });

  it("refuses a limit or offset that is not a whole number", () => {
    const ticket = { ticketId: "T-1" };
    for (const limit of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => catalog.preview(ticket, { limit })).toThrow(RangeError);
    expect(() => catalog.preview(ticket, { offset: -3 })).toThrow(RangeError);
  });

  it("previews the largest bundled seller ticket with sends and escalations by reason", () => {
    const preview = sellerCatalog.preview(largestSellerTicket());
    if (!preview.ok) throw new Error(preview.problem);
    expect(preview.messages).toBeGreaterThan(10);
    expect(preview.templates.every((template) => template.exact)).toBe(true);
    const reasons = new Set(preview.templates.flatMap((t) => t.escalations.map((group) => group.reason)));
    expect(reasons.has("slot_rejected")).toBe(true);
  });
});

describe("preview of localised templates", () => {
  it("counts a localised template's messages by the locale the recipient's records give", () => {
    const ticket = largestSellerTicket() as unknown as { sellers: Record<string, unknown>[] };
    const sellers = ticket.sellers.map((seller) => ({ ...seller, locale: "de-AT" }));
    const preview = previewTicket(sellerCatalog, { ...ticket, sellers });
    if (!preview.ok) throw new Error(preview.problem);
    const tracking = preview.templates.find((template) => template.template === "tracking_request");
    expect(tracking?.messages.length).toBeGreaterThan(0);
    // de-AT falls back to the German text: every message is written in it.
    expect(tracking?.byLocale).toEqual({ de: tracking?.messages.length });
    expect(tracking?.messages.every(({ message }) => message.locale === "de")).toBe(true);
    const unlocalised = preview.templates.find((template) => template.template === "missing_item");
    expect(unlocalised?.byLocale).toBeUndefined();
  });
});
