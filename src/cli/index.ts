/**
 * @module formletter/cli: the `formletter` command.
 */
import { closedOutputStatus, processIo } from "./output.js";
import { runCli } from "./program.js";

const output = processIo();
const code = await runCli(process.argv.slice(2), output.io);
process.exitCode = code;
// Read at exit, not here: on a platform where pipes are written asynchronously, EPIPE can arrive after
// the command returned. A command that did its work but whose reader left early says so as Unix tools
// do; a failure's own status is kept, since it says more.
process.once("exit", () => {
  if (process.exitCode === 0 && output.closed()) process.exitCode = closedOutputStatus;
});
