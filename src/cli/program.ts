import { createRequire } from "node:module";
import { Command, CommanderError } from "commander";
import { isFormletterError } from "../core/errors.js";
import { registerCapacityCommand } from "./capacity.js";
import { registerCheckCommand } from "./check.js";
import { registerChecklistCommand } from "./checklist.js";
import { registerCostCommand } from "./cost.js";
import { registerDiffCommand } from "./diff.js";
import { registerMcpCommand } from "./mcp.js";
import { registerMineCommand } from "./mine.js";
import type { CliIo } from "./output.js";
import { CliError, closedOutputStatus, terminalSafe } from "./output.js";
import { registerPreviewCommand } from "./preview.js";
import { registerQueueCommands } from "./queue.js";
import { registerReplayCommand } from "./replay.js";
import { registerReportCommand } from "./report.js";
import { registerServeCommand } from "./serve.js";
import { registerTokenCommand } from "./token.js";

/**
 * The `formletter` program: every command, writing through `io` (already made terminal-safe). Exported
 * so tests can walk the commands it defines.
 */
export function createProgram(io: CliIo): Command {
  const program = new Command("formletter")
    .description("formletter: templates in code, a model that only chooses, and a human queue")
    .version(packageVersion(), "-v, --version")
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .addHelpText(
      "after",
      `\nExit status: 0 done, 1 refused or misused, 2 unexpected error, ${closedOutputStatus} the reader closed the output early (as \`| head\`; 128 + SIGPIPE).`,
    );
  registerQueueCommands(program, io);
  registerReplayCommand(program, io);
  registerReportCommand(program, io);
  registerCapacityCommand(program, io);
  registerCostCommand(program, io);
  registerCheckCommand(program, io);
  registerChecklistCommand(program, io);
  registerServeCommand(program, io);
  registerMcpCommand(program, io);
  registerTokenCommand(program, io);
  registerMineCommand(program, io);
  registerPreviewCommand(program, io);
  registerDiffCommand(program, io);
  return program;
}

/**
 * Runs the `formletter` command line with `argv` (without node and the script) and returns the exit
 * code. Usage mistakes and refused actions are one line on stderr and exit code 1, never a stack trace.
 * What happens when a reader closes the output is the caller's: see `processIo` in output.ts.
 */
export async function runCli(argv: readonly string[], given: CliIo): Promise<number> {
  const io = terminalSafe(given);
  const program = createProgram(io);
  try {
    await program.parseAsync([...argv], { from: "user" });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 1;
    if (error instanceof CliError || isFormletterError(error)) {
      io.stderr(`formletter: ${(error as Error).message}\n`);
      return 1;
    }
    io.stderr(`formletter: unexpected error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
}

/** The installed package's version: src/cli and dist/cli both sit two folders below package.json. */
function packageVersion(): string {
  try {
    return (createRequire(import.meta.url)("../../package.json") as { version: string }).version;
  } catch {
    return "unknown";
  }
}
