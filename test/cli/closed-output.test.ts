import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { afterAll, beforeAll, describe, it } from "vitest";
import { z } from "zod";
import { closedOutputStatus } from "../../src/cli/output.js";
import { createProgram } from "../../src/cli/program.js";
import {
  createCatalog,
  createOutbox,
  defineRecords,
  defineTemplate,
  memoryTransport,
} from "../../src/index.js";
import { sqliteStore } from "../../src/store/sqlite/index.js";
import { builtPackage } from "../fixtures/built-package.js";
import { type InstalledCatalogs, installedCatalogs } from "../fixtures/installed-catalogs.js";

// `formletter … | head -1`: the reader of the output goes away before the command has written. Each
// command runs as its own process with the read end of its stdout closed at once, so its first write
// fails with EPIPE; it must end with 141 (128 + SIGPIPE) and nothing on stderr but its own words. The
// processes run the command line built from the sources, as `npx formletter` runs dist, given catalog
// modules that import the package as a team's do (the built one, installed beside them), so a process
// does not compile the sources again to load one.

const root = fileURLToPath(new URL("../../", import.meta.url));
const at = (relative: string) => join(root, relative);
/** The catalog modules the commands load, as copies in a project where `formletter` is installed. */
const catalogModules = [
  "templates/seller.ts",
  "test/fixtures/capacity-catalog.ts",
  "test/fixtures/whatsapp-catalog.ts",
  "test/relay/fixtures/relay-module.ts",
  "test/fixtures/property.ts",
  "examples/data/history-corpus.ts",
];
let installed: InstalledCatalogs;
const module = (path: string) => installed.at(path);
const secret = "closed-output test secret, 32 bytes or more";

let directory: string;
let cliEntry: string;
let db: string;
let history: string;
const items = { first: "", second: "", approval: "", otherApproval: "" };

// A lettings agency's contractors: escalations and approvals for the queue commands to act on.
const records = defineRecords({
  jobs: z.object({ id: z.string(), ref: z.string(), contractorId: z.string() }),
  contractors: z.object({ id: z.string(), email: z.email() }),
});
const catalog = createCatalog(records, [
  defineTemplate(records, {
    id: "accept_quote",
    description: "Accept the quote",
    effect: "irreversible",
    audience: "contractor",
    channel: "email",
    to: records.slot.ref("contractors", { show: "email", match: { id: "job.contractorId" } }),
    subject: "Quote for {{job}}",
    body: "We accept your quote for job {{job}}.",
    slots: { job: records.slot.ref("jobs", { show: "ref" }) },
    limits: { perTicket: 1, perDay: 100 },
    approval: "human",
  }),
]);
const ticket = (id: string) => ({
  ticketId: id,
  jobs: [{ id: `j-${id}`, ref: `R-${id}`, contractorId: "c1" }],
  contractors: [{ id: "c1", email: "fix@plumbers.example.com" }],
});

/** Two escalations and two drafts awaiting approval, as a running outbox leaves them. */
async function populate(file: string): Promise<void> {
  const outbox = createOutbox({
    catalog,
    load: ticket,
    store: sqliteStore(file),
    transports: { email: memoryTransport() },
  });
  const ids: string[] = [];
  for (const [index, output] of [
    { escalate: "needs_human" },
    { escalate: "needs_human" },
    { template: "accept_quote", slots: {} },
    { template: "accept_quote", slots: {} },
  ].entries()) {
    const result = await outbox.handle({ ticketId: `T${index}`, output, runId: `r${index}` });
    ids.push(result.queueItemId ?? "");
  }
  await outbox.close();
  [items.first, items.second, items.approval, items.otherApproval] = ids as [string, string, string, string];
}

/** A free TCP port on 127.0.0.1, so a server whose output is closed can still be found. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  const address = server.address();
  await new Promise((closed) => server.close(closed));
  return typeof address === "object" && address !== null ? address.port : 0;
}

/** Waits for the server on `port` to answer anything, while the process is still running. */
async function answers(port: number, child: ChildProcess): Promise<number> {
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error("the server ended");
    const status = await fetch(`http://127.0.0.1:${port}/`).then(
      (response) => response.status,
      () => undefined,
    );
    if (status !== undefined) return status;
    await new Promise((wait) => setTimeout(wait, 100));
  }
}

interface Case {
  readonly argv: () => readonly string[];
  /** The status when it ends; a command refused on its own terms keeps its 1. */
  readonly code?: number;
  /** A long-running command: the port it serves on, checked while its output is closed, then stopped. */
  readonly serves?: () => number;
}

let servePort = 0;
let previewPort = 0;

// Every command of the program needs a case here, with arguments it succeeds with, as in its own tests.
const cases: Readonly<Record<string, Case>> = {
  "queue list": { argv: () => ["--db", db] },
  "queue show": { argv: () => [items.first, "--db", db] },
  "queue claim": { argv: () => [items.first, "--db", db, "--by", "ana"] },
  "queue release": { argv: () => [items.approval, "--db", db, "--by", "ana"] },
  "queue approve": { argv: () => [items.otherApproval, "--db", db, "--by", "ana"], code: 1 },
  "queue reject": { argv: () => [items.otherApproval, "--db", db, "--by", "ben", "--note", "too high"] },
  "queue resolve": { argv: () => [items.second, "--db", db, "--by", "ana", "--resolution", "phoned"] },
  "suppression list": { argv: () => ["--db", db] },
  // Nothing is suppressed in this file: the lift is refused on its own terms, before any output.
  "suppression lift": { argv: () => ["0".repeat(64), "--db", db, "--by", "ana"], code: 1 },
  replay: { argv: () => [module("templates/seller.ts"), history] },
  report: { argv: () => ["--db", db] },
  capacity: { argv: () => [module("test/fixtures/capacity-catalog.ts")] },
  cost: { argv: () => [module("templates/seller.ts"), "--tickets", history] },
  check: { argv: () => [module("test/fixtures/capacity-catalog.ts")] },
  diff: { argv: () => ["--base", module("templates/seller.ts"), "--head", module("templates/seller.ts")] },
  // The catalog holds a template with sections, which is not exported: its own refusal, kept as 1.
  "export whatsapp": { argv: () => ["--catalog", module("test/fixtures/whatsapp-catalog.ts")], code: 1 },
  checklist: {
    argv: () => [
      "--catalog",
      module("templates/seller.ts"),
      "--records",
      at("examples/data/seller-sample-ticket.json"),
      "--runs",
      "20",
    ],
  },
  serve: {
    argv: () => [
      "--catalog",
      module("test/relay/fixtures/relay-module.ts"),
      "--db",
      join(directory, "relay.db"),
      "--port",
      String(servePort),
    ],
    serves: () => servePort,
  },
  "token mint": { argv: () => ["--ticket", "T-1", "--run", "run-1"] },
  // Its standard input is closed from the start: the client has gone, so it ends at once, writing nothing.
  mcp: {
    argv: () => [
      "--catalog",
      module("test/relay/fixtures/relay-module.ts"),
      "--db",
      join(directory, "mcp.db"),
      "--ticket",
      "T-1",
    ],
    code: 0,
  },
  mine: {
    argv: () => ["--records", module("examples/data/history-corpus.ts"), at("examples/data/history.jsonl")],
  },
  preview: {
    argv: () => ["--catalog", module("templates/seller.ts"), "--port", String(previewPort)],
    serves: () => previewPort,
  },
};

/** The runnable commands of the program as typed ("queue list"), read from its definition. */
function leaves(command: Command, prefix: readonly string[] = []): string[] {
  return command.commands.flatMap((sub) =>
    sub.commands.length === 0 ? [[...prefix, sub.name()].join(" ")] : leaves(sub, [...prefix, sub.name()]),
  );
}
const commands = leaves(await createProgram({ stdout: () => undefined, stderr: () => undefined }));

/**
 * Runs `formletter argv` as a process whose stdout reader (or stderr's, or both) has gone before it
 * starts; a serving command is checked to answer and then stopped as an operator would.
 */
async function runClosed(
  argv: readonly string[],
  options: { close?: "stdout" | "stderr" | "both"; serves?: number } = {},
) {
  const child = spawn(process.execPath, [cliEntry, ...argv], {
    cwd: root,
    env: { ...process.env, FORMLETTER_SECRET: secret },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const close = options.close ?? "stdout";
  let stdout = "";
  let stderr = "";
  if (close === "stderr") child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  else child.stdout.destroy();
  if (close === "stdout") child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  else child.stderr.destroy();
  // 'close' comes after 'exit', once the streams still read have ended too.
  const ended = new Promise<number | string | null>((done) =>
    child.on("close", (code, signal) => done(code ?? signal)),
  );
  let status: number | undefined;
  if (options.serves !== undefined) {
    status = await answers(options.serves, child);
    child.kill("SIGTERM");
  }
  const code = await ended;
  return { code, stdout, stderr, status };
}

/**
 * Runs `run` when the commands given before it on the outbox database have ended, in the order given,
 * as an operator's commands act on it one after another; the other commands run meanwhile.
 */
let onDatabase: Promise<unknown> = Promise.resolve();
function inTurn<T>(argv: readonly string[], run: () => Promise<T>): Promise<T> {
  if (!argv.includes(db)) return run();
  const result = onDatabase.then(run);
  onDatabase = result.catch(() => undefined);
  return result;
}

// Node's own report of an unhandled stream error, or any stack frame.
const crash = /EPIPE|Unhandled 'error'|\n\s+at /;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), "formletter-closed-output-"));
  db = join(directory, "outbox.db");
  history = join(directory, "history.jsonl");
  const lines = readFileSync(at("examples/data/tickets.jsonl"), "utf8").split("\n").slice(0, 20);
  writeFileSync(history, `${lines.join("\n")}\n`);
  await populate(db);
  servePort = await freePort();
  previewPort = await freePort();
  cliEntry = (await builtPackage()).cli;
  installed = await installedCatalogs(catalogModules);
}, 120_000);
afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
  installed?.remove();
});

// Each process mostly waits (on its start, its catalog, its server): they run side by side.
describe.concurrent("a command whose output is closed by its reader", () => {
  it("has a case for every command the program defines", ({ expect }) => {
    expect(commands.length).toBeGreaterThan(10);
    expect(commands.filter((command) => cases[command] === undefined)).toEqual([]);
  });

  it.for(commands)(
    "formletter %s ends quietly: 141, or its own refusal",
    { timeout: 60_000 },
    async (command, { expect }) => {
      const given = cases[command];
      if (given === undefined) throw new Error(`give \`formletter ${command}\` arguments in cases above`);
      const serves = given.serves?.();
      const argv = [...command.split(" "), ...given.argv()];
      const { code, stderr, status } = await inTurn(argv, () =>
        runClosed(argv, { ...(serves === undefined ? {} : { serves }) }),
      );
      expect(stderr).not.toMatch(crash);
      expect(code).toBe(given.code ?? closedOutputStatus);
      // A server keeps serving while its log has nowhere to go, and stops cleanly when asked.
      if (serves !== undefined) expect(status).toBeGreaterThanOrEqual(200);
    },
  );

  it.for([["--help"], ["--version"], ["check", "test/fixtures/capacity-catalog.ts"]])(
    "formletter %s ends quietly with stdout and stderr both closed",
    { timeout: 60_000 },
    async (given, { expect }) => {
      const argv = given.map((arg) => (catalogModules.includes(arg) ? module(arg) : arg));
      // Without a reader for either stream, only the status tells a clean end from a crash (1).
      expect((await runClosed(argv, { close: "both" })).code).toBe(closedOutputStatus);
    },
  );

  it("ends quietly when the catalog module itself prints, past the command's own writer", async ({
    expect,
  }) => {
    const noisy = join(directory, "noisy-catalog.ts");
    writeFileSync(
      noisy,
      `export * from ${JSON.stringify(module("test/fixtures/capacity-catalog.ts"))};\nfor (let i = 0; i < 3; i++) console.log("loaded", i);\n`,
    );
    const { code, stderr } = await runClosed(["check", noisy]);
    expect(stderr).not.toMatch(crash);
    expect(code).toBe(closedOutputStatus);
  }, 60_000);

  it("writes all of stdout when only stderr's reader is gone, and still says output was lost", async ({
    expect,
  }) => {
    // report --html: the table on stdout, then the line naming the HTML file on stderr.
    const html = join(directory, "report.html");
    const argv = ["report", "--db", db, "--html", html];
    const { code, stdout } = await inTurn(argv, () => runClosed(argv, { close: "stderr" }));
    expect(stdout).toContain("escalat");
    expect(code).toBe(closedOutputStatus);
  }, 60_000);
});
