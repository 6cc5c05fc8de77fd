import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { RecordsDefinition } from "../../src/core/definition/define-records.js";
import { createCatalog, defineRecords, defineTemplate } from "../../src/index.js";
import { configOf } from "../../src/mine/draft.js";
import { type DraftTemplate, draftTemplates, mineHistory, RecordProfile } from "../../src/mine/index.js";
import { buildChecklist } from "../../src/testing/index.js";
import { monthsEn } from "../fixtures/corpora/calendar.js";
import { expectEscalation, expectSend } from "../fixtures/expect.js";

/** Histories of record shapes the corpora lack: keys written as numbers, amounts as strings, days as timestamps. */

const months = monthsEn;
const greetings = ["Hello,", "Hi there,", "Good morning,", "Dear customer,"];
const closings = ["Kind regards,\nAnna", "Best,\nthe desk", "Regards,\nOps"];

async function drafted(records: RecordsDefinition, lines: readonly string[]): Promise<DraftTemplate> {
  const report = await mineHistory(records, lines, { workers: 0 });
  const draft = draftTemplates(records, report);
  const [template] = draft.templates;
  if (template === undefined) throw new Error(`no template drafted: ${JSON.stringify(draft.leftOut)}`);
  return template;
}

function line(ticket: number, records: Record<string, unknown>, to: string, body: string): string {
  const text = `${greetings[ticket % greetings.length]}\n\n${body}\n\n${closings[ticket % closings.length]}`;
  return JSON.stringify({ ticketId: `T-${ticket}`, records, message: { to, subject: "Pick-up", text } });
}

function shownAs(template: DraftTemplate, field: string) {
  for (const slot of template.slots)
    if (slot.kind === "ref")
      for (const shown of Object.values(slot.show)) if (shown.field === field) return shown.as;
  throw new Error(`${field} is not shown`);
}

describe("a key written as a number in one collection and as a string in the other", () => {
  const records = defineRecords({
    owners: z.object({ id: z.string(), email: z.email(), name: z.string() }),
    pets: z.object({ id: z.string(), ownerId: z.unknown(), name: z.string() }),
  }) as unknown as RecordsDefinition;
  const pets = ["Filou", "Rex", "Caramel", "Oscar", "Praline", "Biscotte", "Moustache", "Noisette"];
  const history = (ownerIdOf: (id: number) => unknown) =>
    Array.from({ length: 40 }, (_, t) => {
      const id = 5000 + t;
      const owner = { id: String(id), email: `owner${t}@mail.example`, name: `Owner ${t}` };
      // A neighbour of the same ticket: the join, not the order, says whose pet it is.
      const neighbour = { id: String(9000 + t), email: `neighbour${t}@mail.example`, name: `Neighbour ${t}` };
      const pet = { id: `p${t}`, ownerId: ownerIdOf(id), name: pets[t % pets.length] as string };
      const owners = t % 2 === 0 ? [owner, neighbour] : [neighbour, owner];
      return line(
        t,
        { owners, pets: [pet] },
        owner.email,
        `${pet.name} is ready to be picked up at the front desk.`,
      );
    });

  it("joins the recipient to the pet, and the drafted catalog sends to the pet's owner", async () => {
    const template = await drafted(
      records,
      history((id) => id),
    );
    expect(template.to.match).toEqual({ id: "pet.ownerId" });
    expect(template.to.choice).toBeUndefined();
    const catalog = createCatalog(records, [defineTemplate(records, configOf(records, template))]);
    const ticket = {
      ticketId: "T-new",
      owners: [
        { id: "7001", email: "stranger@mail.example", name: "Stranger" },
        { id: "7000", email: "owner@mail.example", name: "Owner" },
      ],
      pets: [{ id: "p", ownerId: 7000, name: "Rex" }],
    };
    expect(expectSend(catalog.decide({ template: template.id }, ticket)).message.to).toBe(
      "owner@mail.example",
    );
    // An owner whose id only looks like the key is nobody's owner: the message escalates.
    const near = { ...ticket, owners: [{ id: "07000", email: "stranger@mail.example", name: "Stranger" }] };
    expectEscalation(catalog.decide({ template: template.id }, near), "slot_rejected");
    const checklist = buildChecklist(catalog, { sample: ticket, propertyRuns: 10 });
    expect(checklist.items.filter((item) => item.status === "fail").map((item) => item.summary)).toEqual([]);
  });

  it("joins a field holding the key as a number in some records and as its string in others", async () => {
    const template = await drafted(
      records,
      history((id) => (id % 3 === 0 ? String(id) : id)),
    );
    expect(template.to.match).toEqual({ id: "pet.ownerId" });
  });

  it.each([
    ["zero-padded", (id: number) => `0${id}`],
    ["spaced", (id: number) => ` ${id}`],
    ["exponent", (id: number) => `${id / 1000}e3`],
    ["fraction", (id: number) => id + 0.5],
    ["boolean", () => true],
  ])("claims no join on near keys (%s)", async (_name, ownerIdOf) => {
    const template = await drafted(records, history(ownerIdOf));
    expect(template.to.match).toBeUndefined();
    expect(template.to.choice).toBe("not-joined");
  });

  it("the profile reads number and string keys as a join does", () => {
    const profile = new RecordProfile();
    for (let t = 0; t < 20; t++) {
      const big = 2 ** 53 + 2 * t;
      profile.observe({
        owners: [{ id: String(5000 + t), ref: String(big) }],
        pets: [
          { id: `p${t}`, ownerId: 5000 + t, huge: big, nan: Number.NaN, small: t + 1, one: String(t + 1) },
        ],
      });
    }
    const keys = profile
      .summary()
      .keys.map((key) => `${key.from.collection}.${key.from.field}=${key.to.collection}.${key.to.field}`);
    expect(keys).toEqual([expect.stringMatching(/^(pets\.ownerId=owners\.id|owners\.id=pets\.ownerId)$/)]);
  });
});

describe("an amount kept as a string, with its currency in a field of another name", () => {
  const records = defineRecords({
    customers: z.object({ id: z.string(), email: z.email() }),
    // The customer's number beside a currency is a reference, not an amount: it is the customer's id.
    invoices: z.object({
      id: z.string(),
      customerNo: z.number(),
      amount: z.string(),
      currencyCode: z.string(),
    }),
  }) as unknown as RecordsDefinition;
  const history = (amountOf: (t: number) => string) =>
    Array.from({ length: 40 }, (_, t) => {
      const customer = { id: String(3000 + t), email: `customer${t}@mail.example` };
      const currencyCode = t % 2 === 0 ? "GBP" : "USD";
      const amount = amountOf(t);
      const invoice = { id: `i${t}`, customerNo: 3000 + t, amount, currencyCode };
      const shown = `${currencyCode === "GBP" ? "£" : "$"}${Number(amount).toLocaleString("en-US", { minimumFractionDigits: 2 })}`;
      return line(
        t,
        { customers: [customer], invoices: [invoice] },
        customer.email,
        `Your invoice of ${shown} is attached. Payment is due within 30 days.`,
      );
    });

  it("is drafted as money in the record's currency", async () => {
    const template = await drafted(
      records,
      history((t) => (120 + t * 37.25).toFixed(2)),
    );
    expect(shownAs(template, "amount")).toEqual({ kind: "money", currencyField: "currencyCode" });
    expect(template.effect.effect).toBe("irreversible");
    expect(template.to.match).toEqual({ id: "invoice.customerNo" });
    const catalog = createCatalog(records, [defineTemplate(records, configOf(records, template))]);
    const ticket = {
      ticketId: "T-new",
      customers: [{ id: "4000", email: "c@mail.example" }],
      invoices: [{ id: "i", customerNo: 4000, amount: "1234.50", currencyCode: "GBP" }],
    };
    // Money makes the draft irreversible: a person approves the message drafted.
    const approval = expectEscalation(catalog.decide({ template: template.id }, ticket), "approval_required");
    expect(approval.draft?.text).toContain("£1,234.50");
    // A value that is no plain decimal is never shown as an amount: the slot is refused.
    for (const amount of ["1e3", "NaN", "12,50", "abc", "0x10"]) {
      const hostile = { ...ticket, invoices: [{ ...ticket.invoices[0], amount }] };
      expectEscalation(catalog.decide({ template: template.id }, hostile), "slot_rejected");
    }
  });

  it("stays text where the field's strings are mostly no amounts", async () => {
    const profile = new RecordProfile();
    for (let t = 0; t < 30; t++)
      profile.observe({
        invoices: [{ id: `i${t}`, amount: t % 3 === 0 ? "12.50" : `A-${t}`, currencyCode: "EUR" }],
      });
    expect(profile.summary().fields.find((field) => field.field === "amount")).toBeUndefined();
  });
});

describe("a timestamp that only ever holds a day", () => {
  const records = defineRecords({
    customers: z.object({ id: z.string(), email: z.email() }),
    shipments: z.object({ id: z.string(), customerId: z.string(), ref: z.string(), eta: z.string() }),
  }) as unknown as RecordsDefinition;
  const history = (etaOf: (t: number) => string) =>
    Array.from({ length: 40 }, (_, t) => {
      const customer = { id: `c${t}`, email: `customer${t}@mail.example` };
      const eta = etaOf(t);
      const shipment = { id: `s${t}`, customerId: customer.id, ref: `SHP-${48213 + t * 7}`, eta };
      const day = new Date(eta.slice(0, 10));
      const written = `${months[day.getUTCMonth()]} ${day.getUTCDate()}, ${day.getUTCFullYear()}`;
      return line(
        t,
        { customers: [customer], shipments: [shipment] },
        customer.email,
        `Your shipment ${shipment.ref} will arrive on ${written}.`,
      );
    });
  const day = (t: number) =>
    `2026-${String(1 + (t % 12)).padStart(2, "0")}-${String(1 + (t % 27)).padStart(2, "0")}`;

  it("is drafted as a date where every value is at one time of day", async () => {
    const template = await drafted(
      records,
      history((t) => `${day(t)}T14:00:00-05:00`),
    );
    expect(shownAs(template, "eta")).toMatchObject({ kind: "date", pattern: "d MMMM yyyy" });
    const midnight = await drafted(
      records,
      history((t) => `${day(t)}T00:00:00Z`),
    );
    expect(shownAs(midnight, "eta")).toMatchObject({ kind: "date", pattern: "d MMMM yyyy" });
  });

  it.each([
    ["times that vary", (t: number) => `${day(t)}T${String(8 + (t % 9)).padStart(2, "0")}:30:00Z`],
    // 23:00 at -05:00 is the next day in UTC: a date alone would name another day.
    ["a fixed time on another day in UTC", (t: number) => `${day(t)}T23:00:00-05:00`],
  ])("keeps the time with %s", async (_name, etaOf) => {
    const template = await drafted(records, history(etaOf));
    expect(shownAs(template, "eta")).toMatchObject({ kind: "date", pattern: "d MMMM yyyy, HH:mm" });
  });
});
