import type { Command } from "commander";
import type { CliIo } from "./output.js";

/** Adds one command, with its options, sub-commands and action, to the program. */
export type RegisterCommand = (program: Command, io: CliIo) => void;

/**
 * One command of the `formletter` program: what the program's own help lists for it, and how to load
 * its definition. A command's module imports what its action needs (the relay's server, the SQLite
 * store, the miner…), so the program loads only the module of the command it runs: `--version` and
 * `--help` load none.
 */
export interface CommandEntry {
  readonly name: string;
  /** Its operands as its definition declares them, e.g. `<catalog> <history>`; empty when it has none. */
  readonly operands: string;
  /** One line for the program's list of commands; the command's own help gives its full description. */
  readonly summary: string;
  readonly load: () => Promise<RegisterCommand>;
}

/** Every command, in the order the program's help lists them. */
export const commands: readonly CommandEntry[] = [
  {
    name: "queue",
    operands: "",
    summary: "the human queue of an outbox database",
    load: async () => (await import("./queue.js")).registerQueueCommands,
  },
  {
    name: "suppression",
    operands: "",
    summary: "destinations suppressed by a hard bounce or a complaint: list them, lift one (audited)",
    load: async () => (await import("./suppression.js")).registerSuppressionCommands,
  },
  {
    name: "replay",
    operands: "<catalog> <history>",
    summary: "the escalation rate a catalog would have had on a history file; nothing is sent",
    load: async () => (await import("./replay.js")).registerReplayCommand,
  },
  {
    name: "report",
    operands: "",
    summary: "the escalation report of an outbox's audit log (SQLite)",
    load: async () => (await import("./report.js")).registerReportCommand,
  },
  {
    name: "capacity",
    operands: "<catalog>",
    summary: "what a steered model could encode through the catalog, per message, ticket and day",
    load: async () => (await import("./capacity.js")).registerCapacityCommand,
  },
  {
    name: "cost",
    operands: "<catalog>",
    summary: "prompt tokens per ticket and per day, for each cache mode",
    load: async () => (await import("./cost.js")).registerCostCommand,
  },
  {
    name: "check",
    operands: "<catalog>",
    summary: "load the catalog, running every definition-time check, and print what it defines",
    load: async () => (await import("./check.js")).registerCheckCommand,
  },
  {
    name: "checklist",
    operands: "",
    summary: "the pre-launch checklist, computed from the catalog and a sample ticket",
    load: async () => (await import("./checklist.js")).registerChecklistCommand,
  },
  {
    name: "serve",
    operands: "",
    summary: "run the relay: the outbox as an HTTP service for agents holding task tokens",
    load: async () => (await import("./serve.js")).registerServeCommand,
  },
  {
    name: "mcp",
    operands: "",
    summary: "serve one ticket's tools over MCP on stdio, for local agents and desktop clients",
    load: async () => (await import("./mcp.js")).registerMcpCommand,
  },
  {
    name: "token",
    operands: "",
    summary: "tokens for the relay (formletter serve)",
    load: async () => (await import("./token.js")).registerTokenCommand,
  },
  {
    name: "mine",
    operands: "[history]",
    summary: "mine a history of free-text messages into candidate templates and their coverage",
    load: async () => (await import("./mine.js")).registerMineCommand,
  },
  {
    name: "preview",
    operands: "",
    summary: "every message the catalog can send for sample tickets, as a local page or static files",
    load: async () => (await import("./preview.js")).registerPreviewCommand,
  },
  {
    name: "export",
    operands: "",
    summary: "the catalog's WhatsApp templates as Meta's and Twilio's template JSON, for approval",
    load: async () => (await import("./export-whatsapp.js")).registerExportCommand,
  },
  {
    name: "diff",
    operands: "",
    summary: "compare two catalogs: templates changed, review items, capacity and escalation rates",
    load: async () => (await import("./diff.js")).registerDiffCommand,
  },
];

/**
 * The command `argv` runs, if it names one: the first operand (the program's own options, `--version`
 * and `--help`, take no value), or the one after `help`.
 */
export function commandNamed(argv: readonly string[]): CommandEntry | undefined {
  const operands = argv.filter((argument) => !argument.startsWith("-"));
  const name = operands[0] === "help" ? operands[1] : operands[0];
  return commands.find((entry) => entry.name === name);
}
