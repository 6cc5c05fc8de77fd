import { createRequire } from "node:module";
import { Command, CommanderError } from "commander";
import { isFormletterError } from "../core/errors.js";
import { commandNamed, commands } from "./commands.js";
import type { CliIo } from "./output.js";
import { CliError, closedOutputStatus, terminalSafe } from "./output.js";

/**
 * The `formletter` program, writing through `io` (already made terminal-safe). Given the `argv` it is
 * to run, it loads the definition of the one command `argv` names and lists the others by their
 * summary, so a start loads no command's dependencies but those of the command it runs; without
 * `argv`, it loads every command (tests walk the commands it defines).
 */
export async function createProgram(io: CliIo, argv?: readonly string[]): Promise<Command> {
  const program = new Command("formletter")
    .description("formletter: templates in code, a model that only chooses, and a human queue")
    .version(packageVersion(), "-v, --version")
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .addHelpText(
      "after",
      `\nExit status: 0 done, 1 refused or misused, 2 unexpected error, ${closedOutputStatus} the reader closed the output early (as \`| head\`; 128 + SIGPIPE).`,
    );
  const wanted = argv === undefined ? undefined : commandNamed(argv);
  for (const entry of commands) {
    if (argv === undefined || entry === wanted) (await entry.load())(program, io);
    else program.command(`${entry.name} ${entry.operands}`.trim()).summary(entry.summary);
  }
  return program;
}

/**
 * Runs the `formletter` command line with `argv` (without node and the script) and returns the exit
 * code. Usage mistakes and refused actions are one line on stderr and exit code 1, never a stack trace.
 * What happens when a reader closes the output is the caller's: see `processIo` in output.ts.
 */
export async function runCli(argv: readonly string[], given: CliIo): Promise<number> {
  const io = terminalSafe(given);
  try {
    const program = await createProgram(io, argv);
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
