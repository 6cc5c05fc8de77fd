import { describe, expect, it } from "vitest";
import { catalog, clinicTicket, handleOf, reminderProposal } from "../../fixtures/clinic.js";
import { expectEscalation, expectSend } from "../../fixtures/expect.js";

const ticket = clinicTicket();
const valid = reminderProposal(ticket);

describe("proposal shapes that are read", () => {
  it("an object and its JSON text decide the same", () => {
    expect(catalog.decide(JSON.stringify(valid), ticket)).toEqual(catalog.decide(valid, ticket));
  });

  it("JSON with surrounding whitespace is fine", () => {
    expectSend(catalog.decide(`\n  ${JSON.stringify(valid)}  \n`, ticket));
  });

  it("slots may be left out or null when every slot can be filled without the model", () => {
    // oncall_page needs a choice, so leaving all slots out is a missing slot…
    expectEscalation(catalog.decide({ template: "oncall_page" }, ticket), "invalid_proposal");
    // …while sms_reminder's refs each have one candidate.
    expectSend(catalog.decide({ template: "sms_reminder" }, ticket));
    expectSend(catalog.decide({ template: "sms_reminder", slots: null }, ticket));
    expectSend(catalog.decide({ template: "sms_reminder", slots: {} }, ticket));
  });

  it("the recipient may be named explicitly under `to`", () => {
    const named = expectSend(
      catalog.decide(
        { template: "sms_reminder", slots: { to: handleOf(ticket, "patients", "P-1") } },
        ticket,
      ),
    );
    expect(named.choices.to).toBe(handleOf(ticket, "patients", "P-1"));
  });

  it("an escalation may come with or without a note", () => {
    expect(
      expectEscalation(catalog.decide({ escalate: "needs_human" }, ticket), "model_escalated").note,
    ).toBeUndefined();
    expect(
      expectEscalation(
        catalog.decide({ escalate: "needs_human", note: "Patient asks for a refund" }, ticket),
        "model_escalated",
      ).note,
    ).toBe("Patient asks for a refund");
  });

  it("an escalation wins over nothing: `escalate` with `template` is a shape error, not a send", () => {
    expectEscalation(
      catalog.decide({ escalate: "needs_human", template: "sms_reminder" }, ticket),
      "invalid_proposal",
    );
  });

  it("duplicate JSON keys are read as JSON.parse reads them (the last one)", () => {
    const text = `{"template":"nope","template":"sms_reminder","slots":{}}`;
    expectSend(catalog.decide(text, ticket));
  });

  it("exactly 1,000,000 characters is read; one more is unparseable", () => {
    const pad = (n: number) => {
      const head = `{"escalate":"needs_human","note":"`;
      const tail = `"}`;
      return `${head}${"n".repeat(n - head.length - tail.length)}${tail}`;
    };
    expect(pad(1_000_000)).toHaveLength(1_000_000);
    expectEscalation(catalog.decide(pad(1_000_000), ticket), "model_escalated");
    expectEscalation(catalog.decide(pad(1_000_001), ticket), "unparseable_output");
  });

  it("an escalation's detail and hint are strings; a send carries no hint", () => {
    const sent = expectSend(catalog.decide(valid, ticket));
    expect(sent).not.toHaveProperty("hint");
    expect(sent).not.toHaveProperty("reason");
  });
});
