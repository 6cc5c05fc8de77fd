import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { historyRecords } from "../../examples/data/history-corpus.js";
import { emitCatalog } from "../../src/cli/mine-emit.js";
import type { RecordsDefinition } from "../../src/core/definition/define-records.js";
import type { Template } from "../../src/core/definition/template-types.js";
import { createCatalog, defineRecords, defineTemplate, untrusted } from "../../src/index.js";
import { type CatalogDraft, configOf, type DraftTemplate } from "../../src/mine/draft.js";
import { draftEffect } from "../../src/mine/draft-effect.js";
import { planJoins } from "../../src/mine/draft-joins.js";
import { draftTemplates, mineHistory } from "../../src/mine/index.js";
import { RecordProfile } from "../../src/mine/record-profile.js";
import { buildChecklist } from "../../src/testing/index.js";
import { typecheck } from "../cli/mine-typecheck.js";
import { cli } from "../cli/run.js";
import { corpusDomains, generateCorpus } from "../fixtures/corpora/corpus.js";
import { type GarageTicket, garageHistory, garageRecords, garageTicket } from "./garage-history.js";

const garages = garageRecords as unknown as RecordsDefinition;

async function draftOf(records: RecordsDefinition, lines: readonly string[]) {
  const report = await mineHistory(records, lines);
  return { report, draft: draftTemplates(records, report) };
}

function catalogOf(records: RecordsDefinition, draft: CatalogDraft) {
  return createCatalog(
    records,
    draft.templates.map((template) => defineTemplate(records, configOf(records, template))),
  );
}

const failures = (checklist: ReturnType<typeof buildChecklist>) =>
  checklist.items
    .filter((item) => item.status === "fail")
    .map((item) => `${item.template ?? "-"} ${item.check}: ${item.summary}`);

describe("the record profile", () => {
  it("finds the keys records share, through several records per collection", () => {
    const profile = new RecordProfile();
    for (let n = 0; n < 30; n++) {
      const ticket = garageTicket(n, 2 + (n % 3), 3, 2);
      profile.observe({ garages: ticket.garages, vehicles: ticket.vehicles, damages: ticket.damages });
    }
    const keys = profile
      .summary()
      .keys.map((key) => `${key.from.collection}.${key.from.field}→${key.to.collection}.${key.to.field}`);
    expect(keys.sort()).toEqual(["damages.vehicleId→vehicles.id", "vehicles.garageId→garages.id"]);
  });

  it("takes no coincidence for a key: constants, booleans, small numbers, values only some tickets share", () => {
    const profile = new RecordProfile();
    for (let n = 0; n < 40; n++) {
      profile.observe({
        // Both hold "open", the same currency, a flag and 1 or 2 in every ticket; ids never meet.
        orders: [{ id: `o${n}`, status: "open", currency: "EUR", paid: true, quantity: 1 + (n % 2) }],
        invoices: [{ id: `i${n}`, state: "open", currency: "EUR", sent: true, copies: 1 + (n % 2) }],
        // The same code by chance in a few tickets only.
        notes: [{ id: `n${n}`, ref: n % 10 === 0 ? `o${n}` : `x${n}` }],
        // A day and a currency both hold alike in every ticket: values, not references.
        shipments: [{ id: `s${n}`, on: `2026-04-${10 + (n % 9)}`, currency: n % 2 ? "USD" : "EUR" }],
        returns: [{ id: `r${n}`, on: `2026-04-${10 + (n % 9)}`, currency: n % 2 ? "USD" : "EUR" }],
      });
    }
    expect(profile.summary().keys).toEqual([]);
  });

  it("joins on small integer keys that name a record's id, and on no other small integers", () => {
    const profile = new RecordProfile();
    for (let n = 0; n < 40; n++) {
      // Records numbered within their ticket (ids "1", "2", …) and referenced by number, beside small
      // numbers that agree in every ticket too, over as many values (a floor each unit is on, a visit's
      // floor): only the references to an id are keys.
      const units = [1, 2, 3, 4, 5].map((i) => ({
        id: String(((n + i) % 9) + 1),
        floor: i,
        rooms: 1 + (n % 2),
      }));
      profile.observe({
        units,
        tenants: [{ id: `t${n}`, unitId: Number((units[n % 5] as { id: string }).id), rooms: 1 + (n % 2) }],
        visits: [{ id: `v${n}`, floor: 1 + (n % 5), people: 1 + (n % 2) }],
      });
    }
    const keys = profile
      .summary()
      .keys.map((key) => `${key.from.collection}.${key.from.field}→${key.to.collection}.${key.to.field}`);
    expect(keys).toEqual(["tenants.unitId→units.id"]);
  });

  it("takes no small integer for a key on a record's id over fewer than four values", () => {
    const profile = new RecordProfile();
    for (let n = 0; n < 40; n++) {
      // Rooms numbered "1" and "2" in every ticket, and a count of 1 or 2 that always names one of them.
      profile.observe({
        rooms: [
          { id: "1", beds: 2 },
          { id: "2", beds: 3 },
        ],
        stays: [{ id: `s${n}`, nights: 1 + (n % 2) }],
      });
    }
    expect(profile.summary().keys).toEqual([]);
  });

  it("never joins two collections on their own ids, however often they agree", () => {
    const key = (from: string, to: string) => ({
      from: { collection: from, field: "id" },
      to: { collection: to, field: "id" },
      tickets: 50,
      holds: 50,
      unique: 50,
    });
    const plan = planJoins([{ name: "vehicle", collection: "vehicles" }], "garages", [
      key("vehicles", "garages"),
    ]);
    expect(plan.match.size).toBe(0);
    expect(plan.recipientJoined).toBe(false);
  });

  it("reads dates, timestamps, phones with their country and currencies; never a number that only looks like one", () => {
    const profile = new RecordProfile();
    for (let n = 0; n < 20; n++) {
      profile.observe({
        people: [
          {
            id: `p${n}`,
            born: `19${50 + n}-02-0${1 + (n % 9)}`,
            seen: `2026-03-0${1 + (n % 9)}T10:00:00`,
            mobile: n % 4 === 0 ? `0612 34567${n % 10}` : `+33 6 12 34 56 ${10 + n}`,
            order: `9654-${4200 + n}`,
            day: `0${1 + (n % 9)}.03.2026`,
            money: "CHF",
          },
        ],
      });
    }
    const fields = Object.fromEntries(profile.summary().fields.map((field) => [field.field, field]));
    expect(fields.born?.kind).toBe("date");
    expect(fields.seen).toMatchObject({ kind: "timestamp", offsetLess: true });
    expect(fields.mobile).toMatchObject({ kind: "phone", countries: [{ country: "FR", count: 15 }] });
    expect(fields.money?.kind).toBe("currency");
    expect(fields.order).toBeUndefined();
    expect(fields.day).toBeUndefined();
  });

  it("skips hostile shapes and stays bounded however many names the history invents", () => {
    const profile = new RecordProfile();
    for (const shape of [null, 1, "x", [], [{}], { a: null }, { a: [null, 1, "s", [1]] }, { a: { b: 1 } }])
      expect(() => profile.observe(shape)).not.toThrow();
    for (let n = 0; n < 2000; n++) {
      profile.observe({
        [`c${n}`]: [{ [`f${n}`]: `v${n}`, id: `shared${n}`, __proto__: "x" }],
        [`k${n}`]: [{ id: `shared${n}`, constructor: `2026-01-01` }],
      });
    }
    const summary = profile.summary();
    // Only objects of collections are tickets: three of the shapes above are.
    expect(summary.tickets).toBe(2000 + 3);
    expect(summary.fields.length).toBeLessThanOrEqual(512);
    expect(summary.keys).toEqual([]);
  });
});

describe("drafted effects", () => {
  it.each([
    ["Please refund the buyer", "refund"],
    ["Bitte erstatten Sie den Betrag", "refund"],
    ["Wir bitten um die Rückerstattung", "refund"],
    ["La commande est annulée", "cancellation"],
    ["Nous procédons au remboursement", "refund"],
    ["Procedemos al reembolso del pedido", "refund"],
    ["Please cancel the order", "cancellation"],
    ["Bitte kündigen Sie den Vertrag", "cancellation"],
    ["We give notice to terminate the lease", "cancellation"],
    ["Hiermit widerrufe ich den Auftrag", "cancellation"],
    ["Die Zahlung ist eingegangen", "payment"],
    ["El pago fue rechazado", "payment"],
    ["Le paiement a été reçu", "payment"],
    ["Please authorise the repair", "authorisation"],
    ["Bitte genehmigen Sie die Reparatur", "authorisation"],
    ["Merci d'autoriser la réparation", "authorisation"],
    ["Por favor autorice la reparación", "authorisation"],
  ])("%j is irreversible (%s)", (text, action) => {
    expect(draftEffect([text], { money: false })).toEqual({
      effect: "irreversible",
      because: { money: false, actions: [action] },
    });
  });

  it("is irreversible for money shown, informational otherwise", () => {
    expect(draftEffect(["Your parcel ships today"], { money: true })).toMatchObject({
      effect: "irreversible",
      because: { money: true, actions: [] },
    });
    expect(draftEffect(["Your parcel ships today", "Ihr Paket ist unterwegs"], { money: false })).toEqual({
      effect: "informational",
    });
  });
});

describe("drafts of a history of garages, vehicles and damages", () => {
  let draft: CatalogDraft;
  let byId: Map<string, DraftTemplate>;
  beforeAll(async () => {
    ({ draft } = await draftOf(garages, garageHistory(90)));
    byId = new Map(draft.templates.map((template) => [template.id, template]));
  });

  const repair = () =>
    draft.templates.find((template) => template.body.includes("damage.code")) as DraftTemplate;
  const ready = () => draft.templates.find((template) => template.channel === "sms") as DraftTemplate;

  const notice = () => draft.templates.find((template) => template.body.includes("office")) as DraftTemplate;

  it("joins the recipient through the vehicle the text does not show", () => {
    expect(byId.size).toBe(4);
    const template = repair();
    const vehicle = template.slots.find((slot) => slot.kind === "ref" && slot.collection === "vehicles");
    expect(vehicle).toMatchObject({ link: true, match: { id: "damage.vehicleId" } });
    // Joined to the garage the greeting shows, or, where the text shows none, to the vehicle's garage.
    expect(template.to.match).toBeDefined();
    expect(template.to.choice).toBeUndefined();
    expect(template.body).toContain(`{{#${vehicle?.name}}}{{/${vehicle?.name}}}`);
    // Every record a garage draft chooses is joined to the others.
    const refs = draft.templates.flatMap((each) => each.slots.filter((slot) => slot.kind === "ref"));
    expect(refs.filter((slot) => slot.unjoined)).toEqual([]);
  });

  it("drafts a repair to authorise as irreversible with a person's approval, the others informational", () => {
    expect(repair().effect).toMatchObject({ effect: "irreversible" });
    expect(configOf(garages, repair())).toMatchObject({ effect: "irreversible", approval: "human" });
    expect(ready().effect).toEqual({ effect: "informational" });
  });

  it("declares the recipient the model's choice where nothing joins it", () => {
    expect(notice().to).toMatchObject({ match: undefined, choice: "not-joined" });
    expect(configOf(garages, notice())).toMatchObject({ recipient: "model-chooses" });
    for (const template of [repair(), ready()]) expect(configOf(garages, template).recipient).toBeUndefined();
  });

  it("formats the phone recipient with the records' country, dates and timestamps as dates", () => {
    expect(ready().to).toMatchObject({ as: "phone", country: "DE" });
    const shown = ready().slots.flatMap((slot) => (slot.kind === "ref" ? Object.values(slot.show) : []));
    expect(shown.find((entry) => entry.field === "readyOn")?.as).toMatchObject({
      kind: "date",
      pattern: "d MMMM yyyy",
    });
    // Every reportedAt is a timestamp at 09:30 UTC: the time says nothing, and the history wrote the day.
    const reported = repair().slots.flatMap((slot) => (slot.kind === "ref" ? Object.values(slot.show) : []));
    expect(reported.find((entry) => entry.field === "reportedAt")?.as).toMatchObject({
      kind: "date",
      pattern: "d MMMM yyyy",
    });
  });

  it("passes the checklist with no ✗ on a sample ticket of the history", () => {
    const catalog = catalogOf(garages, draft);
    const ticket = garageTicket(7, 3, 4, 3);
    const sample = {
      ticketId: ticket.ticketId,
      garages: ticket.garages,
      vehicles: ticket.vehicles,
      damages: ticket.damages,
    };
    const checklist = buildChecklist(catalog, { sample, propertyRuns: 50 });
    expect(failures(checklist)).toEqual([]);
    // The declared choice is a warning a reviewer reads, the joined ones pass.
    const choices = checklist.items.filter((item) => item.check === "recipient_choice");
    expect(choices.map((item) => item.status).sort()).toEqual(["pass", "pass", "pass", "warn"]);
  });

  it("never sends a message whose chosen records do not belong together, whatever the handles", () => {
    const catalog = catalogOf(garages, draft);
    const shape = fc.record({
      n: fc.integer({ min: 1000, max: 9999 }),
      garages: fc.integer({ min: 1, max: 3 }),
      vehicles: fc.integer({ min: 1, max: 4 }),
      damages: fc.integer({ min: 1, max: 3 }),
    });
    fc.assert(
      fc.property(shape, ({ n, garages: g, vehicles: v, damages: d }) => {
        const ticket = garageTicket(n, g, v, d);
        const records = {
          ticketId: ticket.ticketId,
          garages: ticket.garages,
          vehicles: ticket.vehicles,
          damages: ticket.damages,
        };
        const table = catalog.handles(records);
        for (const template of draft.templates) {
          const refs = [
            ...template.slots.flatMap((slot) =>
              slot.kind === "ref" ? [{ name: slot.name, collection: slot.collection }] : [],
            ),
            { name: "to", collection: template.to.collection },
          ];
          let sent = 0;
          for (const combination of combinations(refs, table.entries)) {
            const decision = catalog.decide(
              { template: template.id, slots: handlesOf(combination) },
              records,
            );
            const renders =
              decision.outcome === "send" ||
              (decision.outcome === "escalate" && decision.reason === "approval_required");
            if (!renders) continue;
            sent += 1;
            expect(belongTogether(ticket, combination), `${template.id} ${JSON.stringify(combination)}`).toBe(
              true,
            );
          }
          // Every template still sends on a ticket holding its records: safety is not bought by sending nothing.
          expect(sent).toBeGreaterThan(0);
        }
      }),
      { numRuns: 40, seed: 36 },
    );
  });
});

describe("drafts of the bundled history", () => {
  it("join the recipient wherever the records allow and each pass the checklist on a ticket of its own", async () => {
    const lines = readFileSync(new URL("../../examples/data/history.jsonl", import.meta.url), "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "");
    const records = historyRecords as unknown as RecordsDefinition;
    const { draft } = await draftOf(records, lines);
    expect(draft.templates.length).toBeGreaterThan(0);
    for (const template of draft.templates) {
      expect(template.to.match, template.id).toBeDefined();
      const collections = new Set([
        template.to.collection,
        ...template.slots.flatMap((slot) => (slot.kind === "ref" ? [slot.collection] : [])),
      ]);
      const line = lines
        .map((text) => JSON.parse(text) as { ticketId: string; records: Record<string, unknown> })
        .find((entry) => [...collections].every((collection) => Array.isArray(entry.records[collection])));
      expect(line, template.id).toBeDefined();
      const catalog = createCatalog(records, [defineTemplate(records, configOf(records, template))]);
      const sample = { ticketId: line?.ticketId, ...line?.records };
      expect(failures(buildChecklist(catalog, { sample, propertyRuns: 50 })), template.id).toEqual([]);
    }
    // And the whole catalog on one sample that holds a ticket of each business (their ids differ).
    const sample: Record<string, unknown[]> = {};
    for (const text of lines.slice(0, 40)) {
      const { records: held } = JSON.parse(text) as { records: Record<string, unknown[]> };
      for (const [collection, list] of Object.entries(held)) sample[collection] ??= list;
    }
    const whole = buildChecklist(catalogOf(records, draft), {
      sample: { ticketId: "T-all", ...sample },
      propertyRuns: 50,
    });
    expect(failures(whole)).toEqual([]);
  });
});

type Entry = { collection: string; handle: string; id: string };

/** What a compiled template declares, as plain data: what the emitted code and configOf must agree on. */
function shapeOf(template: Template) {
  return {
    id: template.id,
    effect: template.effect,
    approval: template.approval,
    recipientChoice: template.recipientChoice,
    channel: template.channel,
    limits: template.limits,
    slots: template.resolveOrder.map((compiled) => ({
      name: compiled.name,
      optional: compiled.slot.optional,
      joins: compiled.joins,
      fields: compiled.fields.map((field) => ({
        tag: field.tag,
        field: field.field,
        format: field.format.kind,
        reads: field.reads,
        // A phone, an amount or a date-time through the format: its country, currency, pattern and zone.
        sample: field.format.apply(
          field.format.kind === "phone"
            ? "030 4100000"
            : ["money", "number"].includes(field.format.kind)
              ? 1234.5
              : "2026-03-04T10:00:00Z",
          { currency: "EUR" },
        ),
      })),
    })),
  };
}

/** Every choice of one record per ref slot (its collection's records), as slot → entry. */
function* combinations(
  refs: readonly { name: string; collection: string }[],
  entries: readonly Entry[],
  at = 0,
  chosen: Record<string, Entry> = {},
): Generator<Record<string, Entry>> {
  const ref = refs[at];
  if (ref === undefined) {
    yield { ...chosen };
    return;
  }
  for (const entry of entries) {
    if (entry.collection !== ref.collection) continue;
    chosen[ref.name] = entry;
    yield* combinations(refs, entries, at + 1, chosen);
  }
}

function handlesOf(combination: Record<string, Entry>): Record<string, string> {
  return Object.fromEntries(Object.entries(combination).map(([name, entry]) => [name, entry.handle]));
}

/** The ground truth: every chosen damage, vehicle and garage is of one vehicle and one garage. */
function belongTogether(ticket: GarageTicket, combination: Record<string, Entry>): boolean {
  const vehicleOf = new Map(ticket.damages.map((damage) => [damage.id, damage.vehicleId]));
  const garageOf = new Map(ticket.vehicles.map((vehicle) => [vehicle.id, vehicle.garageId]));
  const vehicles = new Set<string>();
  const garagesChosen = new Set<string>();
  for (const entry of Object.values(combination)) {
    if (entry.collection === "damages") vehicles.add(vehicleOf.get(entry.id) as string);
    if (entry.collection === "vehicles") vehicles.add(entry.id);
    if (entry.collection === "garages") garagesChosen.add(entry.id);
  }
  for (const vehicle of vehicles) garagesChosen.add(garageOf.get(vehicle) as string);
  return vehicles.size <= 1 && garagesChosen.size <= 1;
}

describe("formletter mine --emit on the garage history", () => {
  const root = fileURLToPath(new URL("../../", import.meta.url));
  let directory: string;
  let records: string;
  let history: string;
  beforeAll(() => {
    // Inside the project, so the emitted module resolves "formletter" and zod as a team's own files do.
    mkdirSync(join(root, "scratch"), { recursive: true });
    directory = mkdtempSync(join(root, "scratch", "draft-safety-"));
    records = join(directory, "records.ts");
    writeFileSync(
      records,
      `export { garageRecords as records } from ${JSON.stringify(join(root, "test/mine/garage-history.ts"))};\n`,
    );
    history = join(directory, "history.jsonl");
    writeFileSync(history, `${garageHistory(60).join("\n")}\n`);
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  // Mines, typechecks the emitted module against the sources (a TypeScript program over them), checks it
  // and runs its checklist, all in this process: about 8 s of CPU alone, and 30 s was once not enough on
  // a loaded 2-core machine. The longer timeout guards against a hang, as the default one does.
  it("writes a catalog that compiles, passes check and passes the checklist with no ✗ on a sample", async () => {
    const file = join(directory, "catalog.ts");
    const mined = await cli(["mine", "--records", records, history, "--emit", file, "--country", "at"]);
    expect(mined.code, mined.stderr).toBe(0);
    const source = readFileSync(file, "utf8");
    // --country wins over the country the records name, for numbers written without one.
    expect(source).toContain('format.phone({ defaultCountry: "AT" })');
    expect(source).toContain('effect: "irreversible",\n    approval: "human",');
    expect(source).toMatch(/optional: true/);
    expect(source).toContain('recipient: "model-chooses",');
    expect(typecheck([file])).toEqual([]);
    // The emitted code and configOf declare the same templates: effects, approvals, recipient choices,
    // joins, optional links and formats.
    const emitted = (await import(file)) as { templates: Template[] };
    const report = await mineHistory(garages, garageHistory(60));
    const drafted = draftTemplates(garages, report, { country: "AT" }).templates.map((template) =>
      defineTemplate(garages, configOf(garages, template)),
    );
    expect(emitted.templates.map(shapeOf)).toEqual(drafted.map(shapeOf));
    const check = await cli(["check", file]);
    expect(check.code, check.stdout + check.stderr).toBe(0);
    const ticket = garageTicket(3, 3, 3, 2);
    const sample = join(directory, "sample.json");
    writeFileSync(
      sample,
      JSON.stringify({
        ticketId: ticket.ticketId,
        garages: ticket.garages,
        vehicles: ticket.vehicles,
        damages: ticket.damages,
      }),
    );
    const checklist = await cli(["checklist", "--catalog", file, "--records", sample, "--runs", "50"]);
    // Exit 1 on any ✗; no item line starts with one.
    expect(checklist.stdout).not.toMatch(/^\s*✗/m);
    expect(checklist.code, checklist.stdout + checklist.stderr).toBe(0);
  }, 120_000);

  it.each(["DEU", "xx", "4", "D E", "de\u202e"])(
    "refuses --country %j, naming the flag and the form it takes",
    async (country) => {
      const result = await cli([
        "mine",
        "--records",
        records,
        history,
        "--emit",
        join(directory, "never.ts"),
        "--country",
        country,
      ]);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain("--country");
      expect(result.stderr).toContain("two-letter ISO 3166-1 country code");
      expect(existsSync(join(directory, "never.ts"))).toBe(false);
    },
  );
});

describe("recipients the records do not decide", () => {
  /** `count` history lines, each built from its number. */
  const lines = (count: number, line: (n: number) => Record<string, unknown>) =>
    Array.from({ length: count }, (_, n) => JSON.stringify({ ticketId: `T-${n}`, ...line(n) }));

  it("says so when no key joins the recipient to the records the text shows", async () => {
    const records = defineRecords({
      contacts: z.object({ id: z.string(), email: z.email() }),
      orders: z.object({ id: z.string(), number: z.string() }),
    });
    const { draft } = await draftOf(
      records as unknown as RecordsDefinition,
      lines(12, (n) => ({
        records: {
          contacts: [
            { id: `c${n}a`, email: `first${n}@shop.example` },
            { id: `c${n}b`, email: `second${n}@shop.example` },
          ],
          orders: [{ id: `o${n}`, number: `ORD-${5000 + n}` }],
        },
        message: {
          to: `first${n}@shop.example`,
          text: `Order ORD-${5000 + n} has shipped today. Thank you.`,
        },
      })),
    );
    const [template] = draft.templates;
    expect(template?.to).toMatchObject({ match: undefined, choice: "not-joined" });
    const source = emitCatalog(draft, { file: "/x/records.ts", exportName: "records" }, "/x/catalog.ts", {
      history: "h.jsonl",
    });
    expect(source).toContain("no key the history's records share joins the recipient");
    expect(template?.slots).toMatchObject([{ name: "order", unjoined: true }]);
    expect(source).toContain("no key the history's records share joins this record to the others");
  });

  it("says so when the join leaves several: a garage's contacts share its id", async () => {
    const records = defineRecords({
      garages: z.object({ id: z.string(), name: z.string() }),
      contacts: z.object({ id: z.string(), garageId: z.string(), email: z.email() }),
    });
    const { draft } = await draftOf(
      records as unknown as RecordsDefinition,
      lines(12, (n) => ({
        records: {
          garages: [{ id: `g${n}`, name: `Werkstatt Nummer${n}` }],
          contacts: [
            { id: `c${n}a`, garageId: `g${n}`, email: `first${n}@garage.example` },
            { id: `c${n}b`, garageId: `g${n}`, email: `second${n}@garage.example` },
          ],
        },
        message: {
          to: `second${n}@garage.example`,
          text: `Your workshop Werkstatt Nummer${n} is now listed. Thank you.`,
        },
      })),
    );
    const [template] = draft.templates;
    expect(template?.to).toMatchObject({ match: { garageId: "garage.id" }, choice: "several-fit" });
  });

  it("never joins on a field an outsider writes", async () => {
    const records = defineRecords({
      garages: z.object({ id: z.string(), email: z.email() }),
      vehicles: z.object({ id: z.string(), plate: z.string(), garageId: untrusted("customer", z.string()) }),
    });
    const { draft, report } = await draftOf(
      records as unknown as RecordsDefinition,
      lines(12, (n) => ({
        records: {
          garages: [
            { id: `g${n}a`, email: `a${n}@garage.example` },
            { id: `g${n}b`, email: `b${n}@garage.example` },
          ],
          vehicles: [{ id: `v${n}`, plate: `PL${n}X${n}`, garageId: `g${n}a` }],
        },
        message: { to: `a${n}@garage.example`, text: `Vehicle PL${n}X${n} arrives tomorrow. Thank you.` },
      })),
    );
    // The records do share the key; the draft still does not join on it.
    expect(report.profile.keys.map((key) => key.from.field)).toContain("garageId");
    const [template] = draft.templates;
    expect(template?.slots.every((slot) => slot.kind !== "ref" || slot.match === undefined)).toBe(true);
    expect(template?.to).toMatchObject({ match: undefined, choice: "not-joined" });
  });
});

describe("a recipient two records away, one key pointing back", () => {
  // claims.policyId → policies.id → brokers.id ← agencies.brokerId: the text shows only the claim and
  // the agency receives it; the agency holds the key to its broker, not the other way round.
  const records = defineRecords({
    claims: z.object({ id: z.string(), number: z.string(), policyId: z.string() }),
    policies: z.object({ id: z.string(), brokerId: z.string() }),
    brokers: z.object({ id: z.string() }),
    agencies: z.object({ id: z.string(), brokerId: z.string(), email: z.email() }),
  });
  const definition = records as unknown as RecordsDefinition;
  const ticketOf = (n: number, brokers: number, policies: number, claims: number) => {
    const b = Array.from({ length: brokers }, (_, i) => ({ id: `b${n}x${i}` }));
    const a = b.map((broker, i) => ({
      id: `a${n}x${i}`,
      brokerId: broker.id,
      email: `agency${n}x${i}@agency.example`,
    }));
    const p = Array.from({ length: policies }, (_, i) => ({
      id: `p${n}x${i}`,
      brokerId: (b[(i + n) % brokers] as { id: string }).id,
    }));
    const c = Array.from({ length: claims }, (_, i) => ({
      id: `c${n}x${i}`,
      number: `CL${n}N${i}`,
      policyId: (p[(i * 3 + n) % policies] as { id: string }).id,
    }));
    return { ticketId: `T-${n}`, claims: c, policies: p, brokers: b, agencies: a };
  };

  it("joins the agency to the claim through the policy and the broker, and never sends across", async () => {
    const history = Array.from({ length: 30 }, (_, n) => {
      const ticket = ticketOf(n, 2 + (n % 2), 2 + (n % 3), 2);
      const claim = ticket.claims[0] as { number: string; policyId: string };
      const policy = ticket.policies.find((entry) => entry.id === claim.policyId) as { brokerId: string };
      const agency = ticket.agencies.find((entry) => entry.brokerId === policy.brokerId) as { email: string };
      const { ticketId, ...collections } = ticket;
      return JSON.stringify({
        ticketId,
        records: collections,
        message: {
          to: agency.email,
          text: `Claim ${claim.number} has been registered and is being assessed.`,
        },
      });
    });
    const { draft } = await draftOf(definition, history);
    const [template] = draft.templates;
    // The policy is linked; the broker too, unless the records also share policies.brokerId = agencies.brokerId
    // directly (they do here: every broker has one agency), which joins the agency to the policy itself.
    const links = (template?.slots ?? [])
      .filter((slot) => slot.kind === "ref" && slot.link)
      .map((slot) => slot.name);
    expect(links).toContain("policy");
    expect(template?.to.match).toEqual({
      brokerId: expect.stringMatching(/^(broker\.id|policy\.brokerId)$/),
    });
    const catalog = catalogOf(definition, draft);
    fc.assert(
      fc.property(
        fc.record({
          n: fc.integer({ min: 100, max: 999 }),
          b: fc.integer({ min: 1, max: 3 }),
          p: fc.integer({ min: 1, max: 3 }),
          c: fc.integer({ min: 1, max: 3 }),
        }),
        ({ n, b, p, c }) => {
          const ticket = ticketOf(n, b, p, c);
          const table = catalog.handles(ticket);
          const refs = [
            ...(template?.slots ?? []).flatMap((slot) =>
              slot.kind === "ref" ? [{ name: slot.name, collection: slot.collection }] : [],
            ),
            { name: "to", collection: "agencies" },
          ];
          let sent = 0;
          for (const combination of combinations(refs, table.entries)) {
            const decision = catalog.decide(
              { template: template?.id, slots: handlesOf(combination) },
              ticket,
            );
            if (decision.outcome !== "send") continue;
            sent += 1;
            const byCollection = new Map(
              Object.values(combination).map((entry) => [entry.collection, entry.id]),
            );
            const claim = ticket.claims.find((entry) => entry.id === byCollection.get("claims"));
            const policy = ticket.policies.find((entry) => entry.id === claim?.policyId);
            const agency = ticket.agencies.find((entry) => entry.id === byCollection.get("agencies"));
            expect(agency?.brokerId).toBe(policy?.brokerId);
          }
          expect(sent).toBe(c);
        },
      ),
      { numRuns: 30, seed: 7 },
    );
  });
});

describe.each(corpusDomains)("drafts of the %s corpus", (domain) => {
  const corpus = generateCorpus({ domain, seed: 11, messages: 500, languages: ["en", "de"] });
  const records = corpus.records as unknown as RecordsDefinition;
  const lines = [...corpus.lines()];
  const clusterOf = new Map<number, number>();
  let report: Awaited<ReturnType<typeof mineHistory>>;
  let draft: CatalogDraft;
  beforeAll(async () => {
    report = await mineHistory(
      records,
      lines.map(({ line }) => JSON.stringify(line)),
      { onMessage: (line, cluster) => clusterOf.set(line, cluster) },
    );
    draft = draftTemplates(records, report);
  });

  it("drafts every template that moves money, refunds, cancels or authorises as irreversible", () => {
    const truth = new Map(corpus.templates.map((template) => [template.id, template.effect]));
    let checked = 0;
    for (const drafted of draft.templates) {
      const candidate = report.candidates.find((entry) => entry.id === drafted.cluster);
      // A candidate merged from several clusters lists them all; its members' true templates vote.
      const members = new Set(
        (candidate as { clusters?: readonly number[] } | undefined)?.clusters ?? [drafted.cluster],
      );
      const votes = new Map<string, number>();
      lines.forEach(({ template }, index) => {
        if (template !== undefined && members.has(clusterOf.get(index + 1) as number))
          votes.set(template, (votes.get(template) ?? 0) + 1);
      });
      const [top] = [...votes].sort((a, b) => b[1] - a[1]);
      const effect = top === undefined ? undefined : truth.get(top[0]);
      if (effect === undefined || effect === "informational") continue;
      checked += 1;
      expect(drafted.effect.effect, `${drafted.id} (${top?.[0]}, ${effect})`).toBe("irreversible");
    }
    expect(checked).toBeGreaterThan(0);
  });

  it("finds every key of the corpus, and the kind of every date, timestamp and phone field", () => {
    const found = new Set(
      report.profile.keys.flatMap((key) => [
        `${key.from.collection}.${key.from.field}>${key.to.collection}`,
        `${key.to.collection}.${key.to.field}>${key.from.collection}`,
      ]),
    );
    for (const [field, target] of Object.entries(corpus.joins))
      expect(found, field).toContain(`${field}>${target}`);
    const kinds = new Map(
      report.profile.fields.map((field) => [`${field.collection}.${field.field}`, field.kind]),
    );
    for (const [field, kind] of Object.entries(corpus.kinds))
      if (typeof kind === "string") expect(kinds.get(field), field).toBe(kind);
  });

  it("drafts templates that each pass the checklist on a ticket they send on, and never send across records", () => {
    expect(draft.templates.length).toBeGreaterThan(2);
    for (const drafted of draft.templates) {
      const catalog = createCatalog(records, [defineTemplate(records, configOf(records, drafted))]);
      const tickets = lines.map(({ line }) => ({ ticketId: line.ticketId, ...line.records }));
      const sample = tickets.find((ticket) => {
        const preview = catalog.preview(ticket, { limit: 300 });
        return preview.ok && preview.messages > 0;
      });
      expect(sample, `${drafted.id} sends on no ticket`).toBeDefined();
      expect(failures(buildChecklist(catalog, { sample, propertyRuns: 30 })), drafted.id).toEqual([]);
      const refs = [
        ...drafted.slots.flatMap((slot) =>
          slot.kind === "ref" ? [{ name: slot.name, collection: slot.collection }] : [],
        ),
        { name: "to", collection: drafted.to.collection },
      ];
      for (const ticket of tickets.slice(0, 12)) {
        const table = catalog.handles(ticket);
        for (const combination of combinations(refs, table.entries)) {
          const decision = catalog.decide({ template: drafted.id, slots: handlesOf(combination) }, ticket);
          const renders =
            decision.outcome === "send" ||
            (decision.outcome === "escalate" && decision.reason === "approval_required");
          if (renders)
            expect(
              keysHold(ticket, combination, corpus.joins),
              `${drafted.id} ${JSON.stringify(combination)}`,
            ).toBe(true);
        }
      }
    }
  });
});

/** Every key of the corpus between two chosen records holds: the records belong together. */
function keysHold(
  ticket: Record<string, unknown>,
  combination: Record<string, Entry>,
  joins: Readonly<Record<string, string>>,
): boolean {
  const recordOf = (entry: Entry) =>
    (ticket[entry.collection] as { id: string }[]).find((record) => record.id === entry.id) as Record<
      string,
      unknown
    >;
  const chosen = Object.values(combination);
  for (const [path, target] of Object.entries(joins)) {
    const [collection, field] = path.split(".") as [string, string];
    for (const from of chosen.filter((entry) => entry.collection === collection))
      for (const to of chosen.filter((entry) => entry.collection === target))
        if (recordOf(from)[field] !== to.id) return false;
  }
  return true;
}

describe("the country of phone numbers written without one", () => {
  const records = defineRecords({
    people: z.object({ id: z.string(), name: z.string(), phone: z.string() }),
  });
  const history = Array.from({ length: 8 }, (_, n) =>
    JSON.stringify({
      ticketId: `T-${n}`,
      records: { people: [{ id: "p", name: `Ana${n}q`, phone: `0151 234567${n}` }] },
      message: {
        to: `0151 234567${n}`,
        text: "Your appointment is confirmed for tomorrow morning. See you soon.",
      },
    }),
  );
  const emitted = (draft: CatalogDraft) =>
    emitCatalog(draft, { file: "/x/records.ts", exportName: "records" }, "/x/catalog.ts", {
      history: "h.jsonl",
    });

  it("is left for the reviewer, and said so, when no number in the records names one", async () => {
    const report = await mineHistory(records, history);
    const draft = draftTemplates(records, report);
    expect(draft.templates[0]?.to).toMatchObject({ as: "phone", country: undefined });
    expect(emitted(draft)).toContain("no number in the records names its country with a +");
  });

  it("is the one --country gives", async () => {
    const report = await mineHistory(records, history);
    const draft = draftTemplates(records, report, { country: "DE" });
    expect(draft.templates[0]?.to).toMatchObject({ as: "phone", country: "DE" });
    expect(emitted(draft)).toContain('format.phone({ defaultCountry: "DE" })');
    expect(emitted(draft)).not.toContain("no number in the records names its country");
  });
});
