import { de as germanDates } from "date-fns/locale";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createCatalog, defineRecords, defineTemplate, format, readableBy } from "../../../src/index.js";

function recordsWith(readers: readonly string[]) {
  return defineRecords({
    orders: z.object({
      id: z.string(),
      number: z.string(),
      placed: z.string(),
      total: readableBy(readers, z.number()),
    }),
    contacts: z.object({ id: z.string(), email: z.email() }),
  });
}

const records = recordsWith(["seller", "partner"]);

function config(extra: Record<string, unknown> = {}) {
  return {
    id: "order_note",
    description: "Tell the seller about an order",
    audience: "seller",
    effect: "informational",
    channel: "email",
    to: records.slot.ref("contacts", { show: "email" }),
    subject: "Order {{order.number}}",
    body: "Order {{order.number}} placed {{order.placed}} for {{order.total}}: {{reason}}",
    slots: {
      order: records.slot.ref("orders", {
        show: {
          number: "number",
          placed: { field: "placed", as: format.date("yyyy-MM-dd", { timeZone: "UTC" }) },
          total: "total",
        },
      }),
      reason: records.slot.choice({ late: "it is late", lost: "it is lost" }),
    },
    limits: { perTicket: 1, perDay: 100 },
    ...extra,
  } as Parameters<typeof defineTemplate>[1];
}

const version = (extra: Record<string, unknown> = {}) => defineTemplate(records, config(extra)).version;

describe("template content version", () => {
  it("is a short hex hash, the same for the same definition", () => {
    expect(version()).toMatch(/^[0-9a-f]{16}$/);
    expect(version()).toBe(version());
  });

  it.each([
    ["body", { body: "Order {{order.number}} placed {{order.placed}} for {{order.total}} - {{reason}}" }],
    ["subject", { subject: "About order {{order.number}}" }],
    ["html", { html: "<p>{{order.number}} {{order.placed}} {{order.total}} {{reason}}</p>" }],
    ["audience", { audience: "partner" }],
    ["effect", { effect: "reversible" }],
    ["approval", { approval: "human" }],
    ["limits", { limits: { perTicket: 2, perDay: 100 } }],
    ["first contact", { firstContact: "hold" }],
    [
      "recipient field",
      {
        to: records.slot.ref("contacts", { show: { address: "email" } }),
        body: "x {{order.number}} {{order.placed}} {{order.total}} {{reason}}",
      },
    ],
    [
      "recipient where",
      { to: records.slot.ref("contacts", { show: "email", where: (contact) => contact.id !== "x" }) },
    ],
    [
      "choice label",
      {
        slots: {
          ...config().slots,
          reason: records.slot.choice({ late: "it is very late", lost: "it is lost" }),
        },
      },
    ],
    [
      "date pattern",
      {
        slots: {
          ...config().slots,
          order: records.slot.ref("orders", {
            show: {
              number: "number",
              placed: { field: "placed", as: format.date("dd.MM.yyyy", { timeZone: "UTC" }) },
              total: "total",
            },
          }),
        },
      },
    ],
    [
      "slot source",
      {
        slots: {
          ...config().slots,
          order: records.slot.ref("orders", {
            show: {
              number: "id",
              placed: { field: "placed", as: format.date("yyyy-MM-dd", { timeZone: "UTC" }) },
              total: "total",
            },
          }),
        },
      },
    ],
    [
      "locales",
      {
        locale: {
          default: "en",
          from: () => "de",
          texts: {
            de: {
              subject: "Bestellung {{order.number}}",
              body: "Bestellung {{order.number}} am {{order.placed}} für {{order.total}}: {{reason}}",
              choices: { reason: { late: "spät", lost: "verloren" } },
            },
          },
        },
      },
    ],
  ])("changes when the %s changes", (_name, extra) => {
    expect(version(extra)).not.toBe(version());
  });

  it("changes when a field a slot shows becomes readable by more roles", () => {
    const wider = recordsWith(["seller", "partner", "buyer"]);
    const widened = defineTemplate(wider, {
      ...config(),
      to: wider.slot.ref("contacts", { show: "email" }),
      slots: {
        order: wider.slot.ref("orders", {
          show: {
            number: "number",
            placed: { field: "placed", as: format.date("yyyy-MM-dd", { timeZone: "UTC" }) },
            total: "total",
          },
        }),
        reason: wider.slot.choice({ late: "it is late", lost: "it is lost" }),
      },
    } as Parameters<typeof defineTemplate>[1]);
    expect(widened.version).not.toBe(version());
  });

  it("does not change with the order keys were written in", () => {
    const reordered = Object.fromEntries(Object.entries(config()).reverse());
    const limits = { perDay: 100, perTicket: 1 };
    const slots = {
      ...config().slots,
      reason: records.slot.choice({ lost: "it is lost", late: "it is late" }),
    };
    const template = defineTemplate(records, { ...(reordered as ReturnType<typeof config>), limits, slots });
    expect(template.version).toBe(version());
  });

  it("is carried by every locale variant, and changes with a locale's own text", () => {
    const de = (body: string) => ({
      locale: {
        default: "en",
        from: () => "de",
        texts: {
          de: {
            subject: "Bestellung {{order.number}}",
            body,
            choices: { reason: { late: "spät", lost: "verloren" } },
          },
        },
      },
    });
    const a = defineTemplate(
      records,
      config(de("B {{order.number}} {{order.placed}} {{order.total}} {{reason}}")),
    );
    const b = defineTemplate(
      records,
      config(de("B {{order.number}} {{order.placed}} {{order.total}}, {{reason}}")),
    );
    expect(a.locales?.variants.get("de")?.version).toBe(a.version);
    expect(b.version).not.toBe(a.version);
  });

  it("hashes a format localised for a locale by how it was built, never by the library's own code", () => {
    // The library's code reads differently from source and bundled: a version must not depend on it.
    const localised = (dates: readonly (typeof germanDates)[]) =>
      defineTemplate(
        records,
        config({
          locale: {
            default: "en",
            from: () => "de",
            dates,
            texts: {
              de: {
                subject: "Bestellung {{order.number}}",
                body: "{{order.placed}} {{reason}}",
                choices: { reason: { late: "spät", lost: "verloren" } },
              },
            },
          },
          body: "{{order.placed}} {{reason}}",
        }),
      );
    const template = localised([germanDates]);
    const formats =
      template.locales?.variants
        .get("de")
        ?.resolveOrder.flatMap((slot) => slot.fields.map((field) => field.format)) ?? [];
    expect(formats.length).toBeGreaterThan(1);
    for (const format of formats) expect(format.spec).toBeDefined();
    expect(formats.find((format) => format.kind === "date")?.spec).toContain('{"dates":"de","in":"de"}');
    expect(localised([]).version).not.toBe(template.version);
  });

  it("gives the catalog a version from its templates' versions in id order", () => {
    const one = defineTemplate(records, config());
    const two = defineTemplate(records, config({ id: "order_two" }));
    const twoChanged = defineTemplate(
      records,
      config({ id: "order_two", limits: { perTicket: 3, perDay: 100 } }),
    );
    const catalog = createCatalog(records, [one, two]);
    expect(createCatalog(records, [two, one]).version).toBe(catalog.version);
    expect(createCatalog(records, [one, twoChanged]).version).not.toBe(catalog.version);
  });
});
