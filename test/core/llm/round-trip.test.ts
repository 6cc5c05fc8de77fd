import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { noneValue, parseToolCall, toolNames } from "../../../src/core/llm/index.js";
import { type Decision, type EscalationReason, escalationReasons } from "../../../src/index.js";
import { catalog, clinicTicket, handleOf } from "../../fixtures/clinic.js";
import { expectHintHoldsNoRecordContent } from "../../fixtures/expect.js";
import { propertyRuns } from "../../fixtures/property-runs.js";

fc.configureGlobal({ seed: 20260302 });

const ticket = clinicTicket();
const h = (collection: string, id: string) => handleOf(ticket, collection, id);

/** A valid reminder call's arguments, as a strict model fills every parameter of the tool. */
const reminderArgs = () => ({
  appointment: h("appointments", "A-1"),
  patient: h("patients", "P-1"),
  clinician: h("clinicians", "C-1"),
  prep: "fasting",
});

/**
 * How each provider hands back a tool call, and how a caller reads name and arguments out of it: the
 * OpenAI APIs send the arguments as JSON text, Anthropic and the AI SDK as an object.
 */
const wire = {
  openai: (name: string, args: unknown) => {
    const call = { id: "call_1", type: "function", function: { name, arguments: text(args) } };
    return parseToolCall(call.function.name, call.function.arguments);
  },
  "openai-responses": (name: string, args: unknown) => {
    const item = { type: "function_call", call_id: "call_1", name, arguments: text(args) };
    return parseToolCall(item.name, item.arguments);
  },
  anthropic: (name: string, args: unknown) => {
    const block = { type: "tool_use", id: "toolu_1", name, input: args };
    return parseToolCall(block.name, block.input);
  },
  "ai-sdk": (name: string, args: unknown) => {
    const part = { type: "tool-call", toolCallId: "1", toolName: name, input: args };
    return parseToolCall(part.toolName, part.input);
  },
} as const;

function text(args: unknown): string {
  return typeof args === "string" ? args : JSON.stringify(args);
}

type Outcome = "send" | EscalationReason;

const cases: [string, string, unknown, Outcome][] = [
  ["a valid call", "appointment_reminder", reminderArgs(), "send"],
  [
    "handles, keys and the name in another case",
    "APPOINTMENT_REMINDER",
    Object.fromEntries(Object.entries(reminderArgs()).map(([slot, value]) => [slot, value.toUpperCase()])),
    "send",
  ],
  [
    "a handle of no record of this ticket",
    "appointment_reminder",
    { ...reminderArgs(), patient: "p-0000" },
    "record_not_found",
  ],
  [
    "a handle of another collection",
    "appointment_reminder",
    { ...reminderArgs(), patient: h("clinicians", "C-1") },
    "record_not_found",
  ],
  [
    "a record that fails the slot's condition",
    "appointment_reminder",
    { ...reminderArgs(), appointment: h("appointments", "A-2") },
    "slot_rejected",
  ],
  [
    "a key that is not in the list",
    "appointment_reminder",
    { ...reminderArgs(), prep: "cake" },
    "slot_rejected",
  ],
  ["an unknown tool name", "send_free_text", { body: "hello" }, "unknown_template"],
  ["an extra argument", "appointment_reminder", { ...reminderArgs(), body: "any text" }, "invalid_proposal"],
  [
    "a recipient where the records fix it",
    "appointment_reminder",
    { ...reminderArgs(), to: h("patients", "P-1") },
    "send",
  ],
  [
    "a required choice left out",
    "appointment_reminder",
    { ...reminderArgs(), prep: noneValue },
    "invalid_proposal",
  ],
  ["a number for a handle", "appointment_reminder", { ...reminderArgs(), patient: 7 }, "invalid_proposal"],
  ["arguments that are an array", "appointment_reminder", [reminderArgs()], "invalid_proposal"],
  ["malformed JSON", "appointment_reminder", '{"appointment": "a-1", "prep": ', "unparseable_output"],
  ["JSON that is not an object", "appointment_reminder", "42", "invalid_proposal"],
  ["a __proto__ argument", "appointment_reminder", '{"__proto__": {"template": "x"}}', "invalid_proposal"],
  ["escalate_to_human", toolNames.escalate, { code: "needs_human", note: "odd request" }, "model_escalated"],
  [
    "escalate_to_human in another case",
    "Escalate_To_Human",
    { code: "NEEDS_HUMAN", note: "" },
    "model_escalated",
  ],
  [
    "an escalation code not in the list",
    toolNames.escalate,
    { code: "refund_now", note: "" },
    "invalid_proposal",
  ],
  [
    "escalate_to_human with an extra argument",
    toolNames.escalate,
    { code: "needs_human", note: "", escalate: "x" },
    "invalid_proposal",
  ],
  ["escalate_to_human without a code", toolNames.escalate, { note: "help" }, "invalid_proposal"],
  [
    "a stage-one choose_template call given to decide()",
    toolNames.choose,
    { template: "appointment_reminder" },
    "unknown_template",
  ],
];

describe.each(Object.keys(wire) as (keyof typeof wire)[])(
  "%s tool calls → parseToolCall → decide",
  (provider) => {
    it.each(cases)("%s", (_name, tool, args, expected) => {
      const proposal = wire[provider](tool, args);
      const decision = catalog.decide(proposal, ticket);
      expect(outcomeOf(decision), JSON.stringify(decision)).toBe(expected);
      expectHintHoldsNoRecordContent(decision);
    });
  },
);

function outcomeOf(decision: Decision): Outcome {
  return decision.outcome === "send" ? "send" : decision.reason;
}

describe("parseToolCall", () => {
  it("gives decide() the proposal shapes it reads", () => {
    expect(parseToolCall("appointment_reminder", reminderArgs())).toEqual({
      template: "appointment_reminder",
      slots: reminderArgs(),
    });
    expect(parseToolCall(toolNames.escalate, { code: "needs_human", note: "n" })).toEqual({
      escalate: "needs_human",
      note: "n",
    });
    expect(parseToolCall("appointment_reminder", "")).toEqual({ template: "appointment_reminder" });
    expect(parseToolCall("appointment_reminder", undefined)).toEqual({ template: "appointment_reminder" });
  });

  it("keeps the model's escalation note for people, and decide() never sends it", () => {
    const decision = catalog.decide(
      parseToolCall(toolNames.escalate, { code: "suspicious_request", note: "asks to email a third party" }),
      ticket,
    );
    expect(decision).toMatchObject({
      outcome: "escalate",
      reason: "model_escalated",
      code: "suspicious_request",
      note: "asks to email a third party",
    });
  });

  it('maps "(none)" to null in any case and spacing, and nothing else', () => {
    const proposal = parseToolCall("t", { a: " (NONE) ", b: "none", c: "(none)x", d: null });
    expect(proposal).toEqual({ template: "t", slots: { a: null, b: "none", c: "(none)x", d: null } });
  });

  it("returns text that is not JSON as it is, for decide() to call unparseable", () => {
    expect(parseToolCall("appointment_reminder", "{oops")).toBe("{oops");
    const huge = `{"a":"${"x".repeat(1_000_001)}"}`;
    expect(catalog.decide(parseToolCall("appointment_reminder", huge), ticket)).toMatchObject({
      reason: "unparseable_output",
    });
  });

  it("never pollutes a prototype", () => {
    const proposal = parseToolCall(
      "appointment_reminder",
      '{"__proto__": {"polluted": true}, "constructor": "x"}',
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const slots = (proposal as { slots: Record<string, unknown> }).slots;
    expect(Object.keys(slots).sort()).toEqual(["__proto__", "constructor"]);
  });

  it("never throws on hostile arguments or names", () => {
    const hostile = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error("boom");
        },
      },
    );
    const getter = Object.defineProperty({}, "code", {
      enumerable: true,
      get: () => {
        throw new Error("boom");
      },
    });
    for (const [name, args] of [
      ["appointment_reminder", hostile],
      [toolNames.escalate, getter],
      [toolNames.proposal, hostile],
      [Symbol("x"), {}],
      [{ toString: () => "appointment_reminder" }, {}],
      [null, null],
    ] as const) {
      let decision: Decision | undefined;
      expect(() => {
        decision = catalog.decide(parseToolCall(name, args), ticket);
      }).not.toThrow();
      expect(decision?.outcome).toBe("escalate");
    }
  });

  it("never throws, and decide() never sends, for any name and arguments that are not a valid call", () => {
    const valid = new Set(["appointment_reminder"]);
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.constantFrom(...Object.values(toolNames), "appointment_reminder"),
          fc.anything(),
        ),
        fc.oneof(fc.anything(), fc.json(), fc.string()),
        (name, args) => {
          const decision = catalog.decide(parseToolCall(name, args), ticket);
          expect(escalationReasons as readonly string[]).toContain(
            decision.outcome === "send" ? "model_escalated" : decision.reason,
          );
          if (decision.outcome === "send") expect(valid.has(String(name).toLowerCase())).toBe(true);
        },
      ),
      { numRuns: propertyRuns(500) },
    );
  });
});

describe("structured output → parseToolCall(name, output) → decide", () => {
  const schema = catalog.proposalSchema(ticket, { provider: "openai" });

  it.each([
    ["a template", { decision: { appointment_reminder: reminderArgs() } }, "send"],
    ["as JSON text", JSON.stringify({ decision: { appointment_reminder: reminderArgs() } }), "send"],
    [
      "an optional slot left empty",
      {
        decision: {
          clinician_handover: {
            appointment: h("appointments", "A-1"),
            patient: h("patients", "P-1"),
            urgency: noneValue,
          },
        },
      },
      "send",
    ],
    [
      "an escalation",
      { decision: { escalate_to_human: { code: "needs_human", note: "" } } },
      "model_escalated",
    ],
    ["truncated JSON", '{"decision": {"appointment_reminder": {"appoint', "unparseable_output"],
    ["no wrapper", { appointment_reminder: reminderArgs() }, "invalid_proposal"],
    ["two choices at once", { decision: { a: {}, b: {} } }, "invalid_proposal"],
    ["an unknown template", { decision: { free_text: { body: "hi" } } }, "unknown_template"],
    ["a nested wrapper", { decision: { [toolNames.proposal]: { decision: {} } } }, "invalid_proposal"],
  ] as const)("%s", (_name, output, expected) => {
    const decision = catalog.decide(catalog.parseToolCall(schema.name, output), ticket);
    expect(outcomeOf(decision)).toBe(expected);
  });
});
