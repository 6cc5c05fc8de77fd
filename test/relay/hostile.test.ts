import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createOutbox, memoryStore, memoryTransport } from "../../src/index.js";
import { createRelay, createRelayClient } from "../../src/relay/index.js";
import { sellerCatalog } from "../../templates/seller.js";
import { agentSecret } from "./harness.js";

interface Recorded {
  readonly ticketId: string;
  readonly records: unknown;
  readonly output: unknown;
  readonly tags: Record<string, string>;
}

// The demo's history: every line tagged hostile:* is an attack a steered model could send.
const history = readFileSync(
  fileURLToPath(new URL("../../examples/data/tickets.jsonl", import.meta.url)),
  "utf8",
)
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as Recorded);
const hostile = history.filter((ticket) => ticket.tags?.category?.startsWith("hostile:"));
const records = new Map(history.map((ticket) => [ticket.ticketId, ticket.records]));
const load = (ticketId: string) => records.get(ticketId);

function outbox() {
  const transport = memoryTransport();
  const store = memoryStore();
  return {
    store,
    transport,
    outbox: createOutbox({ catalog: sellerCatalog, load, store, transports: { email: transport } }),
  };
}

describe("the demo's hostile tickets through the relay", () => {
  it("are dozens of distinct attacks", () => {
    expect(hostile.length).toBeGreaterThanOrEqual(40);
    expect(new Set(hostile.map((ticket) => ticket.tags.category)).size).toBe(hostile.length);
  });

  it("end over HTTP exactly as in process: the same outcome and reason, and nothing sent", async () => {
    const local = outbox();
    const expected = new Map<string, string>();
    for (const ticket of hostile) {
      const { decision } = await local.outbox.handle({
        ticketId: ticket.ticketId,
        output: ticket.output,
        runId: `run-${ticket.ticketId}`,
        tags: ticket.tags,
      });
      expected.set(ticket.ticketId, decision.outcome === "send" ? "send" : `escalate ${decision.reason}`);
    }
    await local.outbox.close();

    const remote = outbox();
    const relay = createRelay({
      outbox: remote.outbox,
      secret: agentSecret,
    });
    const { url } = await relay.listen({ port: 0 });
    try {
      const seen = new Map<string, string>();
      for (const ticket of hostile) {
        const token = await relay.mintTaskToken({
          ticketId: ticket.ticketId,
          runId: `run-${ticket.ticketId}`,
        });
        const reply = await createRelayClient({ url, token }).propose(ticket.output, { tags: ticket.tags });
        seen.set(ticket.ticketId, reply.outcome === "send" ? "send" : `escalate ${reply.reason}`);
      }
      expect(seen).toEqual(expected);
      expect([...seen.values()].filter((outcome) => outcome === "send")).toEqual([]);
      expect(remote.transport.sent).toEqual(local.transport.sent);
    } finally {
      await relay.close();
      await remote.outbox.close();
    }
  });
});
