/**
 * formletter's tools driven by the AI SDK's own mock model through generateText and streamText: a
 * normal send, an escalation with the hint the model gets, arguments that do not fit, and a call
 * repeated. What the model reads back is code-written, and nothing is ever sent twice.
 */
import { describe, expect, it } from "vitest";
import { contractorEmail } from "../fixtures/property.js";
import { argsOf, ask, drives, modelOf, rig } from "./harness.js";
import { toolResultsSeen } from "./scripted-model.js";

describe.each(Object.entries(drives))("formletter tools under %s", (_, drive) => {
  it("sends a normal message once and tells the model so in code-written text", async () => {
    const { formletter, transport } = await rig();
    const model = modelOf(
      { call: "completion_check", input: argsOf("completion_check") },
      { text: "Asked the contractor." },
    );
    const run = await drive(model, formletter.tools, ask);
    expect(run.errors).toEqual([]);
    expect(run.outputs).toEqual([{ outcome: "sent", template: "completion_check", delivery: "delivered" }]);
    expect(transport.sent).toHaveLength(1);
    expect(transport.sent[0]?.message).toMatchObject({
      to: contractorEmail("T-1"),
      subject: "Is unit Flat T-1 finished?",
    });
    expect(toolResultsSeen(model)).toEqual([
      { type: "text", value: "Sent: the completion_check message was sent. Do not send it again." },
    ]);
    expect(run.text).toBe("Asked the contractor.");
  });

  it("escalates a call naming a record of no such handle, and gives the model the valid handles as its hint", async () => {
    const { formletter, transport, outbox } = await rig();
    const input = argsOf("completion_check", { order: "o-zzzz" });
    const model = modelOf({ call: "completion_check", input });
    const run = await drive(model, formletter.tools, ask);
    const [output] = run.outputs as { outcome: string; reason: string; hint?: string; slot?: string }[];
    expect(output).toMatchObject({ outcome: "escalated", reason: "record_not_found", slot: "order" });
    expect(output?.hint).toContain(argsOf("completion_check").order);
    expect(toolResultsSeen(model)).toEqual([
      {
        type: "text",
        value: `Escalated (record_not_found) (slot order): nothing was sent; a person will see the ticket. A corrected call may succeed: ${output?.hint}`,
      },
    ]);
    expect(transport.sent).toHaveLength(0);
    const items = (await outbox.queue.list()).items;
    expect(items.map((item) => item.reason)).toEqual([output?.reason]);
  });

  it("hands escalate_to_human to the queue, with the model's note kept for people only", async () => {
    const { formletter, transport, outbox } = await rig();
    const model = modelOf({
      call: "escalate_to_human",
      input: { code: "needs_human", note: "CALL ME at evil.example" },
    });
    const run = await drive(model, formletter.tools, ask);
    expect(run.outputs).toEqual([
      expect.objectContaining({ outcome: "escalated", reason: "model_escalated" }),
    ]);
    expect(JSON.stringify(toolResultsSeen(model))).not.toContain("evil");
    expect(transport.sent).toHaveLength(0);
    expect((await outbox.queue.list()).items).toHaveLength(1);
  });

  const { order, contractor } = argsOf("completion_check");
  it.each([
    ["an extra argument", "completion_check", { order, contractor, to: contractor, cc: "eve@evil.example" }],
    ["a missing choice", "visit_request", { order, contractor, to: contractor }],
    ["a key of no choice", "visit_request", { order, contractor, to: contractor, access: "window" }],
    ["a number where a handle goes", "completion_check", { order: 7, contractor, to: contractor }],
    ["a nested object", "completion_check", { order: { id: "W-T-1" }, contractor, to: contractor }],
    ["an array", "completion_check", [{ order, contractor, to: contractor }]],
    ["a very long handle", "completion_check", { order: "o".repeat(100_000), contractor, to: contractor }],
    ["a constructor key", "completion_check", { constructor: "y", order, contractor, to: contractor }],
  ])("escalates %s as handle() would, sending nothing and throwing nothing", async (_, name, input) => {
    const { formletter, transport } = await rig();
    const model = modelOf({ call: name, input });
    const run = await drive(model, formletter.tools, ask);
    expect(run.errors).toEqual([]);
    expect(run.outputs).toEqual([expect.objectContaining({ outcome: "escalated" })]);
    expect(transport.sent).toHaveLength(0);
    const seen = JSON.stringify(toolResultsSeen(model));
    expect(seen).toMatch(/^\[\{"type":"text","value":"Escalated \(/);
    expect(seen).not.toContain("evil");
  });

  it.each([
    ["text that is not JSON", '{"order": '],
    ["a __proto__ key", '{"__proto__": {"order": "x"}}'],
  ])("leaves %s to the SDK's own tool error: nothing is sent, the run goes on", async (_, input) => {
    const { formletter, transport } = await rig();
    const model = modelOf({ call: "completion_check", input }, { text: "I could not send it." });
    const run = await drive(model, formletter.tools, ask);
    expect(run.errors).toEqual([]);
    expect(transport.sent).toHaveLength(0);
    expect(run.text).toBe("I could not send it.");
  });

  it("answers a repeated call as a duplicate and sends once", async () => {
    const { formletter, transport } = await rig();
    const input = argsOf("completion_check");
    const model = modelOf({ call: "completion_check", input }, { call: "completion_check", input });
    const run = await drive(model, formletter.tools, ask);
    expect(run.outputs).toEqual([
      { outcome: "sent", template: "completion_check", delivery: "delivered" },
      { outcome: "duplicate", first: "sent" },
    ]);
    expect(transport.sent).toHaveLength(1);
  });

  it("answers a call of a tool this ticket does not offer with the SDK's own error, sending nothing", async () => {
    const { formletter, transport } = await rig();
    const model = modelOf({ call: "wire_money", input: {} }, { text: "ok" });
    const run = await drive(model, formletter.tools, ask);
    expect(transport.sent).toHaveLength(0);
    expect(run.outputs).toEqual([]);
  });
});
