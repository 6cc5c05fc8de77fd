/**
 * formletter/openai-agents from the packed tarball, installed beside @openai/agents in a project of its
 * own: from an ES module and from CommonJS, each build loads the SDK the application loads, and a
 * held call's approval through the queue resumes a saved run that sends once.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installPackedPackage, run } from "./scratch-project.js";

let project: string;

beforeAll(async () => {
  project = await installPackedPackage(["@openai/agents"]);
}, 600_000);
afterAll(() => {
  if (project !== undefined) rmSync(project, { recursive: true, force: true });
});

/** The script's body, after its imports: one held call, approved in the queue, then the saved run resumed. */
const body = `
const records = defineRecords({ contacts: z.object({ id: z.string(), email: z.email() }) });
const catalog = createCatalog(records, [
  defineTemplate(records, {
    id: "payout", description: "Tell the partner their payout was released", audience: "partner",
    effect: "irreversible", channel: "email", to: records.slot.ref("contacts", { show: "email" }),
    subject: "Payout released", body: "Your payout was released.", slots: {},
    limits: { perTicket: 1, perDay: 10 }, approval: "human",
  }),
]);
const transport = memoryTransport();
const outbox = createOutbox({
  catalog, store: memoryStore(), transports: { email: transport },
  load: (ticketId) => ({ ticketId, contacts: [{ id: "c1", email: "ana@partner.example" }] }),
});
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

const esm = `import { z } from "zod";
import { Agent, Runner, RunState } from "@openai/agents";
import { assistantMessage, functionCall, ScriptedModel } from "@openai/agents/testing";
import { createCatalog, createOutbox, defineRecords, defineTemplate, memoryStore, memoryTransport } from "formletter";
import { formletterTools } from "formletter/openai-agents";
${body}
await main();
`;

const cjs = `const { z } = require("zod");
const { Agent, Runner, RunState } = require("@openai/agents");
const { assistantMessage, functionCall, ScriptedModel } = require("@openai/agents/testing");
const { createCatalog, createOutbox, defineRecords, defineTemplate, memoryStore, memoryTransport } = require("formletter");
const { formletterTools } = require("formletter/openai-agents");
${body}
main();
`;

describe("formletter/openai-agents from the packed package", () => {
  it.each([
    ["an ES module", "agents.mjs", esm],
    ["CommonJS", "agents.cjs", cjs],
  ])(
    "runs from %s: the held call waits, its approval in the queue sends it once on resume",
    async (_, name, source) => {
      writeFileSync(join(project, name), source);
      const { stdout } = await run(process.execPath, [name], { cwd: project });
      expect(stdout.trim()).toBe("waiting ana@partner.example true 1 done");
    },
  );
});
