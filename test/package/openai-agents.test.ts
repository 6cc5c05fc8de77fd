/**
 * formletter/openai-agents from the packed tarball, installed beside @openai/agents in a project of its
 * own: from an ES module and from CommonJS, each build loads the SDK the application loads, and a
 * held call's approval through the queue resumes a saved run that sends once.
 */
import { describe, expect, it } from "vitest";
import {
  inBothModuleSystems,
  partnerOutboxImports,
  partnerOutboxSource,
  usePackedPackage,
} from "./scratch-project.js";

const packed = usePackedPackage(["@openai/agents"]);

/** One held call, approved in the queue, then the saved run resumed by another agent. */
const main = `
const main = async () => {
  const kit = await formletterTools({ outbox, ticketId: "T-1", runId: "run-1" });
  const agentWith = (steps) => new Agent({ name: "support", instructions: kit.description, tools: kit.tools, model: new ScriptedModel(steps) });
  const runner = new Runner({ tracingDisabled: true });
  const held = await runner.run(agentWith([[functionCall("payout", {}, { callId: "call_1" })]]), "Release the payout.");
  const [approval] = await kit.approvals(held.interruptions);
  const saved = held.state.toString();
  await outbox.queue.approve(approval.queueItemId, { by: "ana@example.com" });
  const agent = agentWith([[assistantMessage("done")]]);
  const state = await RunState.fromString(agent, saved);
  const settled = await kit.settle(state);
  const resumed = await runner.run(agent, state);
  console.log([approval.status, approval.draft.to, settled.resumable, transport.sent.length, resumed.finalOutput].join(" "));
  await outbox.close();
};
`;

const scripts = inBothModuleSystems(
  "agents",
  {
    ...partnerOutboxImports,
    "@openai/agents": ["Agent", "Runner", "RunState"],
    "@openai/agents/testing": ["assistantMessage", "functionCall", "ScriptedModel"],
    "formletter/openai-agents": ["formletterTools"],
  },
  partnerOutboxSource({ approval: true }) + main,
);

describe("formletter/openai-agents from the packed package", () => {
  it.each(scripts)(
    "runs from %s: the held call waits, its approval in the queue sends it once on resume",
    async (_, name, source) => {
      expect(await packed.runScript(name, source)).toBe("waiting ana@partner.example true 1 done");
    },
  );
});
