import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { RecordsDefinition } from "../../../src/core/definition/define-records.js";
import { labelTree } from "../../../src/core/definition/label-tree.js";
import type { CollectionSchemas } from "../../../src/core/definition/record-types.js";
import type { Slot } from "../../../src/core/definition/slots.js";
import {
  createCatalog,
  defineRecords,
  defineTemplate,
  format,
  readableBy,
  untrusted,
} from "../../../src/index.js";
import { thrown } from "../../fixtures/expect.js";
import { recordsWith, showField } from "../../fixtures/show-field.js";

const buyerText = () => untrusted("buyer", z.string());

/** Every way a user may compose a labelled string field; each must keep the label. */
const compositions: [string, () => z.ZodType][] = [
  ["max()", () => buyerText().max(2000)],
  ["trim()", () => buyerText().trim()],
  ["min().max().trim()", () => buyerText().min(1).max(100).trim()],
  ["describe()", () => buyerText().describe("what the buyer wrote")],
  ["meta()", () => buyerText().meta({ title: "note" })],
  ["refine()", () => buyerText().refine((value) => value.length < 500)],
  ["superRefine()", () => buyerText().superRefine(() => undefined)],
  ["transform()", () => buyerText().transform((value) => value.toUpperCase())],
  ["pipe()", () => buyerText().pipe(z.string().max(10))],
  ["pipe() into the labelled schema", () => z.string().pipe(buyerText())],
  ["preprocess()", () => z.preprocess((value) => String(value), buyerText())],
  ["optional()", () => buyerText().optional()],
  ["nullable()", () => buyerText().nullable()],
  ["nullish()", () => buyerText().nullish()],
  ["default()", () => buyerText().default("none")],
  ["catch()", () => buyerText().catch("none")],
  ["readonly()", () => buyerText().readonly()],
  ["brand()", () => buyerText().brand<"note">()],
  ["or()", () => buyerText().or(z.number())],
  ["z.union with an unlabelled branch", () => z.union([z.number(), buyerText()])],
  ["z.intersection", () => z.intersection(z.string(), buyerText())],
  ["z.lazy", () => z.lazy(() => buyerText())],
  [
    "z.templateLiteral with a labelled part",
    () => z.templateLiteral(["seat ", buyerText(), "-", z.number()]),
  ],
  [
    "z.templateLiteral with a labelled part under a wrapper",
    () => z.templateLiteral([z.number(), buyerText().optional()]),
  ],
  ["z.function returning a labelled value", () => z.function({ input: [], output: buyerText() })],
  ["label then chain then label-free wrapper", () => buyerText().max(5).optional().describe("x").nullable()],
  ["labelled wrapper", () => untrusted("buyer", z.string().optional())],
  [
    "labelled pipe",
    () =>
      untrusted(
        "buyer",
        z.string().transform((v) => v.trim()),
      ),
  ],
];

const sellerTemplate = (field: z.ZodType, audience = "seller") => showField(recordsWith(field), audience);

describe("a field label survives every zod composition", () => {
  it.each(compositions)("%s: shown to a seller, the buyer's text fails the definition", (_name, build) => {
    const error = thrown(() => sellerTemplate(build()));
    expect(error.message).toContain("nodes.field");
    expect(error.message).toContain('untrusted text written by "buyer"');
  });

  it.each(compositions)("%s: shown back to its author, it is accepted", (_name, build) => {
    expect(sellerTemplate(build(), "buyer").id).toBe("show_field");
  });

  it("labels the schema passed in, so a label whose return value is ignored still holds", () => {
    const body = z.string();
    untrusted("buyer", body);
    thrown(() => sellerTemplate(body));
  });

  it("reads a label set by another copy of formletter (a bundled CLI, a second install)", async () => {
    vi.resetModules();
    const other = (await import(
      "../../../src/core/definition/labels.js"
    )) as typeof import("../../../src/core/definition/labels.js");
    const schema = z.object({ id: z.string(), note: other.untrusted("buyer", z.string()).max(10) });
    expect(labelTree(schema).fields.get("note")?.own).toEqual([{ kind: "untrusted", author: "buyer" }]);
  });

  it("applies a label on an object, a union branch or an array to everything inside", () => {
    const cases: z.ZodType[] = [
      untrusted("buyer", z.object({ text: z.string() })).transform((o) => o.text),
      z.object({ text: z.string() }).or(z.string()).pipe(z.any()).and(buyerText()),
      z.array(buyerText()).transform((list) => list.join(" ")),
      z.tuple([z.string(), buyerText()]).transform((pair) => pair.join(" ")),
      z.record(buyerText(), z.string()).transform((r) => Object.keys(r).join(" ")),
      z.map(z.string(), buyerText()).transform(() => "x"),
      z.set(buyerText()).transform(() => "x"),
      z
        .looseObject({ a: z.string() })
        .catchall(buyerText())
        .transform(() => "x"),
    ];
    for (const field of cases) thrown(() => sellerTemplate(field));
  });

  it("refuses a records definition holding a schema whose labels cannot be read", () => {
    const fake = { _zod: { def: { type: "shiny_new_type" } } } as unknown as z.ZodString;
    const error = thrown(() =>
      defineRecords({ notes: z.object({ id: z.string(), deep: z.object({ inner: z.array(fake) }) }) }),
    );
    expect(error.message).toContain("notes.deep.inner[]");
    expect(error.message).toContain('zod type "shiny_new_type"');
  });

  it("walks a recursive schema once and finds the label under it", () => {
    type Node = { text: string; children: Node[] };
    const node: z.ZodType<Node> = z.object({
      text: z.string(),
      children: z.array(z.lazy(() => node)),
    });
    const threaded = z.object({ text: buyerText(), replies: z.array(node) });
    const records = defineRecords({ threads: z.object({ id: z.string(), thread: threaded }) });
    expect(labelTree(records.collections.threads).fields.get("thread")?.fields.get("text")?.own).toHaveLength(
      1,
    );
  });
});

describe("code of a template sees records redacted for its audience at every depth", () => {
  const secret = "CANARYPRIVATE";
  const written = "CANARYBUYER";
  const records = defineRecords({
    orders: z.object({
      id: z.string(),
      number: z.string(),
      meta: z.object({
        margin: readableBy(["finance"], z.string()),
        lines: z.array(z.object({ sku: z.string(), note: untrusted("buyer", z.string()) })),
        tags: z.record(
          z.string(),
          z.object({ internal: readableBy(["finance"], z.string()), shown: z.string() }),
        ),
        byKey: z.map(z.string(), untrusted("buyer", z.string())),
        pair: z.tuple([z.string(), readableBy(["finance"], z.string())]),
        either: z.union([z.object({ kind: z.literal("a"), say: buyerText() }), z.string()]),
      }),
    }),
    contacts: z.object({ id: z.string(), email: z.email() }),
  });
  const ticket = {
    ticketId: "T-1",
    orders: [
      {
        id: "o1",
        number: "4471",
        meta: {
          margin: secret,
          lines: [{ sku: "sku-1", note: written }],
          tags: { gift: { internal: secret, shown: "gift" } },
          byKey: new Map([["k", written]]),
          pair: ["left", secret],
          either: { kind: "a", say: written },
        },
      },
    ],
    contacts: [{ id: "c1", email: "shop@example.com" }],
  };
  const dump = (value: unknown): string =>
    JSON.stringify(value, (_key, inner) => (inner instanceof Map ? Object.fromEntries(inner) : inner));

  function catalogFor(audience: string, seen: { value?: string }) {
    const template = defineTemplate(records, {
      effect: "informational",
      id: "order_dump",
      description: "Everything code can see",
      audience,
      channel: "email",
      to: records.slot.ref("contacts", { show: "email" }),
      subject: "Order",
      body: "Order {{order}}: {{everything}}",
      slots: {
        order: records.slot.ref("orders", { show: "number" }),
        everything: records.slot.derived(
          (context) => {
            seen.value = dump({ records: context.records, slots: context.slots });
            return "seen";
          },
          { maxLength: 100_000 },
        ),
      },
      limits: { perTicket: 1, perDay: 10 },
    });
    return createCatalog(records, [template]);
  }

  it("a seller's derived slot sees none of the private or buyer-written values, nested anywhere", () => {
    const seen: { value?: string } = {};
    const decision = catalogFor("seller", seen).decide({ template: "order_dump", slots: {} }, ticket);
    expect(decision.outcome).toBe("send");
    expect(seen.value).toContain("sku-1");
    expect(seen.value).toContain("gift");
    expect(seen.value).not.toContain(secret);
    expect(seen.value).not.toContain(written);
  });

  it("finance sees the private values and still none of the buyer's text", () => {
    const seen: { value?: string } = {};
    catalogFor("finance", seen).decide({ template: "order_dump", slots: {} }, ticket);
    expect(seen.value).toContain(secret);
    expect(seen.value).not.toContain(written);
  });

  it("the buyer sees their own text and none of the private values", () => {
    const seen: { value?: string } = {};
    catalogFor("buyer", seen).decide({ template: "order_dump", slots: {} }, ticket);
    expect(seen.value).toContain(written);
    expect(seen.value).not.toContain(secret);
  });

  it("a `where` sees the audience's view too, and the records it gets are untouched copies", () => {
    const seenByWhere: string[] = [];
    const template = defineTemplate(records, {
      id: "where_reads",
      description: "A where that reads everything",
      audience: "seller",
      effect: "informational",
      channel: "email",
      to: records.slot.ref("contacts", { show: "email" }),
      subject: "Order",
      body: "Order {{order}}",
      slots: {
        order: records.slot.ref("orders", {
          show: "number",
          where: (order, context) => {
            seenByWhere.push(dump(order), dump(context.records));
            return true;
          },
        }),
      },
      limits: { perTicket: 1, perDay: 10 },
    });
    const decision = createCatalog(records, [template]).decide(
      { template: "where_reads", slots: {} },
      ticket,
    );
    expect(decision.outcome).toBe("send");
    expect(seenByWhere.join("")).toContain("sku-1");
    expect(seenByWhere.join("")).not.toContain(secret);
    expect(seenByWhere.join("")).not.toContain(written);
  });
});

describe("every field a slot reads is label-checked, and an outsider's text never picks the recipient", () => {
  const records = defineRecords({
    orders: z.object({
      id: z.string(),
      number: z.string(),
      total: z.number(),
      currency: readableBy(["finance"], z.string()),
      sellerId: z.string(),
      claimedSellerId: untrusted("seller", z.string()),
      privateSellerId: readableBy(["finance"], z.string()),
    }),
    sellers: z.object({
      id: z.string(),
      email: z.email(),
      backupEmail: untrusted("seller", z.email()),
      claimedId: untrusted("seller", z.string()),
    }),
  });
  const { slot } = records;
  const base = (overrides: { to?: Slot; slots?: Record<string, Slot>; body?: string }) =>
    defineTemplate(records, {
      id: "seller_note",
      description: "A note to the seller",
      audience: "seller",
      effect: "informational",
      channel: "email",
      to: (overrides.to ?? slot.ref("sellers", { show: "email", match: { id: "order.sellerId" } })) as never,
      subject: "Order",
      body: overrides.body ?? "Order {{order}}",
      slots: (overrides.slots ?? { order: slot.ref("orders", { show: "number" }) }) as never,
      limits: { perTicket: 1, perDay: 10 },
    });

  /** One order of seller s1 whose buyer-written claim names `claimed`, and the given sellers. */
  const ticketWith = (claimed: string, sellers: readonly Record<string, string>[]) => ({
    ticketId: "T-1",
    orders: [
      {
        id: "o1",
        number: "4471",
        total: 5,
        currency: "EUR",
        sellerId: "s1",
        claimedSellerId: claimed,
        privateSellerId: "s1",
      },
    ],
    sellers,
  });

  it("accepts the sound template", () => {
    expect(base({}).id).toBe("seller_note");
  });

  it("refuses a money format whose currency field the audience may not read", () => {
    const error = thrown(() =>
      base({
        body: "Total {{total}}",
        slots: {
          total: slot.ref("orders", { show: "total", as: format.money({ currencyField: "currency" }) }),
        },
      }),
    );
    expect(error.message).toContain("formats with orders.currency");
  });

  it("refuses a date format whose source zone field the audience may not read", () => {
    const zoned = defineRecords({
      visits: z.object({ id: z.string(), at: z.string(), zone: readableBy(["clinic"], z.string()) }),
      contacts: z.object({ id: z.string(), email: z.email() }),
    });
    const error = thrown(() =>
      defineTemplate(zoned, {
        id: "visit_time",
        description: "When the visit is",
        audience: "patient",
        effect: "informational",
        channel: "email",
        to: zoned.slot.ref("contacts", { show: "email" }),
        subject: "Your visit",
        body: "Your visit is on {{visit}}.",
        slots: {
          visit: zoned.slot.ref("visits", {
            show: "at",
            as: format.date("d MMM yyyy", { timeZone: "UTC", sourceZoneField: "zone" }),
          }),
        },
        limits: { perTicket: 1, perDay: 10 },
      }),
    );
    expect(error.message).toContain("formats with visits.zone");
  });

  it("refuses a money format reading a field that does not exist", () => {
    const error = thrown(() =>
      base({
        body: "Total {{total}}",
        slots: { total: slot.ref("orders", { show: "total", as: format.money({ currencyField: "curr" }) }) },
      }),
    );
    expect(error.message).toContain('reads "curr"');
  });

  it("gives a format only the fields it declares it reads", () => {
    const seen: string[] = [];
    const snooping = {
      ...format.text(),
      apply: (value: unknown, record: Readonly<Record<string, unknown>>) => {
        seen.push(JSON.stringify(record));
        return { ok: true as const, value: String(value) };
      },
    };
    const template = base({ slots: { order: slot.ref("orders", { show: "number", as: snooping }) } });
    const decision = createCatalog(records, [template]).decide(
      { template: "seller_note", slots: {} },
      ticketWith("s1", [
        { id: "s1", email: "shop@example.com", backupEmail: "x@example.com", claimedId: "s1" },
      ]),
    );
    expect(decision.outcome).toBe("send");
    expect(seen).toEqual(["{}"]);
  });

  it("refuses a join on a field the audience may not read", () => {
    const error = thrown(() =>
      base({ to: slot.ref("sellers", { show: "email", match: { id: "order.privateSellerId" } }) }),
    );
    expect(error.message).toContain("joins on orders.privateSellerId");
  });

  it.each([
    ["a join on the outsider's field of the earlier record", { id: "order.claimedSellerId" }],
    ["a join on the outsider's field of the recipient", { claimedId: "order.sellerId" }],
  ])("refuses %s to pick the recipient, even when the audience wrote it", (_name, match) => {
    const error = thrown(() => base({ to: slot.ref("sellers", { show: "email", match }) as Slot }));
    expect(error.message).toContain("may never decide who receives a message");
  });

  it("refuses an address field an outsider wrote", () => {
    const error = thrown(() => base({ to: slot.ref("sellers", { show: "backupEmail" }) }));
    expect(error.message).toContain("sends to sellers.backupEmail");
  });

  it("the recipient's `where` cannot read an outsider's field, so it cannot pick the recipient by it", () => {
    const template = base({
      to: slot.ref("sellers", {
        show: "email",
        where: (seller, context) => {
          const order = context.slots.order as { claimedSellerId?: string } | undefined;
          return seller.claimedId !== undefined || order?.claimedSellerId === seller.id;
        },
      }),
    });
    const decision = createCatalog(records, [template]).decide(
      { template: "seller_note", slots: {} },
      ticketWith("s2", [
        { id: "s1", email: "shop@example.com", backupEmail: "x@example.com", claimedId: "s2" },
        { id: "s2", email: "attacker@example.com", backupEmail: "x@example.com", claimedId: "s2" },
      ]),
    );
    expect(decision.outcome).toBe("escalate");
    expect(decision.outcome === "escalate" && decision.reason).toBe("slot_rejected");
  });
});

/**
 * What code run for `audience` (a derived slot) is given to read, as JSON, when a template showing
 * `shown` (collection, field) to the first record of `to` is decided on `ticket`.
 */
function seenByCode<S extends CollectionSchemas>(
  records: RecordsDefinition<S>,
  audience: string,
  [collection, field]: [string, string],
  to: string,
  ticket: Record<string, unknown>,
): { outcome: string; seen: string } {
  let seen = "";
  const template = defineTemplate(records, {
    effect: "informational",
    id: "code_reads",
    description: "What code run for the audience reads",
    audience,
    channel: "email",
    to: records.slot.ref(to, { show: "email" as never }),
    subject: "Note",
    body: "{{shown}}: {{note}}",
    slots: {
      shown: records.slot.ref(collection, { show: field as never }),
      note: records.slot.derived(
        (context) => {
          seen = JSON.stringify(context.records);
          return "noted";
        },
        { maxLength: 100 },
      ),
    },
    limits: { perTicket: 1, perDay: 10 },
  } as never);
  const decision = createCatalog(records, [template]).decide(
    { template: "code_reads", slots: {} },
    ticket as never,
  );
  return { outcome: decision.outcome, seen };
}

describe("a value computed by code in a schema carries every label of what it was computed from", () => {
  const passport = "CANARYPASSPORT";
  const travelDoc = () => readableBy(["checkin"], z.string());
  const defineBooking = (booking: z.ZodType) =>
    defineRecords({
      bookings: z.object({ id: z.string(), flight: z.string(), booking }),
      crew: z.object({ id: z.string(), email: z.email() }),
    });

  /** Each moves the private passport number into a field that declares no label. */
  const computations: [string, () => z.ZodType][] = [
    [
      "transform()",
      () =>
        z
          .object({ name: z.string(), passportNo: travelDoc() })
          .transform((b) => ({ name: b.name, seatNote: b.passportNo })),
    ],
    [
      "transform() then pipe() into a shape without the label",
      () =>
        z
          .object({ passportNo: travelDoc() })
          .transform((b) => ({ seatNote: b.passportNo }))
          .pipe(z.object({ seatNote: z.string() })),
    ],
    [
      "z.preprocess",
      () =>
        z.preprocess(
          (raw) => ({ ...(raw as object), seatNote: (raw as { passportNo: string }).passportNo }),
          z.object({ passportNo: travelDoc(), seatNote: z.string() }),
        ),
    ],
    [
      "z.codec",
      () =>
        z.codec(z.object({ passportNo: travelDoc() }), z.object({ seatNote: z.string() }), {
          decode: (b) => ({ seatNote: b.passportNo }),
          encode: (b) => ({ passportNo: b.seatNote }),
        }),
    ],
    [
      "overwrite()",
      () =>
        z
          .object({ passportNo: travelDoc(), seatNote: z.string() })
          .overwrite((b) => ({ ...b, seatNote: b.passportNo })),
    ],
    [
      "catch() reading the input",
      () =>
        z.object({ name: z.number(), passportNo: travelDoc(), seatNote: z.string() }).catch((context) => ({
          name: 0,
          passportNo: "",
          seatNote: (context.value as { passportNo: string }).passportNo,
        })),
    ],
  ];

  it.each(computations)("%s: code run for the crew never sees the passport number", (_name, build) => {
    const { outcome, seen } = seenByCode(defineBooking(build()), "crew", ["bookings", "flight"], "crew", {
      ticketId: "T-1",
      bookings: [
        { id: "b1", flight: "LX 318", booking: { name: "Ada", passportNo: passport, seatNote: "bad" } },
      ],
      crew: [{ id: "c1", email: "crew@example.com" }],
    });
    expect(outcome).toBe("send");
    expect(seen).toContain("LX 318");
    expect(seen).not.toContain(passport);
  });

  it("refuses to show a field of a record whose overwrite() reads a private field", () => {
    const records = defineRecords({
      passengers: z
        .object({ id: z.string(), passportNo: travelDoc(), seatNote: z.string() })
        .overwrite((p) => ({ ...p, seatNote: p.passportNo })),
      crew: z.object({ id: z.string(), email: z.email() }),
    });
    const error = thrown(() =>
      defineTemplate(records, {
        effect: "informational",
        id: "seat_note",
        description: "Tell the crew the seat note",
        audience: "crew",
        channel: "email",
        to: records.slot.ref("crew", { show: "email" }),
        subject: "Seat",
        body: "Note: {{note}}",
        slots: { note: records.slot.ref("passengers", { show: "seatNote" }) },
        limits: { perTicket: 1, perDay: 10 },
      }),
    );
    expect(error.message).toContain("passengers.seatNote");
    expect(error.message).toContain('readable only by "checkin"');
  });

  it("keeps a computed value's label to what it was computed from", () => {
    const tree = labelTree(
      z.object({
        id: z.string(),
        card: z.object({ passportNo: travelDoc() }),
        seat: z.object({ row: z.number() }).transform((s) => `${s.row}A`),
      }),
    );
    expect(tree.fields.get("seat")?.own).toEqual([]);
    expect(tree.fields.get("card")?.own).toEqual([]);
  });
});

describe("a property that may also be a z.record's value carries the record's labels", () => {
  const grade = "CANARYGRADE";
  const confidential = () => readableBy(["registrar"], z.string());
  const shapes: [string, () => z.ZodType, Record<string, unknown>][] = [
    [
      "an object and a record",
      () => z.object({ term: z.string() }).and(z.record(z.string(), confidential())),
      { term: grade },
    ],
    [
      "a union of an object and a record",
      () => z.union([z.object({ term: z.number() }), z.record(z.string(), confidential())]),
      { term: grade },
    ],
    [
      "a union of a loose object and a record",
      () => z.union([z.looseObject({ term: z.number() }), z.record(z.string(), confidential())]),
      { term: 1, maths: grade },
    ],
  ];

  it.each(shapes)("%s: code run for a parent never sees the grade", (_name, build, marks) => {
    const records = defineRecords({
      pupils: z.object({ id: z.string(), name: z.string(), marks: build() }),
      parents: z.object({ id: z.string(), email: z.email() }),
    });
    const { outcome, seen } = seenByCode(records, "parent", ["pupils", "name"], "parents", {
      ticketId: "T-1",
      pupils: [{ id: "p1", name: "Ada", marks }],
      parents: [{ id: "g1", email: "home@example.com" }],
    });
    expect(outcome).toBe("send");
    expect(seen).toContain("Ada");
    expect(seen).not.toContain(grade);
  });
});

describe("a part taken out of a labelled schema keeps its labels", () => {
  const leasingOnly = <S extends z.ZodType>(schema: S) => readableBy(["leasing"], schema);
  const identity = () => leasingOnly(z.object({ fullName: z.string(), bankAccount: z.string() }));

  /** Each builds a tenant's `bankAccount` field out of a part of a schema labelled as a whole. */
  const parts: [string, () => z.ZodType][] = [
    ["spreading .shape into a new z.object", () => z.object({ ...identity().shape }).shape.bankAccount],
    ["a property of .shape", () => identity().shape.bankAccount],
    ["unwrap() of a labelled optional", () => leasingOnly(z.string().optional()).unwrap()],
    ["element of a labelled array", () => leasingOnly(z.array(z.string())).element],
    ["an option of a labelled union", () => leasingOnly(z.union([z.string(), z.number()])).options[0]],
    ["the output of a labelled pipe", () => leasingOnly(z.string().pipe(z.string().min(3))).out],
    ["the value of a labelled record", () => leasingOnly(z.record(z.string(), z.string())).valueType],
  ];

  function maintenanceNote(bankAccount: z.ZodType) {
    const records = defineRecords({
      tenants: z.object({ id: z.string(), unit: z.string(), bankAccount }),
      staff: z.object({ id: z.string(), email: z.email() }),
    });
    return defineTemplate(records, {
      effect: "informational",
      id: "repair_visit",
      description: "Tell maintenance about a visit",
      audience: "maintenance",
      channel: "email",
      to: records.slot.ref("staff", { show: "email" }),
      subject: "Visit",
      body: "Unit {{unit}}, account {{account}}",
      slots: {
        unit: records.slot.ref("tenants", { show: "unit" }),
        account: records.slot.ref("tenants", { show: "bankAccount" }),
      },
      limits: { perTicket: 1, perDay: 10 },
    });
  }

  it.each(parts)("%s: shown to maintenance, it fails the definition", (_name, build) => {
    const error = thrown(() => maintenanceNote(build()));
    expect(error.message).toContain("tenants.bankAccount");
    expect(error.message).toContain('readable only by "leasing"');
  });

  it("a part of a labelled schema in one collection is labelled where another collection uses it", () => {
    const account = z.string();
    const records = defineRecords({
      staff: z.object({ id: z.string(), email: z.email() }),
      tenants: z.object({ id: z.string(), unit: z.string(), bankAccount: account }),
      leases: z.object({ id: z.string(), payer: leasingOnly(z.object({ account })) }),
    });
    expect(labelTree(records.collections.tenants).fields.get("bankAccount")?.own).toEqual([
      { kind: "private", roles: ["leasing"] },
    ]);
  });

  it("carries a label into a part that was not yet built when the label was written", () => {
    const lease = leasingOnly(
      z.object({
        get payer() {
          return payer;
        },
      }),
    );
    const payer = z.object({ account: z.string() });
    const records = defineRecords({
      tenants: z.object({ id: z.string(), bankAccount: payer.shape.account }),
      leases: z.object({ id: z.string(), lease }),
    });
    expect(labelTree(records.collections.tenants).fields.get("bankAccount")?.own).toEqual([
      { kind: "private", roles: ["leasing"] },
    ]);
  });
});
