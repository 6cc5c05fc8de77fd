/**
 * @module formletter/cli: the `formletter` command.
 */
import { runCli } from "./program.js";

const code = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  progress: process.stderr,
});
process.exitCode = code;
