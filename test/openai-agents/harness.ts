/**
 * What the OpenAI Agents SDK tests share: an outbox over a real SQLite file that a test can "restart"
 * (close, then open a new outbox on the same file, as a new process would), the property-management
 * catalog, a transport that counts deliveries, and an agent whose model is a {@link FakeModel}.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, Runner } from "@openai/agents";
import { afterEach, beforeEach } from "vitest";
import { createOutbox, memoryTransport, type Outbox } from "../../src/index.js";
import { type FormletterAgentTools, formletterTools } from "../../src/openai-agents/index.js";
import { sqliteStore } from "../../src/store/sqlite/index.js";
import type { MemoryTransport } from "../../src/transport/index.js";
import { loadTicket, propertyCatalog, proposal } from "../fixtures/property.js";
import { type FakeCall, FakeModel } from "./fake-model.js";

export const ticketId = "T-1";
export const runId = "run-1";
/** A secret of 32 bytes for first contact, as the outbox's `contactKey`. */
export const contactKey = "k".repeat(32);

/** One "process": its outbox on the shared file, its transport, and the tools of the ticket. */
export interface Process {
  readonly outbox: Outbox;
  readonly transport: MemoryTransport;
  readonly kit: FormletterAgentTools;
  /** A new agent (same name, same tools) whose model makes `call`, then answers. */
  agent(call: FakeCall | readonly FakeCall[]): { readonly agent: Agent; readonly model: FakeModel };
}

export interface ProcessOptions {
  readonly firstContact?: "hold" | "send";
}

/**
 * A SQLite file per test; `start()` opens a process on it, `restart()` closes every open one and opens
 * another on the same file: nothing carries over but the file and what the test saved.
 */
export function useProcesses(): {
  start(options?: ProcessOptions): Promise<Process>;
  restart(options?: ProcessOptions): Promise<Process>;
  readonly file: string;
} {
  let dir: string | undefined;
  const open: Outbox[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "formletter-openai-agents-"));
  });
  afterEach(async () => {
    await closeAll();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  const file = () => {
    if (dir === undefined) throw new Error("useProcesses: no file outside a test");
    return join(dir, "outbox.db");
  };
  const closeAll = async () => {
    for (const outbox of open.splice(0)) await outbox.close().catch(() => undefined);
  };
  const start = async (options: ProcessOptions = {}): Promise<Process> => {
    const transport = memoryTransport();
    const outbox = createOutbox({
      catalog: propertyCatalog,
      load: loadTicket,
      store: sqliteStore(file()),
      transports: { email: transport },
      contactKey,
      ...(options.firstContact === undefined ? {} : { firstContact: options.firstContact }),
    });
    open.push(outbox);
    const kit = await formletterTools({ outbox, ticketId, runId });
    return {
      outbox,
      transport,
      kit,
      agent: (call) => agentOf(kit, call),
    };
  };
  return {
    start,
    async restart(options) {
      await closeAll();
      return start(options);
    },
    get file() {
      return file();
    },
  };
}

/** An agent (always named "support", as a restored run expects) with `kit`'s tools and a fake model. */
export function agentOf(
  kit: FormletterAgentTools,
  call: FakeCall | readonly FakeCall[],
): { readonly agent: Agent; readonly model: FakeModel } {
  const model = new FakeModel(call);
  return {
    agent: new Agent({ name: "support", instructions: kit.description, tools: kit.tools, model }),
    model,
  };
}

/** A runner that sends no traces anywhere: the tests run offline. */
export const runner = new Runner({ tracingDisabled: true });

/**
 * The arguments a model gives a template's tool for the fixture ticket: its order and contractor (the
 * recipient has one candidate, so the tool does not ask for it).
 */
export function toolArgs(template: string): Record<string, string> {
  const { to: _, ...slots } = proposal(ticketId, template).slots;
  return slots;
}
