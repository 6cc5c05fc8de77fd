import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { HandleEntry } from "../../../src/core/decision/catalog.js";
import { createHandleMaker } from "../../../src/core/decision/handles.js";
import { createCatalog, defineRecords, defineTemplate } from "../../../src/index.js";
import { catalog, clinicTicket, records, templates } from "../../fixtures/clinic.js";
import { expectEscalation, expectSend } from "../../fixtures/expect.js";

const handlePattern = /^[a-z][a-z0-9_]*-[0-9a-f]{4,}$/;

/** The handle before any lengthening: the collection prefix, "-" and four hex digits. */
const shortOf = (handle: string) => handle.replace(/^([a-z0-9_]+-[0-9a-f]{4}).*$/, "$1");
const prefixOf = (handle: string) => handle.slice(0, handle.indexOf("-"));

/** A records definition with room for many records, and its catalog, keyed with `secret`. */
function bulk(secret?: string | Uint8Array) {
  const defined = defineRecords(
    {
      patients: z.object({ id: z.string(), email: z.email() }),
      payers: z.object({ id: z.string(), name: z.string() }),
    },
    { maxPerCollection: 5000 },
  );
  const template = defineTemplate(defined, {
    id: "payer_note",
    description: "Tell a patient who pays",
    audience: "patient",
    effect: "informational",
    channel: "email",
    to: defined.slot.ref("patients", { show: "email" }),
    subject: "Your payer",
    body: "Your visit is paid by {{payer}}.",
    slots: { payer: defined.slot.ref("payers", { show: "name" }) },
    limits: { perTicket: 1, perDay: 1 },
  });
  return createCatalog(defined, [template], secret === undefined ? {} : { handleSecret: secret });
}

const patients = (ids: readonly string[]) => ids.map((id) => ({ id, email: "p@example.org" }));
const byId = (entries: readonly HandleEntry[]) => new Map(entries.map((entry) => [entry.id, entry.handle]));

describe("handles", () => {
  it("are short, lower-case and start with a prefix of the collection's name", () => {
    for (const entry of catalog.handles(clinicTicket()).entries) {
      expect(entry.handle).toMatch(handlePattern);
      expect(entry.collection.startsWith(prefixOf(entry.handle))).toBe(true);
      // The clinic's collections differ in their first letter: one letter is enough.
      expect(entry.handle).toHaveLength(6);
    }
  });

  it("tell collections apart that share a first letter", () => {
    const ticket = { ticketId: "T", patients: patients(["P-1"]), payers: [{ id: "P-1", name: "Insurer" }] };
    const entries = bulk().handles(ticket).entries;
    const [patient, payer] = [
      entries.find((e) => e.collection === "patients"),
      entries.find((e) => e.collection === "payers"),
    ];
    expect(prefixOf(patient?.handle ?? "")).not.toBe(prefixOf(payer?.handle ?? ""));
    expect("patients".startsWith(prefixOf(patient?.handle ?? "-"))).toBe(true);
    expect("payers".startsWith(prefixOf(payer?.handle ?? "-"))).toBe(true);
  });

  it("are opaque: they hold neither the id nor anything of the record", () => {
    const ids = ["3f2a", "beef", "a1b2c3", "0000", "P-1", "ada@example.org"];
    const bulkCatalog = bulk();
    const entries = bulkCatalog.handles({ ticketId: "T", patients: patients(ids) }).entries;
    for (const entry of entries) {
      expect(entry.handle.slice(2)).not.toContain(entry.id.toLowerCase());
      expect(entry.label).not.toContain(entry.id);
    }
  });

  it("are stable across calls, tickets and catalogs with the same secret", () => {
    const ticket = clinicTicket();
    const first = catalog.handles(ticket).entries;
    expect(catalog.handles(ticket).entries).toEqual(first);
    const again = createCatalog(records, templates);
    expect(again.handles(ticket).entries).toEqual(first);
    const otherTicket = clinicTicket({ ticketId: "T-999", staff: [] });
    const later = byId(catalog.handles(otherTicket).entries);
    for (const entry of first.filter((e) => e.collection !== "staff"))
      expect(later.get(entry.id)).toBe(entry.handle);
  });

  it("are the same after the maker's cache of digests has filled and dropped its oldest, in every collection", () => {
    const make = createHandleMaker("formletter", ["orders", "owners", "items"]);
    const first = { orders: make("orders", ["o1", "o2"]), items: make("items", ["o1"]) };
    // More ids than the cache holds, in two collections: its oldest digests are dropped on the way.
    for (let batch = 0; batch < 60; batch++) {
      const ids = Array.from({ length: 2000 }, (_, index) => `x${batch}-${index}`);
      make(batch % 2 === 0 ? "orders" : "owners", ids);
    }
    expect(make("orders", ["o1", "o2"])).toEqual(first.orders);
    expect(make("items", ["o1"])).toEqual(first.items);
    // The same id in two collections is two records with two handles.
    expect(first.items[0]?.slice(first.items[0].indexOf("-"))).not.toBe(
      first.orders[0]?.slice(first.orders[0].indexOf("-")),
    );
  });

  it("differ with another secret, and are the same again with the same secret", () => {
    const ids = Array.from({ length: 20 }, (_, i) => `P-${i}`);
    const ticket = { ticketId: "T", patients: patients(ids) };
    const a = bulk("clinic-secret-1")
      .handles(ticket)
      .entries.map((e) => e.handle);
    const b = bulk("clinic-secret-2")
      .handles(ticket)
      .entries.map((e) => e.handle);
    const a2 = bulk("clinic-secret-1")
      .handles(ticket)
      .entries.map((e) => e.handle);
    expect(a2).toEqual(a);
    expect(b.filter((handle, i) => handle === a[i]).length).toBeLessThan(2);
    const bytes = bulk(new TextEncoder().encode("clinic-secret-1"))
      .handles(ticket)
      .entries.map((e) => e.handle);
    for (const handle of bytes) expect(handle).toMatch(handlePattern);
  });

  it("never collide within a collection: colliding ones are lengthened, keeping their short prefix", () => {
    const bulkCatalog = bulk();
    const ids = Array.from({ length: 3000 }, (_, i) => `patient-${i}`);
    const entries = bulkCatalog.handles({ ticketId: "T", patients: patients(ids) }).entries;
    const handles = entries.map((e) => e.handle);
    expect(new Set(handles).size).toBe(handles.length);
    for (const handle of handles) expect(handle).toMatch(handlePattern);

    // With 3,000 records in 65,536 short handles, collisions are certain: find them.
    const byShort = new Map<string, HandleEntry[]>();
    for (const entry of entries) {
      const short = shortOf(entry.handle);
      byShort.set(short, [...(byShort.get(short) ?? []), entry]);
    }
    const groups = [...byShort.values()].filter((group) => group.length > 1);
    expect(groups.length).toBeGreaterThan(0);
    for (const group of groups)
      for (const entry of group) expect(entry.handle).not.toBe(shortOf(entry.handle));
    const lengthened = entries.filter((e) => e.handle !== shortOf(e.handle));
    for (const entry of lengthened) expect(byShort.get(shortOf(entry.handle))?.length).toBeGreaterThan(1);

    // The colliding pair alone: still lengthened and distinct; either one alone: short again.
    const [first, second] = groups[0] as HandleEntry[];
    if (first === undefined || second === undefined) throw new Error("no collision found");
    const pair = byId(
      bulkCatalog.handles({ ticketId: "T2", patients: patients([first.id, second.id]) }).entries,
    );
    expect(pair.get(first.id)).not.toBe(pair.get(second.id));
    expect(pair.get(first.id)).not.toBe(shortOf(first.handle));
    expect(pair.get(first.id)?.startsWith(shortOf(first.handle))).toBe(true);
    const alone = bulkCatalog.handles({ ticketId: "T3", patients: patients([first.id]) }).entries[0]?.handle;
    expect(alone).toBe(shortOf(first.handle));
  });

  it("a lengthened handle decides like any other, in any case", () => {
    const bulkCatalog = bulk();
    const ids = Array.from({ length: 3000 }, (_, i) => `payer-${i}`);
    const ticket = {
      ticketId: "T",
      patients: patients(["P-1"]),
      payers: ids.map((id) => ({ id, name: `Payer ${id.slice(6)}` })),
    };
    const long = bulkCatalog
      .handles(ticket)
      .entries.find((e) => e.collection === "payers" && e.handle !== shortOf(e.handle));
    if (long === undefined) throw new Error("no lengthened handle");
    const decision = expectSend(
      bulkCatalog.decide({ template: "payer_note", slots: { payer: long.handle.toUpperCase() } }, ticket),
    );
    expect(decision.message.text).toBe(`Your visit is paid by Payer ${long.id.slice(6)}.`);
    // Its short prefix is ambiguous, so it names no record.
    expectEscalation(
      bulkCatalog.decide({ template: "payer_note", slots: { payer: shortOf(long.handle) } }, ticket),
      "record_not_found",
    );
  });

  it("never collide within a ticket, even across collections that share a first letter", () => {
    const bulkCatalog = bulk();
    const ids = Array.from({ length: 2000 }, (_, i) => `id-${i}`);
    const ticket = {
      ticketId: "T",
      patients: patients(ids),
      payers: ids.map((id) => ({ id: `x${id}`, name: "n" })),
    };
    const handles = bulkCatalog.handles(ticket).entries.map((e) => e.handle);
    expect(handles).toHaveLength(4000);
    expect(new Set(handles).size).toBe(handles.length);
  });

  it("HandleTable.get finds by collection and id, and nothing else", () => {
    const table = catalog.handles(clinicTicket());
    expect(table.ticketId).toBe("T-100");
    expect(table.get("patients", "P-1")).toMatch(/^p-/);
    expect(table.get("clinicians", "P-1")).toBeUndefined();
    expect(table.get("patients", "P-404")).toBeUndefined();
    expect(table.get("__proto__", "constructor")).toBeUndefined();
  });
});
