import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { RecordsDefinition } from "../../src/core/definition/define-records.js";
import { createCatalog, defineRecords, defineTemplate, readableBy, untrusted } from "../../src/index.js";
import { configOf } from "../../src/mine/draft.js";
import { draftTemplates, mineHistory } from "../../src/mine/index.js";

/** `count` history lines, each built from its number. */
function history(count: number, line: (n: number) => Record<string, unknown>): string[] {
  return Array.from({ length: count }, (_, n) => JSON.stringify({ ticketId: `T-${n}`, ...line(n) }));
}

async function drafted(records: RecordsDefinition, lines: readonly string[]) {
  const report = await mineHistory(records, lines);
  const draft = draftTemplates(records, report);
  // Every drafted template is one defineTemplate accepts, and together they make a catalog.
  const templates = draft.templates.map((template) => defineTemplate(records, configOf(records, template)));
  if (templates.length > 0) createCatalog(records, templates);
  return { report, draft };
}

describe("draftTemplates", () => {
  it("leaves out a slot on a field the audience may not read, keeping the template", async () => {
    const records = defineRecords({
      sellers: z.object({ id: z.string(), shopName: z.string(), email: z.email() }),
      orders: z.object({ id: z.string(), number: z.string(), margin: readableBy(["finance"], z.string()) }),
    });
    const lines = history(6, (n) => ({
      records: {
        sellers: [{ id: "s", shopName: `Shop ${n}x`, email: `s${n}@shop.example` }],
        orders: [{ id: "o", number: `4471-${1000 + n}`, margin: `margin${n}q` }],
      },
      message: {
        to: `s${n}@shop.example`,
        text: `Hello Shop ${n}x, order 4471-${1000 + n} ships today with margin margin${n}q as agreed.`,
      },
    }));
    const { draft } = await drafted(records as unknown as RecordsDefinition, lines);
    const [template] = draft.templates;
    // The greeting is the text builder's to keep or drop; the field the audience may not read is never shown.
    expect(template?.body).toContain("order {{order.number}} ships today with margin as agreed.");
    expect(template?.slots.find((slot) => slot.name === "order")).toEqual({
      kind: "ref",
      name: "order",
      collection: "orders",
      show: { number: { field: "number", as: undefined } },
      match: undefined,
      // No key of the records joins an order to its seller here.
      unjoined: true,
      link: false,
    });
    expect(JSON.stringify(template?.slots)).not.toContain("margin");
    expect(template?.audience).toBe("seller");
  });

  it("texts a phone recipient, keeps nested values out and names slots by the naming rules", async () => {
    const records = defineRecords({
      tos: z.object({ id: z.string(), name: z.string(), phone: z.string() }),
      choices: z.object({ id: z.string(), code: z.string(), where: z.object({ city: z.string() }) }),
    });
    const lines = history(5, (n) => ({
      records: {
        tos: [{ id: "t", name: `Maria ${n}k`, phone: `+49 151 234567${n}` }],
        choices: [{ id: "c", code: `CODE-${n}42`, where: { city: `Cityville${n}` } }],
      },
      message: {
        to: `+49151234567${n}`,
        text: `Hi Maria ${n}k, your code CODE-${n}42 is ready in Cityville${n}. Reply to confirm.`,
      },
    }));
    const { draft } = await drafted(records as unknown as RecordsDefinition, lines);
    const [template] = draft.templates;
    expect(template?.channel).toBe("sms");
    // The one country the numbers' "+49" names is the default for numbers written without one.
    expect(template?.to).toMatchObject({ collection: "tos", field: "phone", as: "phone", country: "DE" });
    // "to" and "choice" are no slot names: the slots of those collections are renamed (the greeting that
    // shows the recipient's name is the text builder's to keep or drop).
    expect(template?.slots.map((slot) => slot.name)).toContain("choice_record");
    expect(template?.slots.every((slot) => /^[a-z][a-z0-9_]*$/.test(slot.name) && slot.name !== "to")).toBe(
      true,
    );
    expect(template?.body).toContain("your code {{choice_record.code}} is ready. Reply to confirm.");
  });

  it("makes the words that varied a choice slot with keys by the naming rules, leaving numbers out", async () => {
    const records = defineRecords({ people: z.object({ id: z.string(), email: z.email() }) });
    const words = ["Zoë", "Zoe", "déjà", "12", "Ünal"];
    const lines = history(20, (n) => ({
      records: { people: [{ id: "p", email: `p${n}@mail.example` }] },
      message: {
        to: `p${n}@mail.example`,
        text: `Your parcel arrived ${words[n % words.length]} and we are sorry about it.`,
      },
    }));
    const { draft } = await drafted(records as unknown as RecordsDefinition, lines);
    const choice = draft.templates[0]?.slots.find((slot) => slot.kind === "choice");
    expect(choice).toEqual({
      kind: "choice",
      name: "choice",
      choices: { deja: "déjà", unal: "Ünal", zoe: "Zoe", zoe_2: "Zoë" },
    });
    expect(draft.templates[0]?.body).toBe("Your parcel arrived {{choice}} and we are sorry about it.");
  });

  it("never sends to an address an outsider wrote: such a cluster is left out", async () => {
    const records = defineRecords({
      people: z.object({ id: z.string(), email: untrusted("customer", z.email()) }),
    });
    const lines = history(5, (n) => ({
      records: { people: [{ id: "p", email: `p${n}@mail.example` }] },
      message: { to: `p${n}@mail.example`, text: "Your parcel arrived and we are sorry about it." },
    }));
    const { draft } = await drafted(records as unknown as RecordsDefinition, lines);
    expect(draft.templates).toEqual([]);
    expect(draft.leftOut).toEqual([
      { cluster: 0, reason: "recipient field person.email is written by an outsider" },
    ]);
  });

  it("never drafts a cluster whose recipients no record holds: the report says why it is not templatable", async () => {
    const records = defineRecords({ people: z.object({ id: z.string(), email: z.email() }) });
    const lines = history(5, (n) => ({
      records: { people: [{ id: "p", email: `p${n}@mail.example` }] },
      message: { to: `stranger${n}@else.example`, text: "Your parcel arrived and we are sorry about it." },
    }));
    const { report, draft } = await drafted(records as unknown as RecordsDefinition, lines);
    expect(draft.templates).toEqual([]);
    expect(report.candidates.map((candidate) => candidate.notTemplatable)).toEqual([
      "recipient-not-in-records",
    ]);
    expect(report.coverage).toEqual([]);
  });
});
