import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { FieldLabel } from "../../src/core/definition/labels.js";
import type { Catalog, Decision } from "../../src/index.js";
import { defineRecords, untrusted } from "../../src/index.js";
import { checkCatalog, hostileOutputs, hostileStrings } from "../../src/testing/index.js";
import { leakedCanaries, withLabelCanaries } from "../../src/testing/label-canaries.js";
import { customerCatalog } from "../../templates/customer.js";
import { oncallCatalog } from "../../templates/oncall.js";
import { sellerCatalog } from "../../templates/seller.js";
import { catalog as clinicCatalog, clinicTicket } from "../fixtures/clinic.js";

const firstSellerTicket = JSON.parse(
  readFileSync(new URL("../../examples/data/tickets.jsonl", import.meta.url), "utf8").split(
    "\n",
  )[0] as string,
).records;

/** A catalog whose decide() is altered after the fact, to prove each property can fail. */
function tampered(catalog: Catalog, alter: (decision: Decision) => Decision): Catalog {
  return {
    ...catalog,
    decide: (output: unknown, ticket: unknown) => alter(catalog.decide(output, ticket)),
  } as Catalog;
}

describe("checkCatalog", () => {
  it.each([
    ["seller", sellerCatalog as unknown as Catalog, firstSellerTicket],
    ["clinic", clinicCatalog as unknown as Catalog, clinicTicket()],
  ])("finds no failure in the %s catalog, and sends some messages", (_name, catalog, ticket) => {
    const report = checkCatalog(catalog, ticket, { runs: 600, seed: 3 });
    expect(report.failures).toEqual([]);
    expect(report.runs).toBe(600);
    expect(report.sends).toBeGreaterThan(0);
    expect(report.sends + Object.values(report.escalations).reduce((a, b) => a + b, 0)).toBe(600);
  });

  it("is repeatable for a seed", () => {
    const a = checkCatalog(sellerCatalog, firstSellerTicket, { runs: 200, seed: 11 });
    const b = checkCatalog(sellerCatalog, firstSellerTicket, { runs: 200, seed: 11 });
    expect(a).toEqual(b);
  });

  it("reports a labelled value, written at any depth of the records, that reaches a reader it is kept from", () => {
    // Appends to each send every canary word the ticket holds, as a catalog that leaked them would.
    const catalog = sellerCatalog as unknown as Catalog;
    const leaking = {
      ...catalog,
      decide: (output: unknown, ticket: unknown) => {
        const decision = catalog.decide(output, ticket);
        const words = JSON.stringify(ticket).match(/QZ[0-9A-Z]+LBL/g) ?? [];
        return decision.outcome === "send"
          ? {
              ...decision,
              message: { ...decision.message, text: `${decision.message.text} ${words.join(" ")}` },
            }
          : decision;
      },
    } as Catalog;
    const report = checkCatalog(leaking, firstSellerTicket, { runs: 300, seed: 5 });
    const leaks = report.failures.filter((failure) => failure.property === "labels_respected");
    expect(leaks.length).toBeGreaterThan(0);
    expect(leaks[0]?.detail).toMatch(/reached "seller"/);
  });

  it("lets a labelled value reach the readers its label allows", () => {
    const { records, canaries } = withLabelCanaries(sellerCatalog.records as never, firstSellerTicket, 1);
    expect(canaries.size).toBeGreaterThan(0);
    const [canary, labels] = [...canaries][0] as [string, readonly FieldLabel[]];
    const label = labels[0] as FieldLabel;
    const reader = label.kind === "untrusted" ? label.author : (label.roles[0] as string);
    expect(leakedCanaries(`text ${canary}`, canaries, reader)).toEqual([]);
    expect(leakedCanaries(`text ${canary}`, canaries, "nobody_reads_this")).toHaveLength(1);
    expect(JSON.stringify(records)).toContain(canary);
  });

  it("reports a recipient that is not the chosen record's address", () => {
    const catalog = tampered(sellerCatalog as unknown as Catalog, (decision) =>
      decision.outcome === "send"
        ? { ...decision, message: { ...decision.message, to: "eve@evil.example" } }
        : decision,
    );
    const report = checkCatalog(catalog, firstSellerTicket, { runs: 300, seed: 5 });
    expect(report.sends).toBeGreaterThan(0);
    expect(report.failures.some((failure) => failure.property === "recipient_from_records")).toBe(true);
  });

  it("reports text that is not the template and the chosen records' values", () => {
    const catalog = tampered(sellerCatalog as unknown as Catalog, (decision) =>
      decision.outcome === "send"
        ? { ...decision, message: { ...decision.message, text: `${decision.message.text}\nP.S. call me` } }
        : decision,
    );
    const report = checkCatalog(catalog, firstSellerTicket, { runs: 300, seed: 5 });
    expect(report.failures.some((failure) => failure.property === "message_is_template_and_values")).toBe(
      true,
    );
  });

  it.each([
    ["a right-to-left override", "\u202E"],
    ["a first-strong isolate", "\u2068"],
    ["a zero-width space", "\u200B"],
    ["an escape", "\u001B"],
  ])("reports %s in a sent message", (_name, hidden) => {
    const catalog = tampered(sellerCatalog as unknown as Catalog, (decision) =>
      decision.outcome === "send"
        ? {
            ...decision,
            message: { ...decision.message, subject: `${decision.message.subject ?? ""}${hidden}` },
          }
        : decision,
    );
    const report = checkCatalog(catalog, firstSellerTicket, { runs: 200, seed: 5 });
    expect(report.sends).toBeGreaterThan(0);
    expect(report.failures.some((failure) => failure.property === "no_hidden_text")).toBe(true);
  });

  it("reports a decide() that throws, and never throws itself", () => {
    const catalog = {
      ...(sellerCatalog as unknown as Catalog),
      decide: () => {
        throw new Error("boom");
      },
    } as Catalog;
    const report = checkCatalog(catalog, firstSellerTicket, { runs: 20 });
    expect(report.failures).toHaveLength(20);
    expect(report.failures[0]?.property).toBe("never_throws");
  });

  it("refuses an invalid sample ticket with a message saying so", () => {
    expect(() => checkCatalog(sellerCatalog, { ticketId: 1 })).toThrow(/sample ticket is invalid/);
  });

  it("holds for the customer and on-call catalogs on tickets of their own shape", () => {
    for (const catalog of [customerCatalog, oncallCatalog] as unknown as Catalog[]) {
      const names = catalog.records.names;
      const empty = Object.fromEntries(names.map((name) => [name, []]));
      const report = checkCatalog(catalog, { ticketId: "T-1", ...empty }, { runs: 100 });
      expect(report.failures).toEqual([]);
    }
  });

  it("ships a corpus of hostile text and outputs", () => {
    expect(hostileStrings.some((text) => text.includes("\r\nBcc:"))).toBe(true);
    expect(hostileStrings.some((text) => text.length >= 100_000)).toBe(true);
    expect(hostileOutputs).toContainEqual({ template: "x", bcc: "eve@evil.example" });
  });
});

describe("label canaries", () => {
  it("are written inside sets, maps and nested objects, and keep dates as they are", () => {
    const records = defineRecords({
      notes: z.object({
        id: z.string(),
        at: z.date(),
        tags: z.set(untrusted("buyer", z.string())),
        byKey: z.map(z.string(), z.object({ text: untrusted("buyer", z.string()) })),
      }),
    });
    const at = new Date(0);
    const ticket = {
      ticketId: "T-1",
      notes: [{ id: "n1", at, tags: new Set(["a"]), byKey: new Map([["k", { text: "b" }]]) }],
    };
    const { records: marked, canaries } = withLabelCanaries(records as never, ticket, 1);
    const note = (marked as { notes: Record<string, unknown>[] }).notes[0] as Record<string, unknown>;
    expect(canaries.size).toBe(2);
    expect(note.at).toEqual(at);
    expect([...(note.tags as Set<string>)][0]).toMatch(/LBL$/);
    expect((note.byKey as Map<string, { text: string }>).get("k")?.text).toMatch(/LBL$/);
  });
});
