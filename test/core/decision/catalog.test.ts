import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createCatalog,
  defineRecords,
  defineTemplate,
  format,
  isFormletterError,
  type Template,
} from "../../../src/index.js";
import {
  catalog,
  clinicTicket,
  records,
  reminder,
  reminderProposal,
  smsReminder,
  templates,
} from "../../fixtures/clinic.js";
import { expectEscalation, expectSend, thrown } from "../../fixtures/expect.js";

describe("createCatalog", () => {
  it("holds the templates by id and reports them in order", () => {
    expect(catalog.templates.map((t) => t.id)).toEqual(templates.map((t) => t.id));
    expect(catalog.template("sms_reminder")).toBe(smsReminder);
    expect(catalog.template("nope")).toBeUndefined();
    expect(catalog.template("__proto__")).toBeUndefined();
    expect(Object.isFrozen(catalog)).toBe(true);
  });

  it("rejects the same template id twice, naming it", () => {
    const twin = defineTemplate(records, {
      id: reminder.id,
      description: "Another reminder",
      audience: "patient",
      effect: "informational",
      channel: "email",
      to: records.slot.ref("patients", { show: "email", as: format.email() }),
      subject: "Reminder",
      body: "Your appointment in room {{room}}.",
      slots: { room: records.slot.ref("appointments", { show: "room" }) },
      limits: { perTicket: 1, perDay: 1 },
    });
    const error = thrown(() => createCatalog(records, [reminder, twin]));
    expect(error.code).toBe("catalog_invalid");
    expect(error.template).toBe("appointment_reminder");
    expect(error.message).toContain('"appointment_reminder"');
    expect(error.message).toMatch(/unique/i);
  });

  it("rejects a template defined against another records definition", () => {
    const other = defineRecords({ contacts: z.object({ id: z.string(), email: z.email() }) });
    const foreign = defineTemplate(other, {
      id: "hello",
      description: "Say hello",
      audience: "patient",
      effect: "informational",
      channel: "email",
      to: other.slot.ref("contacts", { show: "email" }),
      subject: "Hello",
      body: "Hello there.",
      limits: { perTicket: 1, perDay: 1 },
    });
    const error = thrown(() => createCatalog(records, [reminder, foreign]));
    expect(error.code).toBe("catalog_invalid");
    expect(error.message).toContain('"hello"');
    expect(error.message).toMatch(/records/i);
  });

  it.each([
    ["no templates", () => createCatalog(records, [])],
    ["not an array", () => createCatalog(records, "reminder" as never)],
    ["a hand-made template object", () => createCatalog(records, [{ ...reminder } as Template])],
    ["an empty escalation list", () => createCatalog(records, [reminder], { escalationCodes: [] })],
    [
      "an escalation code with spaces",
      () => createCatalog(records, [reminder], { escalationCodes: ["call me"] }),
    ],
    ["a repeated escalation code", () => createCatalog(records, [reminder], { escalationCodes: ["a", "a"] })],
  ])("rejects %s with catalog_invalid", (_name, define) => {
    const error = thrown(define);
    expect(isFormletterError(error)).toBe(true);
    expect(error.code).toBe("catalog_invalid");
    expect(error.message).toMatch(/createCatalog/);
  });

  // Each copy has every property defineTemplate checked, so only identity tells it did not pass the checks.
  it.each([
    ["a frozen spread copy", () => Object.freeze({ ...reminder })],
    ["a frozen copy without its approval", () => Object.freeze({ ...reminder, approval: undefined })],
    [
      "a copy with the same prototype",
      () =>
        Object.freeze(
          Object.create(Object.getPrototypeOf(reminder), Object.getOwnPropertyDescriptors(reminder)),
        ),
    ],
    ["a proxy of a defined template", () => new Proxy(reminder, {})],
    ["a structured clone", () => Object.freeze(structuredClone({ id: reminder.id, body: reminder.body }))],
  ])("refuses %s of a defined template, naming it", (_name, copy) => {
    const error = thrown(() => createCatalog(records, [smsReminder, copy() as Template]));
    expect(error.code).toBe("catalog_invalid");
    expect(error.template).toBe(reminder.id);
    expect(error.message).toContain(`template "${reminder.id}" must be the object defineTemplate returned`);
  });

  it("names a hostile id of a copy only clipped to printable text", () => {
    const hostile = Object.freeze({ ...reminder, id: `\u001b[31m${"x".repeat(500)}` });
    const error = thrown(() => createCatalog(records, [hostile as Template]));
    expect(error.message).not.toContain("\u001b");
    expect(error.message.length).toBeLessThan(400);
  });

  it("uses the catalog's own escalation codes", () => {
    const custom = createCatalog(records, [reminder], {
      escalationCodes: ["clinical_question", "complaint"],
    });
    expect(custom.escalationCodes).toEqual(["clinical_question", "complaint"]);
    const ticket = clinicTicket();
    const decision = expectEscalation(custom.decide({ escalate: "complaint" }, ticket), "model_escalated");
    expect(decision.code).toBe("complaint");
    const unknown = expectEscalation(custom.decide({ escalate: "needs_human" }, ticket), "invalid_proposal");
    expect(unknown.hint).toContain("clinical_question");
    expect(unknown.hint).toContain("complaint");
  });
});

describe("catalog.version", () => {
  it("is the same for the same definitions and changes with them", () => {
    expect(createCatalog(records, templates).version).toBe(catalog.version);
    expect(catalog.version).toMatch(/^[0-9a-f]{8,}$/);
    expect(createCatalog(records, [reminder]).version).not.toBe(catalog.version);
    expect(createCatalog(records, templates, { escalationCodes: ["needs_human"] }).version).not.toBe(
      catalog.version,
    );
  });
});

describe("catalog.prepare", () => {
  it("validates once; a prepared ticket decides exactly like the raw one", () => {
    const ticket = clinicTicket();
    const prepared = catalog.prepare(ticket);
    expect(prepared.ok).toBe(true);
    if (!prepared.ok) return;
    const proposal = reminderProposal(ticket);
    expect(catalog.decide(proposal, prepared.ticket)).toEqual(catalog.decide(proposal, ticket));
    expect(catalog.handles(prepared.ticket).entries).toEqual(catalog.handles(ticket).entries);
    expect(catalog.describe(prepared.ticket)).toBe(catalog.describe(ticket));
  });

  it("reports invalid records as a problem, without throwing", () => {
    const prepared = catalog.prepare({ ticketId: "T-1", patients: [{ id: "P-1" }] });
    expect(prepared.ok).toBe(false);
    if (prepared.ok) return;
    expect(prepared.problem).toMatch(/patients\[0\]/);
  });

  it("decides the same output the same way every time", () => {
    const ticket = clinicTicket();
    const first = expectSend(catalog.decide(reminderProposal(ticket), ticket));
    for (let i = 0; i < 3; i++) expect(catalog.decide(reminderProposal(ticket), ticket)).toEqual(first);
  });
});
