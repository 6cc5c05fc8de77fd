import { readFileSync } from "node:fs";
// As users import it: the checklist is public at formletter/testing.
import { buildChecklist, type Checklist, type ChecklistItem } from "formletter/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { CollectionSchemas } from "../../src/core/definition/define-records.js";
import {
  type Catalog,
  createCatalog,
  type Decision,
  defineRecords,
  defineTemplate,
  readableBy,
  type Template,
  untrusted,
} from "../../src/index.js";
import { hostileOutputs, hostileStrings } from "../../src/testing/index.js";
import { sellerCatalog } from "../../templates/seller.js";

const sellerSample: unknown = JSON.parse(
  readFileSync(new URL("../../examples/data/seller-sample-ticket.json", import.meta.url), "utf8"),
);

const item = (checklist: Checklist, check: ChecklistItem["check"], template?: string): ChecklistItem => {
  const found = checklist.items.find((entry) => entry.check === check && entry.template === template);
  if (found === undefined) throw new Error(`no ${check} item for ${template ?? "the catalog"}`);
  return found;
};
const failing = (checklist: Checklist) =>
  checklist.items
    .filter((entry) => entry.status === "fail")
    .map((entry) => `${entry.template ?? "-"}:${entry.check}`);

// Fields held by name so a test can label them after the templates were defined: a catalog built before a
// label existed, which `defineTemplate` could not refuse then and `decide` does not see now.
const contactId = z.string();
const noteText = z.string();
const orderNumber = z.string();
const records = defineRecords({
  orders: z.object({ id: z.string(), number: orderNumber, contactId }),
  contacts: z.object({ id: z.string(), email: z.email() }),
  notes: z.object({ id: z.string(), orderId: z.string(), text: noteText }),
});
const { slot } = records;
const base = {
  audience: "seller",
  channel: "email",
  to: slot.ref("contacts", { show: "email", match: { id: "order.contactId" } }),
  limits: { perTicket: 1, perDay: 100 },
} as const;
const notice = defineTemplate(records, {
  ...base,
  id: "order_notice",
  description: "Tell the seller about an order and the note on it",
  effect: "informational",
  subject: "Order {{order}}",
  body: "About order {{order}}: {{note}}.",
  slots: {
    order: slot.ref("orders", { show: "number" }),
    note: slot.ref("notes", { show: "text", match: { orderId: "order.id" } }),
  },
});
const payout = defineTemplate(records, {
  ...base,
  id: "payout",
  description: "Pay the seller for an order (a person approves it)",
  effect: "irreversible",
  approval: "human",
  subject: "Payout for {{order}}",
  body: "We paid out order {{order}}.",
  slots: { order: slot.ref("orders", { show: "number" }) },
});
const sample = {
  ticketId: "T-1",
  orders: [
    { id: "o1", number: "5501", contactId: "c1" },
    { id: "o2", number: "5502", contactId: "c1" },
  ],
  contacts: [{ id: "c1", email: "shop@seller.example" }],
  notes: [
    { id: "n1", orderId: "o1", text: "Fragile" },
    { id: "n2", orderId: "o2", text: "Gift wrap" },
  ],
};
const fast = { sample, propertyRuns: 100 } as const;

/**
 * A catalog object whose templates are replaced: createCatalog takes only what defineTemplate made, so a
 * copy can reach the checklist only inside a catalog object built by hand.
 */
function withTemplates<S extends CollectionSchemas>(
  catalog: Catalog<S>,
  templates: readonly Template[],
): Catalog<S> {
  return Object.freeze({ ...catalog, templates });
}

/** A catalog whose decide is replaced: what a broken or hostile catalog object would do. */
function withDecide<S extends CollectionSchemas>(
  catalog: Catalog<S>,
  decide: Catalog<S>["decide"],
): Catalog<S> {
  return Object.freeze({ ...catalog, decide });
}

describe("buildChecklist on the seller catalog and its bundled sample ticket", () => {
  let checklist: Checklist;
  beforeAll(() => {
    checklist = buildChecklist(sellerCatalog, { sample: sellerSample });
  }, 120_000);

  it("is all ✓ but one warning (money shown without a ceiling): ok", () => {
    expect(failing(checklist)).toEqual([]);
    expect(
      checklist.items
        .filter((entry) => entry.status === "warn")
        .map((entry) => `${entry.template}:${entry.check}`),
    ).toEqual(["cancellation_request:ceiling"]);
    expect(checklist.ok).toBe(true);
  });

  it("shows each template's value ceilings and first-contact policy", () => {
    expect(item(checklist, "ceiling", "refund_request")).toMatchObject({
      section: "controls",
      status: "pass",
      summary: "1 value ceiling",
      evidence: [
        "refunds: item.amount at most EUR 275 a message, 5000 a day; GBP 250 a message, 4000 a day; SEK 3000 a message, 50000 a day (group refunds; over it: refused)",
      ],
    });
    expect(item(checklist, "ceiling", "cancellation_request")).toMatchObject({
      status: "warn",
      summary:
        "no value ceiling though it shows money (orders.total): its worst case is bounded in messages, not in amounts",
    });
    expect(item(checklist, "ceiling", "damage_report").summary).toBe(
      "none needed: it shows no amount and is not irreversible",
    );
    expect(item(checklist, "first_contact", "refund_request").summary).toBe(
      "not set: the outbox's firstContact option decides",
    );
  });

  it("has every per-template item for each of the nine templates, computed from the definitions", () => {
    for (const template of sellerCatalog.templates) {
      for (const check of [
        "delivery",
        "recipient",
        "fields",
        "effect",
        "limits",
        "capacity",
        "locales",
      ] as const)
        expect(item(checklist, check, template.id).status).toBe("pass");
    }
    expect(item(checklist, "recipient", "refund_request").summary).toBe(
      "from sellers.email (id = order.sellerId)",
    );
    expect(item(checklist, "effect", "refund_request").summary).toBe('irreversible, approval "human"');
    expect(item(checklist, "effect", "damage_report").summary).toBe("informational, no approval");
    expect(item(checklist, "limits", "refund_request").summary).toBe("2 per ticket, 300 per day");
    expect(item(checklist, "fields", "refund_request").evidence).toContain(
      "item: formats with items.currency (no label)",
    );
    expect(item(checklist, "locales", "damage_report").summary).toBe(
      "en, de, es (default en), read from the records, never the model",
    );
    // 9 templates = 3.17 bits; 2 orders, 2 items, 4 reasons = 1 + 1 + 2 bits.
    expect(item(checklist, "capacity", "refund_request").summary).toBe("7.17 bits a message, 2150.98 a day");
  });

  it("runs the live checks with at least 50 hostile outputs and 20 hostile bodies, each ✓ with counts", () => {
    expect(hostileOutputs.length).toBeGreaterThanOrEqual(50);
    expect(hostileStrings.length).toBeGreaterThanOrEqual(20);
    expect(item(checklist, "hostile_outputs").summary).toMatch(
      new RegExp(
        `^${hostileOutputs.length} malformed outputs, (\\d+) decisions: \\1 escalated, none sent or threw$`,
      ),
    );
    const injection = item(checklist, "injection");
    expect(injection.summary).toMatch(
      new RegExp(`^${hostileStrings.length} hostile bodies × \\d+ text fields = \\d+ injected tickets`),
    );
    // Every template sends on the sample, so every one was replayed with injected records.
    expect(injection.evidence.join("\n")).not.toContain("send nothing on the sample");
    expect(Number(/(\d+) messages:/.exec(injection.summary)?.[1])).toBeGreaterThan(1000);
    expect(item(checklist, "properties").summary).toMatch(/^500 random decisions \(seed 1\): [1-9]\d* sent/);
  });
});

describe("buildChecklist: each ✗", () => {
  it("a good catalog with a sample is all ✓", () => {
    const checklist = buildChecklist(createCatalog(records, [notice, payout]), fast);
    expect(failing(checklist)).toEqual([]);
  });

  it("without a sample: the live checks are ✗ and say to pass --records", () => {
    const checklist = buildChecklist(createCatalog(records, [notice, payout]));
    expect(item(checklist, "sample")).toMatchObject({
      status: "fail",
      summary: "no sample ticket: pass --records",
    });
    expect(failing(checklist).filter((entry) => entry.startsWith("-:"))).toEqual([
      "-:sample",
      "-:hostile_outputs",
      "-:injection",
      "-:properties",
    ]);
    // Without a sample, capacity is the worst case the records definition allows: its maxPerCollection.
    expect(item(checklist, "capacity", "order_notice").evidence[0]).toMatch(
      /^no sample: \d+ records assumed/,
    );
    expect(checklist.ok).toBe(false);
  });

  it("an invalid sample is ✗ with the problem, and nothing is run on it", () => {
    const checklist = buildChecklist(createCatalog(records, [notice]), {
      sample: { ticketId: "T-1", orders: 7 },
    });
    expect(item(checklist, "sample").status).toBe("fail");
    expect(item(checklist, "sample").summary).toMatch(/^the sample ticket's records are invalid: /);
    expect(item(checklist, "injection").summary).toBe("not run: no valid sample ticket");
  });

  it("an irreversible template without approval, in a catalog object built by hand, is ✗", () => {
    const smuggled = Object.freeze({ ...payout, approval: undefined }) as Template;
    const checklist = buildChecklist(
      withTemplates(createCatalog(records, [notice, payout]), [notice, smuggled]),
      fast,
    );
    expect(item(checklist, "effect", "payout")).toMatchObject({
      status: "fail",
      summary: expect.stringMatching(/^irreversible without approval/),
    });
    expect(failing(checklist)).toEqual(["payout:effect"]);
  });

  it("an irreversible template without a ceiling is a warning (!), not ✗; first contact is shown as declared", () => {
    const held = defineTemplate(records, {
      ...base,
      id: "held_notice",
      description: "Tell the seller, holding a first message to a new address",
      effect: "informational",
      firstContact: "hold",
      subject: "Order {{order}}",
      body: "About order {{order}}.",
      slots: { order: slot.ref("orders", { show: "number" }) },
    });
    const checklist = buildChecklist(createCatalog(records, [payout, held]), fast);
    expect(item(checklist, "ceiling", "payout")).toMatchObject({
      status: "warn",
      summary:
        "no value ceiling though it is irreversible: its worst case is bounded in messages, not in amounts",
    });
    expect(item(checklist, "first_contact", "held_notice").summary).toBe(
      "hold: a message to a recipient never written to before waits for a person",
    );
    expect(checklist.ok).toBe(true);
  });

  it("a template without an effect (an older definition) is ✗", () => {
    const older = Object.freeze({ ...notice, effect: undefined }) as unknown as Template;
    const checklist = buildChecklist(withTemplates(createCatalog(records, [notice]), [older]), fast);
    expect(item(checklist, "effect", "order_notice").summary).toMatch(/^no effect declared/);
    expect(failing(checklist)).toEqual(["order_notice:effect"]);
  });

  it("a recipient chosen through a field an outsider wrote is ✗, naming the field and its author", () => {
    const labelled = defineRecords({
      orders: z.object({ id: z.string(), number: z.string(), contactId: z.string() }),
      contacts: z.object({ id: z.string(), email: z.email() }),
      notes: z.object({ id: z.string(), orderId: z.string(), text: z.string() }),
    });
    const template = defineTemplate(labelled, {
      ...base,
      to: labelled.slot.ref("contacts", { show: "email", match: { id: "order.contactId" } }),
      id: "order_notice",
      description: "Tell the seller about an order",
      effect: "informational",
      subject: "Order {{order}}",
      body: "About order {{order}}.",
      slots: { order: labelled.slot.ref("orders", { show: "number" }) },
    });
    // The buyer writes the contact id after the catalog was built: now the buyer picks the recipient.
    untrusted("seller", labelled.collections.orders.shape.contactId);
    const checklist = buildChecklist(createCatalog(labelled, [template]), fast);
    expect(item(checklist, "recipient", "order_notice")).toMatchObject({
      status: "fail",
      summary:
        "the recipient is chosen through a field an outsider wrote: contacts.email (id = order.contactId)",
      evidence: ['joins on orders.contactId: orders.contactId is written by "seller"'],
    });
    expect(failing(checklist)).toEqual(["order_notice:recipient"]);
  });

  it("a label problem (a shown field private to another role) is ✗", () => {
    const labelled = defineRecords({
      orders: z.object({ id: z.string(), number: z.string(), contactId: z.string() }),
      contacts: z.object({ id: z.string(), email: z.email() }),
    });
    const template = defineTemplate(labelled, {
      ...base,
      to: labelled.slot.ref("contacts", { show: "email", match: { id: "order.contactId" } }),
      id: "order_notice",
      description: "Tell the seller about an order",
      effect: "informational",
      subject: "Order {{order}}",
      body: "About order {{order}}.",
      slots: { order: labelled.slot.ref("orders", { show: "number" }) },
    });
    readableBy(["buyer"], labelled.collections.orders.shape.number);
    const checklist = buildChecklist(createCatalog(labelled, [template]), fast);
    expect(item(checklist, "fields", "order_notice")).toMatchObject({
      status: "fail",
      summary: "a label problem: 1 field the seller may not see",
    });
    expect(item(checklist, "fields", "order_notice").evidence[0]).toBe(
      'shows orders.number: orders.number it is readable only by "buyer", not by "seller"',
    );
    expect(failing(checklist)).toContain("order_notice:fields");
  });

  it.each([
    [{ perTicket: 1, perDay: 1_000_000 }, "perDay 1000000 is above 10000"],
    [{ perTicket: 50, perDay: 100 }, "perTicket 50 is above 10"],
  ])("unlimited-looking limits %j are ✗", (limits, problem) => {
    const loose = defineTemplate(records, {
      ...base,
      limits,
      id: "loose",
      description: "x",
      effect: "informational",
      subject: "Order {{order}}",
      body: "Order {{order}}.",
      slots: { order: slot.ref("orders", { show: "number" }) },
    });
    const checklist = buildChecklist(createCatalog(records, [loose]), fast);
    expect(item(checklist, "limits", "loose").status).toBe("fail");
    expect(item(checklist, "limits", "loose").evidence[0]).toMatch(new RegExp(`^${problem}`));
    expect(failing(checklist)).toEqual(["loose:limits"]);
    // A team that means it raises the threshold, and the item passes.
    expect(
      item(
        buildChecklist(createCatalog(records, [loose]), { ...fast, maxPerDay: 2_000_000, maxPerTicket: 100 }),
        "limits",
        "loose",
      ).status,
    ).toBe("pass");
  });

  it("capacity above the bits threshold is ✗", () => {
    const catalog = createCatalog(records, [notice, payout]);
    // notice: 1 bit (2 templates) + 1 bit (2 orders) + 1 bit (2 notes) = 3 bits.
    expect(
      item(buildChecklist(catalog, { ...fast, maxBitsPerMessage: 3 }), "capacity", "order_notice").status,
    ).toBe("pass");
    const checklist = buildChecklist(catalog, { ...fast, maxBitsPerMessage: 2.5 });
    expect(item(checklist, "capacity", "order_notice")).toMatchObject({
      status: "fail",
      summary: "3.00 bits a message, 300.00 a day: above 2.5 bits a message",
    });
  });

  it("a catalog that sends a malformed output is ✗ on the hostile-output fuzz, with the first failing case", () => {
    const catalog = createCatalog(records, [notice]);
    const valid = {
      template: "order_notice",
      slots: { order: handle(catalog, "orders", "o1"), note: handle(catalog, "notes", "n1") },
    };
    // A catalog object whose decide "repairs" prose into a proposal: a string output gets sent.
    const lenient = withDecide(catalog, (output, ticket) =>
      catalog.decide(typeof output === "string" ? valid : output, ticket),
    );
    const hostile = item(buildChecklist(lenient, fast), "hostile_outputs");
    expect(hostile.status).toBe("fail");
    expect(hostile.evidence[0]).toBe(
      'first failing case: output #1 "Sure! I have e-mailed the customer." was sent (template order_notice)',
    );
  });

  it("a catalog whose decide throws on a malformed output is ✗ on the fuzz, not a crash", () => {
    const catalog = createCatalog(records, [notice]);
    const throwing = withDecide(catalog, (output, ticket) => {
      if (output === null) throw new TypeError("cannot read properties of null");
      return catalog.decide(output, ticket);
    });
    const hostile = item(buildChecklist(throwing, fast), "hostile_outputs");
    expect(hostile.status).toBe("fail");
    expect(hostile.evidence[0]).toBe(
      "first failing case: output #6 null threw: cannot read properties of null",
    );
  });

  it("injected text reaching a reader its label forbids is ✗ on the injection corpus", () => {
    const labelled = defineRecords({
      orders: z.object({ id: z.string(), number: z.string(), contactId: z.string() }),
      contacts: z.object({ id: z.string(), email: z.email() }),
      notes: z.object({ id: z.string(), orderId: z.string(), text: z.string() }),
    });
    const template = defineTemplate(labelled, {
      ...base,
      to: labelled.slot.ref("contacts", { show: "email", match: { id: "order.contactId" } }),
      id: "order_notice",
      description: "Tell the seller about an order and the note on it",
      effect: "informational",
      subject: "Order {{order}}",
      body: "About order {{order}}: {{note}}.",
      slots: {
        order: labelled.slot.ref("orders", { show: "number" }),
        note: labelled.slot.ref("notes", { show: "text", match: { orderId: "order.id" } }),
      },
    });
    // The buyer writes the note: a seller must never read it.
    untrusted("buyer", labelled.collections.notes.shape.text);
    const injection = item(buildChecklist(createCatalog(labelled, [template]), fast), "injection");
    expect(injection.status).toBe("fail");
    expect(injection.evidence[0]).toMatch(
      /^first failing case: order_notice with notes\.text holding corpus body #\d+ "[^"]*": the injected text reached the seller, but it is untrusted text written by "buyer"/,
    );
  });

  /** A catalog object that adds a link to every message it sends: what a broken render step would do. */
  const appendingLink = () => {
    const catalog = createCatalog(records, [notice]);
    return withDecide(catalog, (output, ticket) => {
      const decision: Decision = catalog.decide(output, ticket);
      if (decision.outcome !== "send") return decision;
      return {
        ...decision,
        message: { ...decision.message, text: `${decision.message.text} https://evil.example/r` },
      };
    });
  };

  it("a message that does not pass the outbound scan is ✗ on the injection corpus", () => {
    const injection = item(buildChecklist(appendingLink(), fast), "injection");
    expect(injection.status).toBe("fail");
    expect(injection.evidence[0]).toMatch(
      /^first failing case: order_notice with orders\.number holding corpus body #\d+ .*: the text was sent holding a url that is neither template text nor a resolved value$/,
    );
  });

  it("a catalog whose messages are not its templates rendered is ✗ on the testing properties", () => {
    const properties = item(buildChecklist(appendingLink(), fast), "properties");
    expect(properties.status).toBe("fail");
    expect(properties.summary).toMatch(
      /^100 random decisions \(seed 1\): \d+ sent, \d+ escalated; \d+ properties did not hold$/,
    );
    expect(properties.evidence[0]).toMatch(
      /^first failing case: message_is_template_and_values \(template order_notice\)/,
    );
  });
});

function handle<S extends CollectionSchemas>(catalog: Catalog<S>, collection: string, id: string): string {
  const found = catalog.handles(sample).get(collection, id);
  if (found === undefined) throw new Error(`no handle for ${collection} ${id}`);
  return found;
}
