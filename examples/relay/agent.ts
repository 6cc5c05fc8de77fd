/**
 * An agent process that holds one credential: a task token for one ticket and run. It reads the
 * ticket's prompt text and tools from the relay, and proposes what the model chose. It has no records,
 * no send credentials and no way to name another ticket.
 *
 *   FORMLETTER_RELAY_URL=http://127.0.0.1:8787 FORMLETTER_TASK_TOKEN=… npx tsx examples/relay/agent.ts '<model output JSON>'
 *
 * The model call itself is left out: the output given on the command line stands in for it.
 */
import { createRelayClient, RelayRequestError } from "formletter/relay";

const url = process.env.FORMLETTER_RELAY_URL ?? "";
const token = process.env.FORMLETTER_TASK_TOKEN ?? "";
const output: unknown = JSON.parse(process.argv[2] ?? "null");

const relay = createRelayClient({ url, token });

try {
  // What a model would be given: the ticket's choosable records as handles and labels, and its tools.
  const description = await relay.describe();
  const tools = await relay.tools("openai");
  const handles = description.split("\n").filter((line) => /^- [a-z]+-[0-9a-z]+: /.test(line)).length;
  console.log(
    `prompt: ${handles} choosable records; tools (openai): ${tools.tools.length}, stage ${tools.stage}`,
  );

  const reply = await relay.propose(output);
  console.log(
    `proposal: ${reply.outcome}${reply.reason ? ` (${reply.reason})` : ""}${reply.duplicate ? " [duplicate]" : ""}`,
  );

  // A steered agent trying another ticket: the body cannot name one, and saying so is refused and audited.
  const elsewhere = await fetch(`${url}/v1/proposals`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ output, ticketId: "T-00000" }),
  });
  const refused = (await elsewhere.json()) as { error?: { code?: string } };
  console.log(`another ticket: ${elsewhere.status} ${refused.error?.code}`);
} catch (error) {
  if (!(error instanceof RelayRequestError)) throw error;
  console.log(`refused: ${error.status} ${error.problem}`);
  process.exitCode = 1;
}
