/**
 * The recipient-choice item: a recipient the model picks among several records is ✗ unless the template
 * declares it with `recipient: "model-chooses"` (then !). Joined recipients (a `match`, or a `where` that
 * compares the recipient with an earlier slot's record) are ✓ when the sample leaves one recipient per
 * choice of the other slots.
 */
import { buildChecklist, type Checklist, type ChecklistItem } from "formletter/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  chosenRecord,
  createCatalog,
  DefinitionError,
  defineRecords,
  defineTemplate,
  type TemplateConfig,
} from "../../src/index.js";

const schemas = {
  orders: z.object({ id: z.string(), number: z.string(), contactId: z.string(), region: z.string() }),
  contacts: z.object({ id: z.string(), email: z.email(), region: z.string() }),
};
const records = defineRecords(schemas);
const { slot } = records;

/** A notice about an order, to the recipient `to` picks; everything else fixed. */
const notice = (to: TemplateConfig["to"], more: Partial<TemplateConfig> = {}, definedBy = records) =>
  defineTemplate(definedBy, {
    id: "order_notice",
    description: "Tell the seller about an order",
    audience: "seller",
    channel: "email",
    effect: "informational",
    to,
    subject: "Order {{order}}",
    body: "About order {{order}}.",
    slots: { order: slot.ref("orders", { show: "number" }) },
    limits: { perTicket: 1, perDay: 100 },
    ...more,
  });

const contact = (id: string, region = "north") => ({ id, email: `${id}@seller.example`, region });
/** Two orders of two sellers; `contacts` as given. */
const sample = (contacts: readonly ReturnType<typeof contact>[]) => ({
  ticketId: "T-1",
  orders: [
    { id: "o1", number: "5501", contactId: "c1", region: "north" },
    { id: "o2", number: "5502", contactId: "c2", region: "north" },
  ],
  contacts,
});
const two = sample([contact("c1"), contact("c2")]);
const one = sample([contact("c1")]);

function choiceOf(checklist: Checklist): ChecklistItem {
  const found = checklist.items.find((entry) => entry.check === "recipient_choice");
  if (found === undefined) throw new Error("no recipient_choice item");
  return found;
}
const check = (template: ReturnType<typeof notice>, ticket: unknown, definedBy = records) =>
  buildChecklist(createCatalog(definedBy, [template]), { sample: ticket, propertyRuns: 20 });

describe("recipient choice: ✗ when the model picks the recipient among several records", () => {
  it("✗ with no join and two contacts on the sample, naming the count, the attack and the fix", () => {
    const checklist = check(notice(slot.ref("contacts", { show: "email" })), two);
    const choice = choiceOf(checklist);
    expect(choice).toMatchObject({ section: "template", template: "order_notice", status: "fail" });
    expect(choice.summary).toBe(
      "the model chooses which contacts record receives this message: 2 fit one choice of the other slots on the sample",
    );
    expect(choice.evidence).toContain("not joined to any other chosen record");
    expect(choice.evidence.join("\n")).toMatch(/instruction hidden in a ticket's text/);
    expect(choice.evidence.join("\n")).toMatch(/match .*recipient: "model-chooses"/);
    expect(checklist.ok).toBe(false);
  });

  it("✗ with no join though the sample holds one contact: the records allow many", () => {
    const choice = choiceOf(check(notice(slot.ref("contacts", { show: "email" })), one));
    expect(choice.status).toBe("fail");
    expect(choice.summary).toBe(
      "the model chooses which contacts record receives this message: nothing joins it to the other chosen records, and a ticket may hold 500 contacts records",
    );
    expect(choice.evidence).toContain(
      "on the sample: at most 1 contacts record for one choice of the other slots",
    );
  });

  it("✓ with no join when a ticket may hold only one record of each collection", () => {
    const single = defineRecords(schemas, { maxPerCollection: 1 });
    const template = notice(single.slot.ref("contacts", { show: "email" }), {}, single);
    const ticket = { ...one, orders: one.orders.slice(0, 1) };
    const choice = choiceOf(check(template, ticket, single));
    expect(choice).toMatchObject({
      status: "pass",
      summary: "decided by the records: a ticket holds at most 1 contacts record",
    });
  });

  it("✓ with a match on the recipient's id, with two contacts on the sample", () => {
    const checklist = check(
      notice(slot.ref("contacts", { show: "email", match: { id: "order.contactId" } })),
      two,
    );
    expect(choiceOf(checklist)).toMatchObject({
      status: "pass",
      summary: "decided by the other choices: joined to the order chosen",
      evidence: [
        "joined: match id = order.contactId",
        "on the sample: at most 1 contacts record for one choice of the other slots",
        "the join is on contacts.id, unique in a ticket: at most one record per choice, whatever the ticket holds",
      ],
    });
    expect(checklist.ok).toBe(true);
  });

  it("✗ with a match on a field that does not tell the contacts apart (both in the order's region)", () => {
    const choice = choiceOf(
      check(notice(slot.ref("contacts", { show: "email", match: { region: "order.region" } })), two),
    );
    expect(choice.status).toBe("fail");
    expect(choice.summary).toMatch(/: 2 fit one choice of the other slots on the sample$/);
    expect(choice.evidence[0]).toBe("joined: match region = order.region");
  });

  it("✓ the same match on a sample with one contact, saying the sample cannot tell", () => {
    const choice = choiceOf(
      check(notice(slot.ref("contacts", { show: "email", match: { region: "order.region" } })), one),
    );
    expect(choice.status).toBe("pass");
    expect(choice.evidence).toContain(
      "the join is on contacts.region, not contacts.id: several records may share it, and the sample holds 1 contacts record, too few to show it tells them apart; give it two",
    );
  });
});

describe("recipient choice: a where joins only when it compares the recipient with the other record", () => {
  const byWhere = (where: (contact: { id: string; region: string }, context: never) => boolean) =>
    notice(slot.ref("contacts", { show: "email", where: where as never }));

  it("✓ a where comparing the contact with the chosen order (looked up with chosenRecord)", () => {
    const template = notice(
      slot.ref("contacts", {
        show: "email",
        where: (contact, context) => chosenRecord(context, "order", "orders")?.contactId === contact.id,
      }),
    );
    for (const ticket of [one, two]) {
      expect(choiceOf(check(template, ticket))).toMatchObject({
        status: "pass",
        summary: "decided by the other choices: joined to the order chosen",
        evidence: [
          "joined: its where compares it with the order chosen",
          "on the sample: at most 1 contacts record for one choice of the other slots",
          expect.stringMatching(/^the join is on the where's comparison with order, not contacts\.id: /),
        ],
      });
    }
  });

  it.each([
    ["ignores its context", byWhere(() => true)],
    [
      "reads its context and ignores it",
      byWhere((_, context) => (context as { slots: object }).slots !== null),
    ],
    [
      "filters the other record by a literal",
      byWhere(
        (_, context) =>
          (context as { slots: { order?: { region?: string } } }).slots.order?.region === "north",
      ),
    ],
    ["filters the recipient by a literal", byWhere((contact) => contact.region === "north")],
    [
      "checks that the order has some contact, not that this one is the order's",
      byWhere((_, context) => {
        const { slots, records: ticket } = context as {
          slots: { order?: { contactId: string } };
          records: { contacts: { id: string }[] };
        };
        return ticket.contacts.some((entry) => entry.id === slots.order?.contactId);
      }),
    ],
    [
      "pins the recipient through the ticket's records, not the chosen order",
      byWhere(
        (contact, context) =>
          (context as { records: { orders: { contactId: string }[] } }).records.orders[0]?.contactId ===
          contact.id,
      ),
    ],
  ])("✗ a where that %s, with one contact on the sample", (_, template) => {
    const choice = choiceOf(check(template, one));
    expect(choice.status).toBe("fail");
    expect(choice.evidence[0]).toBe("not joined to any other chosen record");
  });

  it("✗ a where that picks the recipient by a key the model chooses: a choice is no join", () => {
    const template = defineTemplate(records, {
      id: "region_notice",
      description: "Tell the sellers of a region about an order",
      audience: "seller",
      channel: "email",
      effect: "informational",
      to: slot.ref("contacts", {
        show: "email",
        where: (contact, context) => contact.region === context.slots.region,
      }),
      subject: "Order {{order}}",
      body: "About order {{order}} in the {{region}}.",
      slots: {
        order: slot.ref("orders", { show: "number" }),
        region: slot.choice({ north: "north", south: "south" }),
      },
      limits: { perTicket: 1, perDay: 100 },
    });
    const choice = choiceOf(check(template, one));
    expect(choice.status).toBe("fail");
    expect(choice.evidence[0]).toBe("not joined to any other chosen record");
  });

  it("✗ a where that compares and also tests a literal: not recognised as a join (write the join as match)", () => {
    const template = byWhere(
      (contact, context) =>
        contact.region === "north" &&
        (context as { slots: { order?: { contactId?: string } } }).slots.order?.contactId === contact.id,
    );
    expect(choiceOf(check(template, one)).status).toBe("fail");
  });
});

describe('recipient: "model-chooses"', () => {
  it("turns the ✗ into a warning that says the model chooses, and why that matters", () => {
    const checklist = check(
      notice(slot.ref("contacts", { show: "email" }), { recipient: "model-chooses" }),
      two,
    );
    const choice = choiceOf(checklist);
    expect(choice).toMatchObject({
      status: "warn",
      summary:
        'the model chooses which contacts record receives this message (declared: recipient "model-chooses")',
    });
    expect(choice.evidence).toContain(
      "on the sample: at most 2 contacts records for one choice of the other slots",
    );
    expect(choice.evidence.join("\n")).toMatch(/instruction hidden in a ticket's text/);
    expect(checklist.ok).toBe(true);
  });

  it("says when the joins already decide the recipient it declares", () => {
    const choice = choiceOf(
      check(
        notice(slot.ref("contacts", { show: "email", match: { id: "order.contactId" } }), {
          recipient: "model-chooses",
        }),
        two,
      ),
    );
    expect(choice.status).toBe("warn");
    expect(choice.evidence).toContain(
      "the joins already decide the recipient on the sample: the declaration may not be needed",
    );
  });

  it.each(["model_chooses", "MODEL-CHOOSES", "records", "", true, 1, null, { kind: "model-chooses" }])(
    "refuses %j at definition, naming the template and the accepted value",
    (value) => {
      const define = () => notice(slot.ref("contacts", { show: "email" }), { recipient: value as never });
      expect(define).toThrow(DefinitionError);
      expect(define).toThrow(/template "order_notice": recipient must be "model-chooses" or left out/);
    },
  );

  it("is a compile error with any other value", () => {
    const define = () =>
      // @ts-expect-error: the option takes "model-chooses" only
      notice(slot.ref("contacts", { show: "email" }), { recipient: "records" });
    expect(define).toThrow(DefinitionError);
  });

  it("is kept on the compiled template, and unset when left out", () => {
    expect(
      notice(slot.ref("contacts", { show: "email" }), { recipient: "model-chooses" }).recipientChoice,
    ).toBe("model-chooses");
    expect(notice(slot.ref("contacts", { show: "email" })).recipientChoice).toBeUndefined();
  });
});

describe("recipient choice: every chosen record is linked to the recipient by joins", () => {
  const chain = defineRecords({
    orders: z.object({ id: z.string(), number: z.string(), sellerId: z.string() }),
    sellers: z.object({ id: z.string(), shopName: z.string() }),
    contacts: z.object({ id: z.string(), email: z.email(), sellerId: z.string() }),
  });
  const ticket = {
    ticketId: "T-2",
    orders: [
      { id: "o1", number: "5501", sellerId: "s1" },
      { id: "o2", number: "5502", sellerId: "s2" },
    ],
    sellers: [
      { id: "s1", shopName: "North Shop" },
      { id: "s2", shopName: "South Shop" },
    ],
    contacts: [
      { id: "c1", email: "north@seller.example", sellerId: "s1" },
      { id: "c2", email: "south@seller.example", sellerId: "s2" },
    ],
  };
  const withSeller = (seller: ReturnType<typeof chain.slot.ref<"sellers">>) =>
    createCatalog(chain, [
      defineTemplate(chain, {
        id: "order_notice",
        description: "Tell the seller about an order",
        audience: "seller",
        channel: "email",
        effect: "informational",
        to: chain.slot.ref("contacts", { show: "email", match: { sellerId: "seller.id" } }),
        subject: "Order {{order}}",
        body: "Hello {{seller}}, about order {{order}}.",
        slots: { order: chain.slot.ref("orders", { show: "number" }), seller },
        limits: { perTicket: 1, perDay: 100 },
      }),
    ]);
  const run = (catalog: ReturnType<typeof withSeller>) =>
    choiceOf(buildChecklist(catalog, { sample: ticket, propertyRuns: 20 }));

  it("✗ the recipient joined to a seller the model picks apart from the order: it picks who gets the order", () => {
    const choice = run(withSeller(chain.slot.ref("sellers", { show: "shopName" })));
    expect(choice.status).toBe("fail");
    expect(choice.summary).toBe(
      "the model chooses which contacts record receives the order chosen: the recipient is joined to the seller chosen, and nothing joins it to that",
    );
    expect(choice.evidence).toContain("not linked to the recipient by any chain of joins: order");
  });

  it("✓ once the seller is the order's, by match or by a where comparing them", () => {
    expect(
      run(withSeller(chain.slot.ref("sellers", { show: "shopName", match: { id: "order.sellerId" } }))),
    ).toMatchObject({
      status: "pass",
      summary: "decided by the other choices: joined to the seller chosen",
    });
    const byWhere = chain.slot.ref("sellers", {
      show: "shopName",
      where: (seller, context) => chosenRecord(context, "order", "orders")?.sellerId === seller.id,
    });
    expect(run(withSeller(byWhere)).status).toBe("pass");
  });
});
