/**
 * formletter's AI SDK tools over a real relay on port 0, the agent holding only a task token: a send,
 * an approval request whose queue item an operator approves at the relay, an approval in the chat
 * that sends nothing by itself, and a relay that cannot be reached.
 */
import type { ModelMessage } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { formletterTools } from "../../src/ai-sdk/index.js";
import { createOutbox, memoryStore, memoryTransport } from "../../src/index.js";
import { createRelay, createRelayClient, type Relay } from "../../src/relay/index.js";
import { propertyCatalog, propertyTicket, proposal } from "../fixtures/property.js";
import { approvalRequests, ask, drives, modelOf } from "./harness.js";
import { toolResultsSeen } from "./scripted-model.js";

const secret = "ai-sdk-relay-secret-0123456789-abcdefgh";
const running: Relay[] = [];
afterEach(async () => {
  for (const relay of running.splice(0)) await relay.close();
});

async function relayRig() {
  const transport = memoryTransport();
  const outbox = createOutbox({
    catalog: propertyCatalog,
    load: propertyTicket,
    store: memoryStore(),
    transports: { email: transport },
  });
  const relay = createRelay({ outbox, secret });
  running.push(relay);
  const { url } = await relay.listen({ port: 0 });
  const token = await relay.mintTaskToken({ ticketId: "T-1", runId: "run-1" });
  const formletter = await formletterTools({ relay: createRelayClient({ url, token }) });
  return { outbox, transport, formletter, url, token };
}

const argsOf = (template: string) => proposal("T-1", template).slots;

describe.each(Object.entries(drives))("formletter tools over a relay under %s", (_, drive) => {
  it("sends through the relay, and answers a repeat as a duplicate", async () => {
    const { formletter, transport } = await relayRig();
    const input = argsOf("completion_check");
    const model = modelOf({ call: "completion_check", input }, { call: "completion_check", input });
    const run = await drive(model, formletter.tools, ask);
    expect(run.outputs).toEqual([
      { outcome: "sent", template: "completion_check" },
      { outcome: "duplicate", first: "sent" },
    ]);
    expect(transport.sent).toHaveLength(1);
  });

  it("asks for approval of a queued draft; an approval in the chat sends nothing, an operator's at the relay sends once", async () => {
    const { formletter, transport, outbox } = await relayRig();
    const model = modelOf(
      { call: "payment_release", input: argsOf("payment_release") },
      { text: "Waiting." },
    );
    const run = await drive(model, formletter.tools, ask);
    const [request] = approvalRequests(run);
    expect(request?.toolCall.toolName).toBe("payment_release");
    const response = { type: "tool-approval-response", approvalId: request?.approvalId, approved: true };
    const history = [...ask, ...run.messages, { role: "tool", content: [response] } as ModelMessage];
    const resumed = await drive(model, formletter.tools, history);
    expect(resumed.outputs).toEqual([{ outcome: "approval_at_relay" }]);
    expect(JSON.stringify(toolResultsSeen(model))).toContain("a person approves this message at the relay");
    expect(transport.sent).toHaveLength(0);
    const [item] = (await outbox.queue.list({ status: "open" })).items;
    await outbox.queue.approve(item?.id ?? "", { by: "ana@example.com" });
    await drive(model, formletter.tools, history);
    expect(transport.sent).toHaveLength(1);
  });

  it("tells the model a relay that is gone is unreachable, and sends nothing", async () => {
    const { formletter, transport } = await relayRig();
    for (const relay of running.splice(0)) await relay.close();
    const model = modelOf(
      { call: "completion_check", input: argsOf("completion_check") },
      { text: "Later." },
    );
    const run = await drive(model, formletter.tools, ask);
    expect(run.errors).toEqual([]);
    expect(run.outputs).toEqual([{ outcome: "relay_unreachable" }]);
    expect(transport.sent).toHaveLength(0);
  });
});
