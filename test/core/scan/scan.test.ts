import { describe, expect, it } from "vitest";
import { createCatalog, defineTemplate, format } from "../../../src/index.js";
import { ada, alan, booked, cancelled, clinicTicket, grace, records } from "../../fixtures/clinic.js";
import { expectEscalation, expectSend } from "../../fixtures/expect.js";

const { slot } = records;

// Template text may hold contact details: it is written in code, so the scanner accepts it.
const deskInfo = defineTemplate(records, {
  id: "desk_info",
  description: "Tell a patient when and where their visit is, and how to reach the desk",
  audience: "patient",
  effect: "informational",
  channel: "email",
  to: slot.ref("patients", { show: "email", as: format.email() }),
  subject: "Visit on {{appointment.day}} with {{clinician}}",
  body: "Your visit on {{appointment.day}} is with {{clinician}} in room {{appointment.room}}. Questions? Call +49 30 5555 0000, write to desk@clinic.example.com or see clinic.example.com/help.",
  slots: {
    appointment: slot.ref("appointments", {
      show: {
        day: { field: "startsAt", as: format.date("yyyy-MM-dd", { timeZone: "Europe/Berlin" }) },
        room: "room",
      },
      where: (a) => a.status === "booked",
    }),
    clinician: slot.ref("clinicians", { show: "name", where: (c) => c.id === "C-1" }),
  },
  limits: { perTicket: 1, perDay: 10 },
});
const scanCatalog = createCatalog(records, [deskInfo]);

function decideWith(overrides: { clinician?: string; room?: string; patientName?: string }) {
  const ticket = clinicTicket({
    clinicians: [{ ...grace, name: overrides.clinician ?? grace.name }, alan],
    appointments: [{ ...booked, room: overrides.room ?? booked.room }, cancelled],
    patients: [{ ...ada, name: overrides.patientName ?? ada.name }],
  });
  return scanCatalog.decide({ template: "desk_info" }, ticket);
}

describe("the scanner accepts what code wrote", () => {
  it("template text with a phone, an address and a host, and an 8-digit date value", () => {
    const decision = expectSend(decideWith({}));
    expect(decision.message.text).toContain("2026-03-02");
    expect(decision.message.text).toContain("+49 30 5555 0000");
    expect(decision.message.subject).toBe("Visit on 2026-03-02 with Dr Grace Hopper");
  });

  it.each([
    ["the desk's phone from the template", "Dr Grace (desk: +49 30 5555 0000)"],
    ["the desk's address from the template", "Dr Grace, desk@clinic.example.com"],
  ])("a value repeating %s", (_name, clinician) => {
    expectSend(decideWith({ clinician }));
  });

  it("a record value that is wholly a long number (a room code)", () => {
    expect(expectSend(decideWith({ room: "202604017" })).message.text).toContain("room 202604017.");
  });

  it("a host on any top-level domain, defanged before rendering", () => {
    const text = expectSend(decideWith({ room: "B12 (map: www.evil.lol)" })).message.text;
    expect(text).toContain("www[.]evil[.]lol");
  });

  it("a record value that is wholly a UUID", () => {
    expectSend(decideWith({ room: "123e4567-e89b-12d3-a456-426614174000" }));
  });
});

describe("the scanner flags what a record smuggled in", () => {
  it.each([
    ["an e-mail address", { clinician: "Dr Grace, or mail eve@evil.example" }],
    [
      "another record's address (not a value of this message)",
      { clinician: "Dr Grace alan.turing@clinic.example.com" },
    ],
    ["an international number, even as a whole value", { room: "+4915123456789" }],
    ["a long number inside text", { room: "Room 202604017" }],
    ["a phone number in the subject's value", { clinician: "Dr Grace 0151 2345 6789" }],
    ["an address whose dots are written defanged", { room: "B12 (mail: eve@evil[.]lol)" }],
    ["an address with a bracketed at-sign", { room: "B12 (mail: eve (at) evil [dot] lol)" }],
    ["a UUID inside text", { room: "B12 ref 123e4567-e89b-12d3-a456-426614174000" }],
    ["a token inside text", { room: "B12 key AKIAIOSFODNN7EXAMPLE9" }],
  ])("%s → content_flagged", (_name, overrides) => {
    const decision = expectEscalation(decideWith(overrides), "content_flagged");
    expect(decision.detail).toMatch(/e-mail address|phone number|URL|id-shaped token/);
    expect(decision).not.toHaveProperty("message");
  });
});
