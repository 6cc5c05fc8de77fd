import { describe, expect, it } from "vitest";
import { idempotencyKey } from "../../../src/core/decision/idempotency.js";
import { createCatalog, defineTemplate, format } from "../../../src/index.js";
import {
  catalog,
  clinicTicket,
  handleOf,
  prepChoices,
  records,
  reminder,
  reminderProposal,
} from "../../fixtures/clinic.js";
import {
  expectEscalation,
  expectHintHoldsNoRecordContent,
  expectSend,
  handlesIn,
} from "../../fixtures/expect.js";
import { propertyCatalog, propertyTicket, proposal } from "../../fixtures/property.js";

const ticket = clinicTicket();
const h = (collection: string, id: string, t = ticket) => handleOf(t, collection, id);

/** A second patient with a booked appointment of their own: more than one candidate per slot. */
function twoPatientTicket() {
  const base = clinicTicket();
  return clinicTicket({
    patients: [
      ...base.patients,
      { id: "P-2", name: "Charles Babbage", email: "charles@example.org", phone: "030 87654321" },
    ],
    appointments: [
      ...base.appointments,
      {
        id: "A-3",
        patientId: "P-2",
        clinicianId: "C-2",
        startsAt: "2026-03-05T08:00:00Z",
        room: "D4",
        fee: 3000,
        currency: "EUR",
        status: "booked" as const,
      },
    ],
  });
}

describe("decide: a valid proposal becomes one exact message", () => {
  it("renders the e-mail from template text and the chosen records only", () => {
    const decision = expectSend(catalog.decide(reminderProposal(ticket), ticket));
    expect(decision.ticketId).toBe("T-100");
    expect(decision.template).toBe("appointment_reminder");
    // 09:30 UTC on 2 March is 10:30 in Berlin (CET), whatever the machine's zone.
    expect(decision.message).toEqual({
      template: "appointment_reminder",
      channel: "email",
      to: "ada.lovelace@example.org",
      subject: "Your appointment on 2 Mar 2026",
      text: "Hello Ada Lovelace,\n\nthis is a reminder of your appointment on 2 Mar 2026 at 10:30 in room B12 with Dr Grace Hopper. Please do not eat before your visit.\nPlease bring: no food for 8 hours before.\n\nYour clinic",
      html: "<p>Hello Ada Lovelace,</p><p>Your appointment on 2 Mar 2026 with Dr Grace Hopper. Please bring: no food for 8 hours before.</p>",
    });
    expect(decision.values).toMatchObject({
      "appointment.day": "2 Mar 2026",
      "appointment.time": "10:30",
      "appointment.room": "B12",
      patient: "Ada Lovelace",
      clinician: "Dr Grace Hopper",
      prep: prepChoices.fasting,
    });
  });

  it("shows a choice-key section only for that key", () => {
    const documents = expectSend(catalog.decide(reminderProposal(ticket, "documents"), ticket));
    expect(documents.message.text).not.toContain("Please do not eat");
    expect(documents.message.text).toContain(`Please bring: ${prepChoices.documents}.`);
  });

  it("records the choices: lower-case handles and declared keys, the recipient under `to`", () => {
    const decision = expectSend(catalog.decide(reminderProposal(ticket), ticket));
    expect(decision.choices).toEqual({
      appointment: h("appointments", "A-1"),
      patient: h("patients", "P-1"),
      clinician: h("clinicians", "C-1"),
      prep: "fasting",
      to: h("patients", "P-1"),
    });
  });

  it("a ref slot with exactly one candidate may be left out", () => {
    const omitted = expectSend(
      catalog.decide({ template: "appointment_reminder", slots: { prep: "fasting" } }, ticket),
    );
    const full = expectSend(catalog.decide(reminderProposal(ticket), ticket));
    expect(omitted.message).toEqual(full.message);
    expect(omitted.choices).toEqual(full.choices);
    expect(omitted.key).toBe(full.key);
  });

  it("a ref slot left out with several candidates → invalid_proposal listing them", () => {
    const two = twoPatientTicket();
    const decision = expectEscalation(
      catalog.decide({ template: "appointment_reminder", slots: { prep: "none" } }, two),
      "invalid_proposal",
    );
    expect(handlesIn(decision.hint).sort()).toEqual(
      [h("appointments", "A-1", two), h("appointments", "A-3", two)].sort(),
    );
    expectHintHoldsNoRecordContent(decision);
  });

  it("a ref slot with no candidate → slot_rejected, and the hint says to escalate", () => {
    const cancelledOnly = clinicTicket({
      appointments: clinicTicket().appointments.map((a) => ({ ...a, status: "cancelled" as const })),
    });
    const decision = expectEscalation(
      catalog.decide({ template: "appointment_reminder", slots: { prep: "none" } }, cancelledOnly),
      "slot_rejected",
    );
    expect(decision.hint).toMatch(/escalate/);
    expect(handlesIn(decision.hint)).toEqual([]);
  });

  it("where() filters: a cancelled appointment is slot_rejected, the hint lists the booked one", () => {
    const decision = expectEscalation(
      catalog.decide(
        {
          ...reminderProposal(ticket),
          slots: { ...reminderProposal(ticket).slots, appointment: h("appointments", "A-2") },
        },
        ticket,
      ),
      "slot_rejected",
    );
    expect(handlesIn(decision.hint)).toEqual([h("appointments", "A-1")]);
    expect(decision.template).toBe("appointment_reminder");
  });

  it("where() reads earlier slots: the clinician must be the appointment's", () => {
    const proposal = reminderProposal(ticket);
    const decision = expectEscalation(
      catalog.decide(
        { ...proposal, slots: { ...proposal.slots, clinician: h("clinicians", "C-2") } },
        ticket,
      ),
      "slot_rejected",
    );
    expect(handlesIn(decision.hint)).toEqual([h("clinicians", "C-1")]);
    const retried = { ...proposal, slots: { ...proposal.slots, clinician: handlesIn(decision.hint)[0] } };
    expectSend(catalog.decide(retried, ticket));
  });

  it("the recipient must pass its where(): another patient is slot_rejected", () => {
    const two = twoPatientTicket();
    const proposal = reminderProposal(two);
    const decision = expectEscalation(
      catalog.decide({ ...proposal, slots: { ...proposal.slots, to: h("patients", "P-2", two) } }, two),
      "slot_rejected",
    );
    expect(handlesIn(decision.hint)).toEqual([h("patients", "P-1", two)]);
    expectHintHoldsNoRecordContent(decision);
    expect(decision.hint).not.toContain("Babbage");
    expect(decision.hint).not.toContain("charles@example.org");
  });

  it("a derived slot is computed in code; the model may not fill it", () => {
    const base = { template: "clinician_handover", slots: { appointment: h("appointments", "A-1") } };
    const decision = expectSend(catalog.decide(base, ticket));
    expect(decision.values.visits).toBe("2");
    expect(decision.message.text).toContain("2 appointments on file");
    expect(decision.message.to).toBe("grace.hopper@clinic.example.com");
    const forced = expectEscalation(
      catalog.decide({ ...base, slots: { ...base.slots, visits: "99" } }, ticket),
      "invalid_proposal",
    );
    expect(forced.hint).toContain("appointment");
    expect(forced.hint).not.toContain("visits");
  });

  it("an optional choice hides its section when left out or null, and shows it when given", () => {
    const base = { template: "clinician_handover", slots: { appointment: h("appointments", "A-1") } };
    for (const urgency of [undefined, null]) {
      const slots = urgency === undefined ? base.slots : { ...base.slots, urgency };
      const decision = expectSend(catalog.decide({ ...base, slots }, ticket));
      expect(decision.message.text).not.toContain("Urgency");
    }
    const today = expectSend(catalog.decide({ ...base, slots: { ...base.slots, urgency: "today" } }, ticket));
    expect(today.message.text).toMatch(/ Urgency: today\.$/);
  });

  it("a derived slot that throws or has no value → slot_rejected, never a throw", () => {
    const slot = records.slot;
    const make = (id: string, compute: () => unknown) =>
      defineTemplate(records, {
        effect: "informational",
        id,
        description: "Derived value test",
        audience: "patient",
        channel: "email",
        to: slot.ref("patients", { show: "email", as: format.email() }),
        subject: "Count",
        body: "You have {{count}} appointments.",
        slots: { count: slot.derived(compute, { as: format.number() }) },
        limits: { perTicket: 1, perDay: 1 },
      });
    const derivedCatalog = createCatalog(records, [
      make("throws", () => {
        throw new Error("boom");
      }),
      make("missing", () => undefined),
      make("not_a_number", () => "seven"),
    ]);
    for (const template of ["throws", "missing", "not_a_number"]) {
      expectEscalation(derivedCatalog.decide({ template }, ticket), "slot_rejected");
    }
  });

  it("a where() that throws counts as false", () => {
    const slot = records.slot;
    const fragile = defineTemplate(records, {
      id: "fragile",
      description: "Where throws",
      audience: "patient",
      effect: "informational",
      channel: "email",
      to: slot.ref("patients", { show: "email", as: format.email() }),
      subject: "Room",
      body: "Room {{room}}.",
      slots: {
        room: slot.ref("appointments", {
          show: "room",
          where: (a) => {
            if (a.room === "B12") throw new Error("boom");
            return true;
          },
        }),
      },
      limits: { perTicket: 1, perDay: 1 },
    });
    const fragileCatalog = createCatalog(records, [fragile]);
    expectEscalation(
      fragileCatalog.decide({ template: "fragile", slots: { room: h("appointments", "A-1") } }, ticket),
      "slot_rejected",
    );
    const other = expectSend(fragileCatalog.decide({ template: "fragile" }, ticket));
    expect(other.message.text).toBe("Room C3.");
  });

  it("approval: human → approval_required with the exact draft and its key, nothing sendable", () => {
    const decision = expectEscalation(
      catalog.decide(
        { template: "cancellation_notice", slots: { appointment: h("appointments", "A-2") } },
        ticket,
      ),
      "approval_required",
    );
    expect(decision.draft).toEqual({
      template: "cancellation_notice",
      channel: "email",
      to: "ada.lovelace@example.org",
      subject: "Appointment cancelled",
      text: "Your appointment on 10 Apr 2026 is cancelled. We refund €90.00.",
    });
    expect(decision.key).toMatch(/\S{16,}/);
    expect(decision).not.toHaveProperty("message");
  });

  it("sends on chat to a chat id from records", () => {
    const decision = expectSend(
      catalog.decide(
        { template: "oncall_page", slots: { appointment: h("appointments", "A-1"), need: "pain" } },
        ticket,
      ),
    );
    expect(decision.message).toEqual({
      template: "oncall_page",
      channel: "chat",
      to: "U024BE7LH",
      text: "A patient is waiting in room B12: reports pain.",
    });
  });

  it("decide does not change the records it is given", () => {
    const input = clinicTicket();
    const before = structuredClone(input);
    catalog.decide(reminderProposal(input), input);
    catalog.decide({ template: "clinician_handover", slots: {} }, input);
    expect(input).toEqual(before);
  });
});

describe("invariant 1: no prose leaves — nothing the model wrote reaches a message", () => {
  it("the model's spelling of ids, handles and keys does not change the message", () => {
    const lower = reminderProposal(ticket);
    const shouting = {
      template: lower.template.toUpperCase(),
      slots: Object.fromEntries(Object.entries(lower.slots).map(([k, v]) => [k, v.toUpperCase()])),
    };
    const a = expectSend(catalog.decide(lower, ticket));
    const b = expectSend(catalog.decide(shouting, ticket));
    expect(b.message).toEqual(a.message);
    expect(b.choices).toEqual(a.choices);
    expect(JSON.stringify(b.message)).not.toContain("APPOINTMENT_REMINDER");
  });

  it("every part of the body is template text or a formatted value", () => {
    const decision = expectSend(catalog.decide(reminderProposal(ticket), ticket));
    let rest = decision.message.text;
    for (const value of Object.values(decision.values)) rest = rest.split(value).join("");
    const literal = reminder.source.body.replace(/\{\{[^}]*\}\}/g, "");
    for (const char of rest) expect(literal).toContain(char);
  });
});

describe("invariant 3: recipients come from records, one recipient, no cc/bcc/attachments", () => {
  it("a message has only the documented keys", () => {
    const allowed = ["channel", "html", "sms", "subject", "template", "text", "to"];
    for (const proposal of [
      reminderProposal(ticket),
      { template: "sms_reminder", slots: {} },
      { template: "whatsapp_confirm", slots: { clinician: h("clinicians", "C-1") } },
      { template: "oncall_page", slots: { appointment: h("appointments", "A-1"), need: "late" } },
    ]) {
      const decision = expectSend(catalog.decide(proposal, ticket));
      for (const key of Object.keys(decision.message)) expect(allowed).toContain(key);
      expect(typeof decision.message.to).toBe("string");
    }
  });

  it.each(["to", "cc", "bcc", "attachments", "from", "replyTo"])(
    "a top-level %s key is refused, and the address never reaches a message",
    (key) => {
      const decision = expectEscalation(
        catalog.decide({ ...reminderProposal(ticket), [key]: "eve@evil.example" }, ticket),
        "invalid_proposal",
      );
      expect(JSON.stringify(decision)).not.toContain("eve@evil.example");
    },
  );

  it("an address in the `to` slot is not a handle → record_not_found", () => {
    const proposal = reminderProposal(ticket);
    const decision = expectEscalation(
      catalog.decide({ ...proposal, slots: { ...proposal.slots, to: "eve@evil.example" } }, ticket),
      "record_not_found",
    );
    expect(handlesIn(decision.hint)).toEqual([h("patients", "P-1")]);
  });
});

describe("idempotency key", () => {
  const keyOf = (proposal: unknown, t: unknown = ticket) =>
    expectSend(catalog.decide(proposal, t as never)).key;

  it("is the same for the same ticket, template and choices", () => {
    expect(keyOf(reminderProposal(ticket))).toBe(keyOf(reminderProposal(ticket)));
    expect(keyOf(JSON.stringify(reminderProposal(ticket)))).toBe(keyOf(reminderProposal(ticket)));
  });

  it("does not depend on the case of handles, keys or the template id", () => {
    const lower = reminderProposal(ticket);
    const upper = {
      template: "Appointment_Reminder",
      slots: Object.fromEntries(Object.entries(lower.slots).map(([k, v]) => [k, v.toUpperCase()])),
    };
    expect(keyOf(upper)).toBe(keyOf(lower));
  });

  it("does not depend on slot order", () => {
    const proposal = reminderProposal(ticket);
    const reversed = {
      template: proposal.template,
      slots: Object.fromEntries(Object.entries(proposal.slots).reverse()),
    };
    expect(keyOf(reversed)).toBe(keyOf(proposal));
  });

  it("changes with a different choice, template or ticket", () => {
    const fasting = keyOf(reminderProposal(ticket, "fasting"));
    expect(keyOf(reminderProposal(ticket, "documents"))).not.toBe(fasting);
    const other = clinicTicket({ ticketId: "T-101" });
    expect(keyOf(reminderProposal(other), other)).not.toBe(fasting);
    const sms = keyOf({ template: "sms_reminder", slots: {} });
    const whatsapp = keyOf({ template: "whatsapp_confirm", slots: { clinician: h("clinicians", "C-1") } });
    expect(sms).not.toBe(whatsapp);
  });

  it("changes with a different record in a slot", () => {
    const base = { template: "oncall_page", slots: { need: "pain" } };
    const a1 = keyOf({ ...base, slots: { ...base.slots, appointment: h("appointments", "A-1") } });
    const a2 = keyOf({ ...base, slots: { ...base.slots, appointment: h("appointments", "A-2") } });
    expect(a1).not.toBe(a2);
  });

  it("an approval draft carries the key its send would have", () => {
    const proposal = { template: "cancellation_notice", slots: { appointment: h("appointments", "A-2") } };
    const first = expectEscalation(catalog.decide(proposal, ticket), "approval_required");
    const second = expectEscalation(catalog.decide(proposal, ticket), "approval_required");
    expect(first.key).toBeDefined();
    expect(first.key).toBe(second.key);
  });
});

describe("match: joins to earlier slots", () => {
  it("the clinician must be the appointment's (sms_reminder joins with match)", () => {
    const decision = expectEscalation(
      catalog.decide({ template: "sms_reminder", slots: { clinician: h("clinicians", "C-2") } }, ticket),
      "slot_rejected",
    );
    expect(handlesIn(decision.hint)).toEqual([h("clinicians", "C-1")]);
    const sent = expectSend(catalog.decide({ template: "sms_reminder", slots: {} }, ticket));
    expect(sent.values.clinician).toBe("Dr Grace Hopper");
  });

  it("the recipient must be the appointment's patient", () => {
    const two = twoPatientTicket();
    const proposal = { template: "sms_reminder", slots: { appointment: h("appointments", "A-3", two) } };
    const sent = expectSend(catalog.decide(proposal, two));
    expect(sent.message.to).toBe("+493087654321");
    expect(sent.values.clinician).toBe("Dr Alan Turing");
    const wrong = expectEscalation(
      catalog.decide({ ...proposal, slots: { ...proposal.slots, to: h("patients", "P-1", two) } }, two),
      "slot_rejected",
    );
    expect(handlesIn(wrong.hint)).toEqual([h("patients", "P-2", two)]);
  });
});

describe("derived slots see only what their audience may read", () => {
  const slot = records.slot;
  const peek = (audience: "patient" | "clinician") =>
    defineTemplate(records, {
      effect: "informational",
      id: `peek_${audience}`,
      description: "A derived value built from private and untrusted fields",
      audience,
      channel: "email",
      to:
        audience === "patient"
          ? slot.ref("patients", { show: "email", as: format.email() })
          : slot.ref("clinicians", { show: "email", where: (c) => c.id === "C-1" }),
      subject: "Your file",
      body: "Patient {{patient}}: {{summary}}.",
      slots: {
        patient: slot.ref("patients", { show: "name" }),
        summary: slot.derived(({ records: view, slots }) => {
          const fromView = view.patients.map((p) => [p.diagnosis, p.message].filter(Boolean).join(" / "));
          const chosen = slots.patient as { diagnosis?: string } | undefined;
          const parts = [...fromView, chosen?.diagnosis].filter((part) => part !== undefined && part !== "");
          return parts.length === 0 ? undefined : parts.join(" | ");
        }),
      },
      limits: { perTicket: 1, perDay: 1 },
    });
  const peeking = createCatalog(records, [peek("patient"), peek("clinician")]);

  it("a patient's template cannot compute from the clinician-only diagnosis", () => {
    const noMessage = clinicTicket({ patients: [{ ...ticket.patients[0], message: undefined } as never] });
    const decision = peeking.decide({ template: "peek_patient" }, noMessage);
    expectEscalation(decision, "slot_rejected");
    // With the patient's own message present, the value is built from it alone.
    const withMessage = expectSend(peeking.decide({ template: "peek_patient" }, ticket));
    expect(withMessage.message.text).toContain("knee");
    expect(withMessage.message.text).not.toContain("sprained ankle");
  });

  it("a clinician's template cannot compute from the patient's untrusted message, but may read the diagnosis", () => {
    const decision = expectSend(peeking.decide({ template: "peek_clinician" }, ticket));
    expect(decision.message.text).toContain("sprained ankle");
    expect(decision.message.text).not.toContain("knee");
  });
});

describe("optional ref slots", () => {
  const slot = records.slot;
  const followUp = defineTemplate(records, {
    id: "follow_up",
    description: "Invite a patient to a follow-up, naming the clinician if chosen",
    audience: "patient",
    effect: "informational",
    channel: "email",
    to: slot.ref("patients", { show: "email", as: format.email() }),
    subject: "Follow-up",
    body: "Please book a follow-up.{{#clinician}} Ask for {{clinician}}.{{/clinician}}",
    slots: {
      clinician: slot.ref("clinicians", { show: "name", optional: true, where: (c) => c.id === "C-2" }),
    },
    limits: { perTicket: 1, perDay: 1 },
  });
  const optionalCatalog = createCatalog(records, [followUp]);

  it("null means none: the section is hidden", () => {
    const decision = expectSend(
      optionalCatalog.decide({ template: "follow_up", slots: { clinician: null } }, ticket),
    );
    expect(decision.message.text).toBe("Please book a follow-up.");
    expect(decision.choices).not.toHaveProperty("clinician");
  });

  it("a chosen record shows the section", () => {
    const decision = expectSend(
      optionalCatalog.decide({ template: "follow_up", slots: { clinician: h("clinicians", "C-2") } }, ticket),
    );
    expect(decision.message.text).toBe("Please book a follow-up. Ask for Dr Alan Turing.");
  });

  it("a record that fails where is still rejected", () => {
    expectEscalation(
      optionalCatalog.decide({ template: "follow_up", slots: { clinician: h("clinicians", "C-1") } }, ticket),
      "slot_rejected",
    );
  });
});

describe("idempotencyKey", () => {
  it("gives the key decide() gave a send, from its ticket, template and choices in any order", () => {
    const ticket = propertyTicket("T-77");
    const decision = propertyCatalog.decide(proposal("T-77"), ticket);
    expect(decision.outcome).toBe("send");
    // A key names each chosen record by collection and id (never by handle), and keeps choice keys.
    const entries = propertyCatalog.handles(ticket).entries;
    const chosen = Object.fromEntries(
      Object.entries(decision.choices ?? {}).map(([slot, choice]) => {
        const entry = entries.find((candidate) => candidate.handle === choice);
        return [slot, entry === undefined ? choice : { collection: entry.collection, id: entry.id }];
      }),
    );
    const reversed = Object.fromEntries(Object.entries(chosen).reverse());
    expect(Object.keys(chosen).length).toBeGreaterThan(1);
    expect(idempotencyKey("T-77", decision.template ?? "", reversed)).toBe(decision.key);
    expect(idempotencyKey("T-78", decision.template ?? "", chosen)).not.toBe(decision.key);
  });
});
