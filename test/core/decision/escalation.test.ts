import { describe, expect, it } from "vitest";
import { escalationFacts } from "../../../src/core/decision/decision.js";
import { escalate } from "../../../src/index.js";
import {
  ada,
  catalog,
  clinicTicket,
  grace,
  handleOf,
  reminderProposal,
  templates,
} from "../../fixtures/clinic.js";
import { expectEscalation } from "../../fixtures/expect.js";

const ticket = clinicTicket();
const valid = reminderProposal(ticket);
const withSlots = (slots: Record<string, unknown>) => ({
  template: valid.template,
  slots: { ...valid.slots, ...slots },
});

describe("escalations carry typed fields, not only sentences", () => {
  it("unknown_template: the template ids that would be accepted", () => {
    const decision = expectEscalation(
      catalog.decide({ template: "nope", slots: {} }, ticket),
      "unknown_template",
    );
    expect(decision.expected).toEqual({ kind: "templates", ids: templates.map((t) => t.id) });
  });

  it("an unknown escalation code: invalid_proposal with the codes expected", () => {
    const decision = expectEscalation(catalog.decide({ escalate: "email_eve" }, ticket), "invalid_proposal");
    expect(decision.expected).toEqual({ kind: "codes", codes: catalog.escalationCodes });
  });

  it("a slot the template does not have: invalid_proposal with the slot names", () => {
    const decision = expectEscalation(catalog.decide(withSlots({ bcc: "x" }), ticket), "invalid_proposal");
    expect(decision.expected?.kind).toBe("slots");
  });

  it("a key that is not one of a choice slot's: slot_rejected with the slot and its keys", () => {
    const decision = expectEscalation(catalog.decide(withSlots({ prep: "cake" }), ticket), "slot_rejected");
    expect(decision.slot).toBe("prep");
    expect(decision.expected).toEqual({ kind: "keys", keys: ["fasting", "documents", "none"] });
  });

  it("a choice slot left out: invalid_proposal with the slot and its keys", () => {
    const { prep: _prep, ...slots } = valid.slots as Record<string, string>;
    const decision = expectEscalation(
      catalog.decide({ template: valid.template, slots }, ticket),
      "invalid_proposal",
    );
    expect(decision.slot).toBe("prep");
    expect(decision.expected).toMatchObject({ kind: "keys" });
  });

  it("a handle of no record: record_not_found with the slot and how many records fit", () => {
    const decision = expectEscalation(
      catalog.decide(withSlots({ appointment: "appointments-ffff" }), ticket),
      "record_not_found",
    );
    expect(decision.slot).toBe("appointment");
    expect(decision.expected).toEqual({ kind: "records", collection: "appointments", fitting: 1 });
  });

  it("a record that fails the slot's condition: slot_rejected with the count of records that fit", () => {
    const decision = expectEscalation(
      catalog.decide(
        { template: "sms_reminder", slots: { clinician: handleOf(ticket, "clinicians", "C-2") } },
        ticket,
      ),
      "slot_rejected",
    );
    expect(decision.slot).toBe("clinician");
    expect(decision.expected).toEqual({ kind: "records", collection: "clinicians", fitting: 1 });
  });

  it("a value that fails formatting: slot_rejected naming the slot", () => {
    const decision = expectEscalation(
      catalog.decide(valid, clinicTicket({ clinicians: [{ ...grace, name: "" }] })),
      "slot_rejected",
    );
    expect(decision.slot).toBe("clinician");
  });

  it("recipient_unresolved: the address field", () => {
    const decision = expectEscalation(
      catalog.decide(valid, clinicTicket({ patients: [{ ...ada, email: "ada@@example.org" }] })),
      "recipient_unresolved",
    );
    expect(decision.field).toBe("email");
  });

  it("content_flagged: what kind of thing was found", () => {
    const decision = expectEscalation(
      catalog.decide(valid, clinicTicket({ clinicians: [{ ...grace, name: "Dr Grace eve@evil.example" }] })),
      "content_flagged",
    );
    expect(decision.found).toBe("email");
  });

  it("model_escalated: the code, and the note for humans", () => {
    const decision = expectEscalation(
      catalog.decide({ escalate: "needs_human", note: "call back" }, ticket),
      "model_escalated",
    );
    expect(escalationFacts(decision)).toEqual({ code: "needs_human", note: "call back" });
  });
});

describe("escalate()", () => {
  it("is the one constructor: outcome set, fields kept", () => {
    expect(escalate({ reason: "limit_exceeded", detail: "d", limit: "run", max: 3, count: 3 })).toEqual({
      outcome: "escalate",
      reason: "limit_exceeded",
      detail: "d",
      limit: "run",
      max: 3,
      count: 3,
    });
  });

  it("facts leave out what every escalation has", () => {
    const decision = escalate({
      reason: "slot_rejected",
      detail: "d",
      hint: "h",
      ticketId: "T",
      template: "x",
      slot: "s",
      field: "f",
    });
    expect(escalationFacts(decision)).toEqual({ slot: "s", field: "f" });
  });
});
