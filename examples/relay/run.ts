/**
 * The relay end to end, as three kinds of process: the relay (`formletter serve`), which holds the
 * secrets, the records loader and the transports; agents (examples/relay/agent.ts), each holding one
 * task token and nothing else; and an operator reading the human queue with an operator token.
 *
 *   npx tsx examples/relay/run.ts
 *
 * Secrets are made up for the run and passed in the environment, never on a command line. Messages go
 * to the console transport, printed by the relay at the end. FORMLETTER_CLI names the command line's
 * entry file (default src/cli/index.ts, run through tsx).
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const root = fileURLToPath(new URL("../../", import.meta.url));
const entry = process.env.FORMLETTER_CLI ?? "src/cli/index.ts";
const database = ".formletter/relay-demo.db";
const run = promisify(execFile);
const node = (file: string, args: readonly string[]) =>
  [process.execPath, ["--import", "tsx", file, ...args]] as const;

const secrets = {
  FORMLETTER_SECRET: randomBytes(32).toString("base64url"),
  FORMLETTER_OPERATOR_SECRET: randomBytes(32).toString("base64url"),
};
// Only what a process needs to start: the relay gets the secrets, an agent gets its token.
const base = { PATH: process.env.PATH ?? "" };

interface Ticket {
  readonly ticketId: string;
  readonly output: unknown;
  readonly tags?: { readonly category?: string };
}

/** Two ordinary tickets and two hostile ones from the demo's recorded history (records stay here). */
function pickTickets(): Ticket[] {
  const history = readFileSync(new URL("../data/tickets.jsonl", import.meta.url), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Ticket);
  const category = (ticket: Ticket) => ticket.tags?.category ?? "";
  return [
    ...history.filter((ticket) => !category(ticket).includes(":")).slice(0, 2),
    ...history.filter((ticket) => category(ticket).startsWith("hostile:")).slice(0, 2),
  ];
}

/** Starts `formletter serve` and resolves with its URL once it listens. */
async function startRelay(lines: string[]): Promise<{ child: ChildProcess; url: string }> {
  const [command, args] = node(entry, [
    "serve",
    "--catalog",
    "examples/relay/catalog.ts",
    "--db",
    database,
    "--port",
    "0",
  ]);
  const child = spawn(command, args, {
    cwd: root,
    env: { ...base, ...secrets },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk;
  });
  const url = await new Promise<string>((resolve, reject) => {
    let buffered = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      buffered += chunk;
      const complete = buffered.split("\n");
      buffered = complete.pop() ?? "";
      for (const line of complete) {
        lines.push(line);
        const logged = logLine(line);
        if (logged?.msg === "serving" && typeof logged.url === "string") resolve(logged.url);
      }
    });
    child.once("exit", (code) =>
      reject(new Error(`the relay exited (${code}) before listening:\n${stderr}`)),
    );
  });
  return { child, url };
}

/** A JSON log line of the relay, or undefined for any other line (a message the console transport printed). */
function logLine(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith("{")) return undefined;
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** `formletter token mint …`, with the secret in the environment. */
async function mint(args: readonly string[]): Promise<string> {
  const [command, argv] = node(entry, ["token", "mint", ...args]);
  const { stdout } = await run(command, argv, { cwd: root, env: { ...base, ...secrets } });
  return stdout.trim();
}

/** Runs one agent process with nothing but the relay's URL and a task token. */
async function agent(url: string, token: string, output: unknown): Promise<string> {
  const [command, argv] = node("examples/relay/agent.ts", [JSON.stringify(output)]);
  const env = { ...base, FORMLETTER_RELAY_URL: url, FORMLETTER_TASK_TOKEN: token };
  const result = await run(command, argv, { cwd: root, env }).catch((error: { stdout?: string }) => error);
  return (result.stdout ?? "").trimEnd();
}

async function main(): Promise<void> {
  // A fresh database each run, so the queue shown is this run's.
  for (const file of [database, `${database}-wal`, `${database}-shm`]) rmSync(file, { force: true });
  const relayLines: string[] = [];
  const { child, url } = await startRelay(relayLines);
  try {
    console.log(`relay listening on ${url} (secrets, records and transports live in that process only)\n`);
    const tickets = pickTickets();
    const tokens = await Promise.all(
      tickets.map((ticket) =>
        mint(["--ticket", ticket.ticketId, "--run", `run-${ticket.ticketId}`, "--ttl", "10m"]),
      ),
    );
    const reports = await Promise.all(
      tickets.map((ticket, index) => agent(url, tokens[index] ?? "", ticket.output)),
    );
    tickets.forEach((ticket, index) => {
      console.log(
        `agent for ${ticket.ticketId} [${ticket.tags?.category ?? "-"}], holding only its task token:`,
      );
      console.log(`${(reports[index] ?? "").replace(/^/gm, "  ")}\n`);
    });

    // A token signed with any other key is refused before anything is read or decided.
    const forged = await agent(url, `${(tokens[0] ?? "").slice(0, -4)}AAAA`, tickets[0]?.output);
    console.log(`agent with a forged token:\n${forged.replace(/^/gm, "  ")}\n`);

    const operator = await mint(["--operator", "ana@example.com", "--ttl", "1h"]);
    const queue = (await (
      await fetch(`${url}/v1/queue`, { headers: { authorization: `Bearer ${operator}` } })
    ).json()) as {
      items: { id: string; reason: string; ticketId: string }[];
    };
    console.log(`operator ana@example.com, open queue: ${queue.items.length} item(s)`);
    for (const item of queue.items) console.log(`  #${item.id} ${item.ticketId} ${item.reason}`);
    const metrics = await (await fetch(`${url}/metrics`)).text();
    console.log("\nrelay metrics (decisions and refusals):");
    for (const line of metrics.split("\n")) {
      if (/^formletter_relay_(decisions|refusals)_total\{/.test(line)) console.log(`  ${line}`);
    }
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
  }
  console.log("\nwhat the relay printed (its console transport delivers by printing):");
  for (const line of relayLines) {
    // Its log lines are JSON (for a log collector); shown here as the message and its fields.
    const logged = logLine(line);
    if (logged === undefined) console.log(`  relay │ ${line}`);
    else {
      const {
        msg,
        level: _level,
        time: _time,
        pid: _pid,
        hostname: _hostname,
        name: _name,
        ...fields
      } = logged;
      const shown = Object.entries(fields).map(([key, value]) => `${key}=${String(value)}`);
      console.log(`  relay │ ${[msg, ...shown].join(" ")}`);
    }
  }
}

try {
  await main();
} catch (error) {
  console.error(`relay example failed: ${(error as Error).message}`);
  process.exitCode = 1;
}
