import { describe, expect, it } from "vitest";
import { z } from "zod";
import { isPreparedTicket } from "../../../src/core/decision/ticket.js";
import {
  createCatalog,
  DefinitionError,
  defineRecords,
  defineTemplate,
  isFormletterError,
} from "../../../src/index.js";
import {
  ada,
  booked,
  catalog,
  clinicTicket,
  grace,
  records,
  reminderProposal,
} from "../../fixtures/clinic.js";
import { expectEscalation, expectSend } from "../../fixtures/expect.js";

const id = z.string();

describe("defineRecords", () => {
  it("lists the collections and builds a slot builder with exactly three kinds", () => {
    expect(records.names).toEqual(["patients", "clinicians", "appointments", "staff"]);
    // There is deliberately no free-text slot kind.
    expect(Object.keys(records.slot).sort()).toEqual(["choice", "derived", "ref"]);
    expect(Object.isFrozen(records)).toBe(true);
  });

  it.each([
    ["not an object", () => defineRecords(null as never)],
    ["no collections", () => defineRecords({})],
    ["an upper-case collection name", () => defineRecords({ Patients: z.object({ id }) })],
    ["a collection name starting with a digit", () => defineRecords({ "1st": z.object({ id }) })],
    ["a collection without id", () => defineRecords({ rooms: z.object({ label: z.string() }) as never })],
    ["a numeric id", () => defineRecords({ rooms: z.object({ id: z.number() }) as never })],
    ["a schema that is not an object", () => defineRecords({ rooms: z.string() as never })],
    [
      "a label for an undeclared collection",
      () => defineRecords({ rooms: z.object({ id }) }, { labels: { beds: () => "bed" } as never }),
    ],
  ])("rejects %s", (_name, define) => {
    let caught: unknown;
    try {
      define();
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(DefinitionError);
    expect(isFormletterError(caught)).toBe(true);
    expect((caught as DefinitionError).code).toBe("records_definition_invalid");
    expect((caught as DefinitionError).message).toMatch(/defineRecords/);
  });

  it("labels records with the code-built label, or a neutral default when there is none or it throws", () => {
    const defined = defineRecords(
      { rooms: z.object({ id, name: z.string() }), beds: z.object({ id }) },
      {
        labels: {
          rooms: (room) => {
            if (room.name === "boom") throw new Error("label failed");
            return `room ${room.name}`;
          },
        },
      },
    );
    expect(defined.label("rooms", { id: "R-1", name: "Kiwi" }, 0)).toBe("room Kiwi");
    expect(defined.label("rooms", { id: "R-2", name: "boom" }, 1)).toBe("rooms record 2");
    expect(defined.label("beds", { id: "B-9" }, 0)).toBe("beds record 1");
  });
});

describe("ticket records are validated before any slot reads them", () => {
  const ticket = clinicTicket();
  const proposal = reminderProposal(ticket);
  const patient = ada;
  const appointment = booked;

  const invalid: [string, unknown, RegExp][] = [
    ["a missing ticketId", { patients: ticket.patients }, /ticketId/],
    ["a numeric ticketId", { ...ticket, ticketId: 100 }, /ticketId/],
    ["an empty ticketId", { ...ticket, ticketId: "" }, /ticketId/],
    ["a 100 KB ticketId", { ...ticket, ticketId: "T".repeat(100_000) }, /ticketId/],
    ["an undeclared collection", { ...ticket, invoices: [] }, /"invoices" is not a declared collection/],
    ["a collection that is not an array", { ...ticket, patients: patient }, /patients must be an array/],
    ["a record that is a number", { ...ticket, patients: [42] }, /patients\[0\]/],
    ["a record that is null", { ...ticket, patients: [null] }, /patients\[0\]/],
    ["a record that is a string", { ...ticket, patients: ["P-1"] }, /patients\[0\]/],
    ["a record that is an array", { ...ticket, patients: [["P-1", "Ada"]] }, /patients\[0\]/],
    [
      "a record missing a field",
      { ...ticket, patients: [{ id: "P-1", email: "a@b.org", phone: "1" }] },
      /patients\[0\]\.name/,
    ],
    [
      "a field of the wrong type",
      { ...ticket, appointments: [{ ...appointment, fee: "45.50" }] },
      /appointments\[0\]\.fee/,
    ],
    [
      "a value outside an enum",
      { ...ticket, appointments: [{ ...appointment, status: "CONFIDENTIAL-7781" }] },
      /appointments\[0\]\.status/,
    ],
    [
      "an invalid address in a z.email() field",
      { ...ticket, clinicians: [{ ...grace, email: "grace at clinic" }] },
      /clinicians\[0\]\.email/,
    ],
    ["an empty id", { ...ticket, patients: [{ ...patient, id: "" }] }, /patients\[0\]\.id/],
    ["a 100 KB id", { ...ticket, patients: [{ ...patient, id: "P".repeat(100_000) }] }, /patients\[0\]\.id/],
    [
      "duplicate ids in one collection",
      { ...ticket, appointments: [appointment, { ...appointment, room: "Z9" }] },
      /appointments\[1\].*unique/,
    ],
  ];

  it.each(invalid)("%s → records_invalid, naming where (never the value)", (_name, input, where) => {
    const decision = expectEscalation(catalog.decide(proposal, input as never), "records_invalid");
    expect(decision.detail).toMatch(where);
    expect(decision.detail).not.toContain("CONFIDENTIAL-7781");
    expect(decision.detail).not.toContain("grace at clinic");
    expect(decision.detail.length).toBeLessThan(400);
    expect(decision).not.toHaveProperty("message");
  });

  it.each([
    ["null", null],
    ["an array", [ticket]],
    ["a string", "T-100"],
    ["a number", 100],
    ["undefined", undefined],
  ])("a ticket that is %s → records_invalid", (_name, input) => {
    expectEscalation(catalog.decide(proposal, input as never), "records_invalid");
  });

  it("the same id in two collections is fine", () => {
    const shared = clinicTicket({ staff: [{ id: "P-1", chatId: "U1", role: "nurse" }] });
    expectSend(catalog.decide(reminderProposal(shared), shared));
  });

  it("a collection left out counts as empty", () => {
    const { staff: _staff, ...withoutStaff } = clinicTicket();
    expectSend(catalog.decide(reminderProposal(withoutStaff as never), withoutStaff as never));
  });

  it("more records than maxPerCollection → records_invalid", () => {
    const small = defineRecords({ patients: z.object({ id, email: z.email() }) }, { maxPerCollection: 3 });
    const template = defineTemplate(small, {
      id: "hello",
      description: "Say hello",
      audience: "patient",
      effect: "informational",
      channel: "email",
      to: small.slot.ref("patients", { show: "email" }),
      subject: "Hello",
      body: "Hello.",
      limits: { perTicket: 1, perDay: 1 },
    });
    const smallCatalog = createCatalog(small, [template]);
    const patients = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ id: `P-${i}`, email: `p${i}@example.org` }));
    const three = { ticketId: "T", patients: patients(3) };
    const first = smallCatalog.handles(three).entries[0]?.handle;
    expectSend(smallCatalog.decide({ template: "hello", slots: { to: first } }, three));
    const over = expectEscalation(
      smallCatalog.decide({ template: "hello" }, { ticketId: "T", patients: patients(4) }),
      "records_invalid",
    );
    expect(over.detail).toMatch(/4 records.*3/);
  });

  it("validated records are what slots see: unknown fields are dropped", () => {
    const extra = clinicTicket({
      clinicians: [{ ...grace, secretNote: "do not send" } as never, ...ticket.clinicians.slice(1)],
    });
    const decision = expectSend(catalog.decide(reminderProposal(extra), extra));
    expect(JSON.stringify(decision)).not.toContain("do not send");
  });

  it("prepared tickets are recognised by isPreparedTicket; raw records are not", () => {
    const prepared = catalog.prepare(ticket);
    expect(prepared.ok && isPreparedTicket(prepared.ticket)).toBe(true);
    expect(isPreparedTicket(ticket)).toBe(false);
    expect(isPreparedTicket(null)).toBe(false);
  });

  it("handles() and describe() throw a records_invalid FormletterError on invalid records", () => {
    for (const call of [() => catalog.handles({ ticketId: "" }), () => catalog.describe({ ticketId: "" })]) {
      let caught: unknown;
      try {
        call();
      } catch (error) {
        caught = error;
      }
      expect(isFormletterError(caught)).toBe(true);
      expect((caught as { code: string }).code).toBe("records_invalid");
    }
  });
});
