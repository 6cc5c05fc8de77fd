import type { CliIo } from "../../src/cli/output.js";
import { runCli } from "../../src/cli/program.js";

/** Runs the command line in-process, collecting what it writes. */
export async function cli(argv: readonly string[], extra: Partial<CliIo> = {}) {
  let stdout = "";
  let stderr = "";
  const code = await runCli(argv, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    ...extra,
  });
  return { code, stdout, stderr };
}
