/**
 * The program lists its commands from src/cli/commands.ts without loading them: each entry must say
 * what its command's own definition declares, and a run must load the definition of the command it runs
 * only.
 */
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { commandNamed, commands } from "../../src/cli/commands.js";
import type { CliIo } from "../../src/cli/output.js";
import { createProgram } from "../../src/cli/program.js";
import { cli } from "./run.js";

const io: CliIo = { stdout: () => undefined, stderr: () => undefined };

const operandsOf = (command: Command) =>
  command.registeredArguments
    .map((argument) => {
      const name = `${argument.name()}${argument.variadic ? "..." : ""}`;
      return argument.required ? `<${name}>` : `[${name}]`;
    })
    .join(" ");

describe("the list of commands", () => {
  it.each(commands.map((entry) => [entry.name, entry] as const))(
    "%s: its definition declares the name and operands listed, and only that command",
    async (_, entry) => {
      const program = new Command("formletter");
      (await entry.load())(program, io);
      expect(program.commands.map((command) => command.name())).toEqual([entry.name]);
      const [defined] = program.commands as [Command];
      expect(operandsOf(defined)).toBe(entry.operands);
      expect(entry.summary).not.toMatch(/\n/);
    },
  );

  it("names each command once", () => {
    const names = commands.map((entry) => entry.name);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe("which command a command line runs", () => {
  it.each([
    [["replay", "catalog.ts", "history.jsonl"], "replay"],
    [["queue", "list", "--db", "x.db"], "queue"],
    [["help", "mine"], "mine"],
    [["-h", "serve"], "serve"],
    [["--", "check", "c.ts"], "check"],
    [["--version"], undefined],
    [["--help"], undefined],
    [["help"], undefined],
    [[], undefined],
    [["replya"], undefined],
    [["__proto__"], undefined],
    [["constructor"], undefined],
  ])("%j runs %s", (argv, name) => {
    expect(commandNamed(argv)?.name).toBe(name);
  });

  it("loads no command's definition for --help, and lists every command with its summary", async () => {
    const program = await createProgram(io, ["--help"]);
    // A listed command that was not loaded has no options, no sub-commands and no description of its own.
    for (const command of program.commands) {
      expect(command.options).toEqual([]);
      expect(command.commands).toEqual([]);
      expect(command.description()).toBe("");
    }
    const help = await cli(["--help"]);
    expect(help.code).toBe(0);
    for (const entry of commands)
      expect(help.stdout).toMatch(new RegExp(`\\n  ${entry.name}\\b[^\\n]*${entry.summary.split(" ")[0]}`));
  });

  it("loads the definition of the command run, so its own help and options work", async () => {
    const program = await createProgram(io, ["replay", "--help"]);
    const replay = program.commands.find((command) => command.name() === "replay");
    expect(replay?.options.map((option) => option.long)).toContain("--export");
    const others = program.commands.filter((command) => command.name() !== "replay");
    expect(others.every((command) => command.options.length === 0)).toBe(true);
    const help = await cli(["help", "replay"]);
    expect(help.stdout).toContain("--export <name>");
    expect((await cli(["queue", "--help"])).stdout).toContain("list");
  });

  it("refuses an unknown command with the nearest name, as before", async () => {
    const result = await cli(["replya"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("unknown command 'replya'");
    expect(result.stderr).toContain("replay");
  });
});
