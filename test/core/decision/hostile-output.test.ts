import { describe, expect, it } from "vitest";
import type { Decision, Escalation, EscalationReason } from "../../../src/index.js";
import {
  booked,
  catalog,
  clinicTicket,
  handleOf,
  reminderProposal,
  templates,
} from "../../fixtures/clinic.js";
import {
  expectEscalation,
  expectHintHoldsNoRecordContent,
  expectSend,
  handlesIn,
  invisibleOrControl,
} from "../../fixtures/expect.js";

const ticket = clinicTicket();
const valid = reminderProposal(ticket);
const h = (collection: string, id: string) => handleOf(ticket, collection, id);
const withSlots = (slots: Record<string, unknown>) => ({
  template: valid.template,
  slots: { ...valid.slots, ...slots },
});
const templateIds = templates.map((t) => t.id);

/** Every escalation from bad output: a known reason, a string detail, no message, a hint free of record content. */
function escalates<R extends EscalationReason>(output: unknown, reason: R): Escalation<R> {
  let decision: Decision | undefined;
  expect(() => {
    decision = catalog.decide(output, ticket);
  }).not.toThrow();
  const escalation = expectEscalation(decision as Decision, reason);
  expect(escalation).not.toHaveProperty("message");
  expect(escalation).not.toHaveProperty("draft");
  expectHintHoldsNoRecordContent(escalation);
  return escalation;
}

describe("output that is not a proposal", () => {
  it.each<[string, unknown, EscalationReason]>([
    ["prose", "Sure! I'll email the patient right away.", "unparseable_output"],
    ["an empty string", "", "unparseable_output"],
    ["JSON in a markdown fence", `\`\`\`json\n${JSON.stringify(valid)}\n\`\`\``, "unparseable_output"],
    ["a JavaScript object literal", "{ template: 'appointment_reminder' }", "unparseable_output"],
    ["truncated JSON", JSON.stringify(valid).slice(0, 30), "unparseable_output"],
    ["over a megabyte of text", `{"template":"${"x".repeat(1_000_001)}"}`, "unparseable_output"],
    ["an array", [valid], "invalid_proposal"],
    ["an array as JSON", JSON.stringify([valid]), "invalid_proposal"],
    ["null", null, "invalid_proposal"],
    ["null as JSON", "null", "invalid_proposal"],
    ["undefined", undefined, "invalid_proposal"],
    ["a number", 42, "invalid_proposal"],
    ["a number as JSON", "42", "invalid_proposal"],
    ["a boolean", true, "invalid_proposal"],
    ["a JSON string holding JSON", JSON.stringify(JSON.stringify(valid)), "invalid_proposal"],
    ["a Date", new Date(0), "invalid_proposal"],
    ["a Map", new Map(Object.entries(valid)), "invalid_proposal"],
    [
      "a class instance",
      new (class Proposal {
        template = valid.template;
        slots = valid.slots;
      })(),
      "invalid_proposal",
    ],
    ["an object inheriting the proposal", Object.create(valid), "invalid_proposal"],
    ["an empty object", {}, "invalid_proposal"],
    ["a function", () => valid, "invalid_proposal"],
  ])("%s → %s", (name, output, reason) => {
    const decision = escalates(output, reason);
    // A retry can succeed, so the hint shows the shape expected (not for output too large to read).
    if (!name.startsWith("over a megabyte")) expect(decision.hint).toMatch(/"template".*"slots".*"escalate"/);
  });

  it("an object whose getter throws escalates as bad output, not as bad records", () => {
    const hostile = {
      get template(): string {
        throw new Error("getter");
      },
      slots: {},
    };
    let decision: Decision | undefined;
    expect(() => {
      decision = catalog.decide(hostile, ticket);
    }).not.toThrow();
    expect(["invalid_proposal", "unparseable_output"]).toContain((decision as { reason?: string }).reason);
  });
});

describe("keys a proposal does not have", () => {
  it.each([
    "to",
    "cc",
    "bcc",
    "body",
    "subject",
    "attachments",
    "text",
    "html",
    "from",
    "reply_to",
    "headers",
  ])("a top-level %s key → invalid_proposal", (key) => {
    const decision = escalates(
      { ...valid, [key]: "eve@evil.example: please wire money" },
      "invalid_proposal",
    );
    expect(decision.detail).toContain(key);
    expect(JSON.stringify(decision)).not.toContain("wire money");
  });

  it.each(["cc", "bcc", "body", "subject", "attachments", "note"])(
    "a %s slot → invalid_proposal naming the real slots",
    (key) => {
      const decision = escalates(withSlots({ [key]: "eve@evil.example" }), "invalid_proposal");
      for (const slot of ["appointment", "patient", "clinician", "prep", "to"])
        expect(decision.hint).toContain(slot);
    },
  );

  it("an escalation with extra keys → invalid_proposal", () => {
    escalates({ escalate: "needs_human", to: "eve@evil.example" }, "invalid_proposal");
    escalates({ escalate: "needs_human", template: valid.template }, "invalid_proposal");
  });
});

describe("missing, extra and mistyped slots", () => {
  it("a missing required choice → invalid_proposal listing its keys", () => {
    const { prep: _prep, ...slots } = valid.slots;
    const decision = escalates({ template: valid.template, slots }, "invalid_proposal");
    expect(decision.hint).toMatch(/fasting.*documents.*none/);
  });

  it("a required choice given as null → invalid_proposal", () => {
    escalates(withSlots({ prep: null }), "invalid_proposal");
  });

  it.each<[string, unknown]>([
    ["a number", 42],
    ["a boolean", true],
    ["an object", { handle: h("appointments", "A-1") }],
    ["an array", [h("appointments", "A-1")]],
    ["a nested proposal", { template: "x" }],
  ])("a slot value that is %s → invalid_proposal", (_name, value) => {
    escalates(withSlots({ appointment: value }), "invalid_proposal");
  });

  it.each<[string, unknown]>([
    ["a string", "appointment=a-1234"],
    ["an array", [["appointment", "a-1234"]]],
    ["a number", 1],
  ])("slots that are %s → invalid_proposal", (_name, slots) => {
    escalates({ template: valid.template, slots }, "invalid_proposal");
  });

  it("more than 64 slots → invalid_proposal", () => {
    const many = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`s${i}`, "x"]));
    escalates({ template: valid.template, slots: many }, "invalid_proposal");
  });
});

describe("length caps", () => {
  it.each<[string, unknown]>([
    ["a 65-character template id", { template: "a".repeat(65), slots: {} }],
    ["a 10,000-character template id", { template: "a".repeat(10_000) }],
    ["a 129-character handle", withSlots({ appointment: "a".repeat(129) })],
    ["a 100 KB choice", withSlots({ prep: "fasting ".repeat(12_800) })],
    ["a 65-character slot name", withSlots({ ["s".repeat(65)]: "x" })],
    ["a 65-character escalation code", { escalate: "c".repeat(65) }],
    ["an empty template id", { template: "", slots: {} }],
    ["an empty escalation code", { escalate: "" }],
  ])("%s → invalid_proposal", (_name, output) => {
    const decision = escalates(output, "invalid_proposal");
    expect(decision.detail.length).toBeLessThan(300);
  });

  it("values just under the caps are read as ids, not rejected as shapes", () => {
    escalates({ template: "a".repeat(64), slots: {} }, "unknown_template");
    escalates(withSlots({ appointment: "a".repeat(128) }), "record_not_found");
  });
});

describe("inherited names are just unknown names", () => {
  const names = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf", "prototype"];

  it.each(names)("%s as a template id → unknown_template, hint lists the template ids", (name) => {
    const decision = escalates({ template: name, slots: {} }, "unknown_template");
    for (const id of templateIds) expect(decision.hint).toContain(id);
  });

  it.each(names)("%s as a slot name → invalid_proposal", (name) => {
    // JSON.parse makes "__proto__" an own key, as a model's JSON would.
    escalates(
      `{"template":"appointment_reminder","slots":{${JSON.stringify(name)}:"x","prep":"none"}}`,
      "invalid_proposal",
    );
  });

  it.each(names)("%s as a handle → record_not_found, hint lists the real handles", (name) => {
    const decision = escalates(withSlots({ appointment: name }), "record_not_found");
    expect(handlesIn(decision.hint)).toEqual([h("appointments", "A-1")]);
  });

  it.each(names)("%s as a choice key → slot_rejected, hint lists the keys", (name) => {
    const decision = escalates(withSlots({ prep: name }), "slot_rejected");
    expect(decision.hint).toMatch(/fasting.*documents.*none/);
  });

  it.each(names)("%s as an escalation code → invalid_proposal, hint lists the codes", (name) => {
    const decision = escalates({ escalate: name }, "invalid_proposal");
    expect(decision.hint).toContain("needs_human");
  });

  describe.each([
    ["NUL", "\u0000"],
    ["a zero-width space", "\u200B"],
    ["a right-to-left override", "\u202E"],
    ["a bell", "\u0007"],
  ])("%s in a name the model gives", (_name, c) => {
    const clean = (decision: ReturnType<typeof expectEscalation>) =>
      expect(`${decision.detail} ${decision.hint ?? ""}`).not.toMatch(invisibleOrControl);
    it("in a template id → unknown_template, nothing of it repeated raw", () => {
      clean(escalates({ template: valid.template + c, slots: valid.slots }, "unknown_template"));
    });
    it("in a handle → record_not_found", () => {
      clean(escalates(withSlots({ appointment: h("appointments", "A-1") + c }), "record_not_found"));
    });
    it("in a choice key → slot_rejected", () => {
      clean(escalates(withSlots({ prep: `none${c}` }), "slot_rejected"));
    });
    it("in a slot name → invalid_proposal", () => {
      clean(escalates(withSlots({ [`prep${c}`]: "none" }), "invalid_proposal"));
    });
  });

  it("a __proto__ key in the output pollutes nothing", () => {
    escalates('{"__proto__":{"polluted":true},"template":"appointment_reminder"}', "invalid_proposal");
    escalates(
      `{"template":"appointment_reminder","slots":{"__proto__":{"polluted":true},"prep":"none"}}`,
      "invalid_proposal",
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("a null-prototype proposal is read like a plain one", () => {
    const bare = Object.assign(Object.create(null), valid);
    expectSend(catalog.decide(bare, ticket));
  });
});

describe("handles that are not this ticket's", () => {
  it("a handle of another ticket's record → record_not_found", () => {
    const other = clinicTicket({
      ticketId: "T-200",
      appointments: [{ ...booked, id: "A-900" }],
    });
    const foreign = handleOf(other, "appointments", "A-900");
    expect(foreign).not.toBe(h("appointments", "A-1"));
    const decision = escalates(withSlots({ appointment: foreign }), "record_not_found");
    expect(handlesIn(decision.hint)).toEqual([h("appointments", "A-1")]);
  });

  it("a handle of this ticket in the wrong collection → record_not_found", () => {
    escalates(withSlots({ appointment: h("patients", "P-1") }), "record_not_found");
  });

  it.each(["A-1", "a-1", "P-1"])("the raw record id %s instead of a handle → record_not_found", (raw) => {
    const decision = escalates(withSlots({ appointment: raw, to: raw }), "record_not_found");
    expect(decision.hint).not.toContain("A-1");
  });

  it.each(["Dr Grace Hopper", "clinician Dr Grace Hopper", "grace.hopper@clinic.example.com"])(
    "a label or address %s instead of a handle → record_not_found",
    (text) => {
      escalates(withSlots({ clinician: text }), "record_not_found");
    },
  );

  it("following the hint of a record_not_found succeeds", () => {
    const decision = escalates(withSlots({ clinician: "C-1" }), "record_not_found");
    const [handle] = handlesIn(decision.hint);
    expectSend(catalog.decide(withSlots({ clinician: handle }), ticket));
  });
});

describe("case of handles and keys", () => {
  it.each<[string, (s: string) => string]>([
    ["upper-case", (s) => s.toUpperCase()],
    ["mixed case", (s) => [...s].map((c, i) => (i % 2 ? c.toUpperCase() : c)).join("")],
  ])("%s handles, keys and template id are accepted", (_name, recase) => {
    const recased = {
      template: recase(valid.template),
      slots: Object.fromEntries(Object.entries(valid.slots).map(([k, v]) => [k, recase(v)])),
    };
    const a = expectSend(catalog.decide(recased, ticket));
    const b = expectSend(catalog.decide(valid, ticket));
    expect(a.message).toEqual(b.message);
  });

  it("an upper-case escalation code is accepted", () => {
    expect(
      expectEscalation(catalog.decide({ escalate: "NEEDS_HUMAN" }, ticket), "model_escalated").code,
    ).toBe("needs_human");
  });
});

describe("free text where a choice is expected", () => {
  it.each([
    "Please wire 5,000 EUR to DE89 3704 0044 0532 0130 00",
    "fasting, and also tell them to call +1 415 555 0100",
    "no food for 8 hours before",
    "",
    "fasting please",
  ])("%j in a choice slot → slot_rejected with the keys as hint", (text) => {
    const decision = escalates(withSlots({ prep: text }), "slot_rejected");
    expect(decision.hint).toMatch(/fasting.*documents.*none/);
    expect(JSON.stringify(decision)).not.toContain("wire");
  });
});

describe("spaces around a template id, handle or key", () => {
  it("are ignored: the same message and key as without them", () => {
    const padded = {
      template: ` ${valid.template} `,
      slots: Object.fromEntries(
        Object.entries(valid.slots).map(([name, value]) => [
          name,
          typeof value === "string" ? `\t${value} ` : value,
        ]),
      ),
    };
    const plain = expectSend(catalog.decide(valid, ticket));
    const spaced = expectSend(catalog.decide(padded, ticket));
    expect(spaced.message).toEqual(plain.message);
    expect(spaced.key).toBe(plain.key);
  });
});

describe("escalation by the model", () => {
  it("a listed code → model_escalated with the code", () => {
    const decision = escalates({ escalate: "suspicious_request" }, "model_escalated");
    expect(decision.code).toBe("suspicious_request");
  });

  it("a code outside the list → invalid_proposal, hint lists the codes", () => {
    const decision = escalates({ escalate: "email_the_attacker", note: "x" }, "invalid_proposal");
    for (const code of catalog.escalationCodes) expect(decision.hint).toContain(code);
  });

  it("a 100 KB note is kept for humans, cleaned and capped, and sent nowhere", () => {
    const note = `Patient asks to forward records to eve@evil.example.\u202E\u0007 ${"blah ".repeat(20_000)}`;
    expect(note.length).toBeGreaterThan(100_000);
    const decision = escalates(JSON.stringify({ escalate: "needs_human", note }), "model_escalated");
    expect(decision.note).toBeDefined();
    const kept = decision.note as string;
    expect(kept.startsWith("Patient asks to forward records")).toBe(true);
    expect(kept.length).toBeGreaterThan(100);
    expect(kept.length).toBeLessThanOrEqual(2_000);
    expect(kept).not.toMatch(/[\u202E\u0007]/);
    expect(decision.detail).not.toContain("eve@evil.example");
    expect(decision.hint ?? "").not.toContain("eve@evil.example");
  });

  it("a note with an unlisted code is still kept for humans", () => {
    const decision = escalates(
      { escalate: "other", note: "the patient sounds distressed" },
      "invalid_proposal",
    );
    expect(decision.note).toBe("the patient sounds distressed");
  });

  it.each<[string, unknown]>([
    ["a number", 7],
    ["an object", { text: "x" }],
    ["an array", ["x"]],
  ])("a note that is %s → invalid_proposal", (_name, note) => {
    escalates({ escalate: "needs_human", note }, "invalid_proposal");
  });

  it("a null note is no note", () => {
    const decision = escalates({ escalate: "needs_human", note: null }, "model_escalated");
    expect(decision.note).toBeUndefined();
  });
});
