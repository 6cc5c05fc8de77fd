/**
 * `formletter mcp` over stdio, spawned by the SDK's own StdioClientTransport as a desktop client would:
 * with an outbox of its own on a SQLite file, and forwarding to a relay with a task token. The process
 * runs the command line built from the sources, as `npx formletter` runs dist.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Readable } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createOutbox, memoryStore, memoryTransport } from "../../src/index.js";
import { createRelay } from "../../src/relay/index.js";
import { cli } from "../cli/run.js";
import { builtPackage } from "../fixtures/built-package.js";
import { loadTicket, propertyCatalog, propertyTicket, proposal } from "../fixtures/property.js";
import { agentSecret } from "../relay/harness.js";

const root = resolve(import.meta.dirname, "../..");
const moduleFile = join(root, "test/relay/fixtures/relay-module.ts");

let dir = "";
let cliEntry = "";
const clients: Client[] = [];
beforeAll(async () => {
  cliEntry = (await builtPackage()).cli;
}, 120_000);
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "formletter-mcp-"));
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

/** Spawns `formletter mcp …` and connects the SDK's client to it; `stderr()` is what it printed there. */
async function spawnMcp(args: readonly string[], env: Record<string, string> = {}) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliEntry, "mcp", ...args],
    cwd: root,
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: "pipe",
  });
  let stderr = "";
  (transport.stderr as Readable | null)?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: "formletter-test", version: "1.0.0" });
  await client.connect(transport);
  clients.push(client);
  return { client, stderr: () => stderr };
}

/** Waits until `check` holds: an event in another process, not a time. Fails after many tries. */
async function until(check: () => boolean, what: string): Promise<void> {
  for (let tries = 0; tries < 400; tries += 1) {
    if (check()) return;
    await new Promise((done) => setTimeout(done, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

const count = (text: string, part: string) => text.split(part).length - 1;

describe("formletter mcp over stdio, with an outbox of its own", () => {
  it("lists, sends once, queues an approval that `queue release` approves once, and escalates what does not fit", async () => {
    const db = join(dir, "outbox.db");
    const { client, stderr } = await spawnMcp([
      "--catalog",
      moduleFile,
      "--db",
      db,
      "--ticket",
      "T-7",
      "--flush-every",
      "1",
    ]);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("payment_release");
    const ticket = propertyTicket("T-7");
    for (const value of [ticket.contractors[0]?.email, ticket.contractors[0]?.name, "Flat T-7"])
      expect(JSON.stringify(tools)).not.toContain(value);

    const args = proposal("T-7").slots;
    const sent = await client.callTool({ name: "completion_check", arguments: args });
    expect(sent.structuredContent).toEqual({
      outcome: "sent",
      template: "completion_check",
      delivery: "delivered",
    });
    expect((await client.callTool({ name: "completion_check", arguments: args })).structuredContent).toEqual({
      outcome: "duplicate",
      first: "sent",
    });

    const wrong = await client.callTool({ name: "visit_request", arguments: { ...args, access: "chimney" } });
    expect(wrong.structuredContent).toMatchObject({ outcome: "escalated", reason: "slot_rejected" });

    const queued = await client.callTool({
      name: "payment_release",
      arguments: proposal("T-7", "payment_release").slots,
    });
    const { queueItemId } = queued.structuredContent as { queueItemId: string };
    expect(queued.structuredContent).toMatchObject({ outcome: "queued_for_approval" });
    expect(count(stderr(), "Payment released")).toBe(0);
    const released = await cli(["queue", "release", queueItemId, "--db", db, "--by", "ana@example.com"]);
    expect(released.code).toBe(0);
    await until(() => count(stderr(), "Payment released") > 0, "the approved message to be delivered");
    const again = await cli(["queue", "release", queueItemId, "--db", db, "--by", "ana@example.com"]);
    expect(again.stdout).toContain("already approved; nothing new is sent");
    const list = await cli(["queue", "list", "--db", db, "--status", "approved", "--json"]);
    expect(JSON.parse(list.stdout).items).toHaveLength(1);
    expect(count(stderr(), "Payment released")).toBe(1);
  });

  it("skips a line that is not JSON, answers the next, and ends cleanly on a line past the size limit", async () => {
    const child = spawn(
      process.execPath,
      [cliEntry, "mcp", "--catalog", moduleFile, "--db", join(dir, "raw.db"), "--ticket", "T-1"],
      { cwd: root, stdio: ["pipe", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin.on("error", () => undefined);
    const ended = new Promise<number | null>((done) => child.on("close", (code) => done(code)));
    child.stdin.write("this is not json\n");
    child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
    await until(() => stdout.includes('"id":1'), "the answer to the line after the bad one");
    expect(JSON.parse(stdout.trim())).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    child.stdin.write("x".repeat(1_300_000));
    expect(await ended).toBe(0);
    expect(stderr).not.toMatch(/\bat .*\(|Error:/);
  });

  it("refuses to start without a ticket, naming what to give", async () => {
    const result = await cli(["mcp", "--catalog", moduleFile, "--db", join(dir, "x.db")]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("--ticket ID");
    const relay = await cli(["mcp", "--relay", "http://127.0.0.1:1"]);
    expect(relay.stderr).toContain("FORMLETTER_TASK_TOKEN is not set");
  });
});

describe("formletter mcp over stdio, forwarding to a relay", () => {
  it("lists and calls through the relay with the task token from the environment; a gone relay is unreachable", async () => {
    const transport = memoryTransport();
    const outbox = createOutbox({
      catalog: propertyCatalog,
      load: loadTicket,
      store: memoryStore(),
      transports: { email: transport },
    });
    const relay = createRelay({ outbox, secret: agentSecret });
    const { url } = await relay.listen({ port: 0 });
    try {
      const token = await relay.mintTaskToken({ ticketId: "T-8", runId: "run-8" });
      const { client } = await spawnMcp(["--relay", url], { FORMLETTER_TASK_TOKEN: token });
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("completion_check");
      const sent = await client.callTool({ name: "completion_check", arguments: proposal("T-8").slots });
      expect(sent.structuredContent).toEqual({ outcome: "sent", template: "completion_check" });
      expect(transport.sent).toHaveLength(1);
      await relay.close();
      const gone = await client.callTool({ name: "emergency_callout", arguments: proposal("T-8").slots });
      expect(gone.structuredContent).toEqual({ outcome: "relay_unreachable" });
      expect(gone.isError).toBe(true);
    } finally {
      await relay.close();
      await outbox.close();
    }
  });
});
