import { randomUUID } from "node:crypto";
import type { Command } from "commander";
import type { AgentToolsOptions } from "../agent-tools/index.js";
import { serveStdio } from "../mcp/stdio.js";
import { createOutbox, type Outbox } from "../outbox/index.js";
import { createRelayClient } from "../relay/client.js";
import type { RelayModule } from "../relay/module.js";
import { sqliteStore } from "../store/sqlite/index.js";
import { importModule, loadCatalog } from "./load-catalog.js";
import type { CliIo } from "./output.js";
import { CliError, terminalSafe } from "./output.js";
import { loadRelayModule, transportsFromEnv } from "./serve.js";
import { secretFromEnv } from "./token.js";

/** What `formletter mcp` was asked for: an outbox of its own, or a relay to forward to. */
interface McpOptions {
  readonly catalog?: string;
  readonly records?: string;
  readonly db?: string;
  readonly ticket?: string;
  readonly run?: string;
  readonly shadow?: boolean;
  readonly flushEvery: string;
  readonly relay?: string;
}

/** A records loader from `--records MODULE`: its `load` export, or its default export's. */
async function loadRecordsModule(file: string): Promise<(ticketId: string) => unknown> {
  const { module } = await importModule(file);
  const load = typeof module.load === "function" ? module.load : (module.default as { load?: unknown })?.load;
  if (typeof load !== "function") throw new CliError(`${file} exports no load(ticketId) function`);
  return load as (ticketId: string) => unknown;
}

/** Runs until standard input closes or a signal comes: standard output carries the protocol alone. */
async function run(options: McpOptions, io: CliIo, env: NodeJS.ProcessEnv, signal: AbortSignal) {
  if (options.relay !== undefined) {
    if (options.catalog !== undefined || options.db !== undefined || options.ticket !== undefined)
      throw new CliError(
        "--relay forwards to a relay with the task token in FORMLETTER_TASK_TOKEN: give it alone, not with --catalog, --db or --ticket",
      );
    // The token comes from the environment, never a flag, which would leave it in shell history and `ps`.
    const token = secretFromEnv(env, "FORMLETTER_TASK_TOKEN");
    try {
      return await serveStdio({ relay: createRelayClient({ url: options.relay, token }) }, { signal });
    } catch (error) {
      throw error instanceof Error && !(error instanceof CliError) ? new CliError(error.message) : error;
    }
  }
  const { catalog, db, ticket } = options;
  if (catalog === undefined || db === undefined || ticket === undefined)
    throw new CliError(
      "give --catalog MODULE --db FILE --ticket ID (an outbox of its own), or --relay URL with FORMLETTER_TASK_TOKEN set",
    );
  const flushEvery = Number(options.flushEvery);
  if (!Number.isFinite(flushEvery) || flushEvery < 1)
    throw new CliError("--flush-every: give seconds, at least 1");
  // With --records the catalog module need not export a loader: the records module gives it.
  const module: RelayModule =
    options.records === undefined
      ? await loadRelayModule(catalog)
      : { catalog: (await loadCatalog(catalog)).catalog, load: await loadRecordsModule(options.records) };
  const { load } = module;
  // Stdout is the protocol: a message printed for want of a transport goes to stderr.
  const quiet = terminalSafe({ stdout: io.stderr, stderr: io.stderr });
  const channels = new Set(module.catalog.templates.map((template) => template.channel));
  const { transports } = options.shadow ? { transports: {} } : await transportsFromEnv(env, channels, quiet);
  const outbox: Outbox = createOutbox({
    catalog: module.catalog,
    load,
    store: sqliteStore(db),
    transports,
    mode: options.shadow ? "shadow" : "live",
    ...(env.FORMLETTER_CONTACT_KEY ? { contactKey: secretFromEnv(env, "FORMLETTER_CONTACT_KEY") } : {}),
  });
  // Approvals given elsewhere (`formletter queue release`) are delivered by this outbox's flush.
  const flush = () => outbox.flush().catch(() => undefined);
  const timer = setInterval(flush, flushEvery * 1000);
  try {
    const tools: AgentToolsOptions = {
      outbox,
      ticketId: ticket,
      runId: options.run ?? `mcp-${randomUUID()}`,
    };
    await flush();
    await serveStdio(tools, { signal });
  } finally {
    clearInterval(timer);
    await outbox.close();
    await module.close?.();
  }
}

/** `formletter mcp --catalog MODULE [--records MODULE] --db FILE --ticket ID`, or `--relay URL` (FORMLETTER_TASK_TOKEN). */
export function registerMcpCommand(program: Command, io: CliIo, env: NodeJS.ProcessEnv = process.env): void {
  program
    .command("mcp")
    .description(
      "serve one ticket's tools over MCP on stdio, for local agents and desktop clients: with an outbox of its own (SQLite), or forwarding to a relay with a task token",
    )
    .option(
      "--catalog <module>",
      "a module exporting `catalog` (and `load(ticketId)` unless --records gives it)",
    )
    .option("--records <module>", "a module exporting `load(ticketId)`, your records loader")
    .option("--db <file>", "the outbox's SQLite file (created if missing)")
    .option("--ticket <id>", "the ticket the tools act for")
    .option("--run <id>", "the agent run, for maxPerRun (default: a new id each start)")
    .option("--shadow", "decide, limit and audit, deliver nothing")
    .option("--flush-every <seconds>", "deliver approved messages this often", "5")
    .option(
      "--relay <url>",
      "forward every call to this relay instead, with the task token in FORMLETTER_TASK_TOKEN",
    )
    .action(async (options: McpOptions) => {
      const stop = new AbortController();
      const onSignal = () => stop.abort();
      process.once("SIGINT", onSignal);
      process.once("SIGTERM", onSignal);
      try {
        await run(options, io, env, stop.signal);
      } finally {
        process.off("SIGINT", onSignal);
        process.off("SIGTERM", onSignal);
      }
    });
}
