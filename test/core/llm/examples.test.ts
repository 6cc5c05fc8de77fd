import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../../", import.meta.url));

/** The environment without any API key, so the examples replay their recorded tool calls. */
function offline(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.OPENAI_API_KEY;
  delete env.ANTHROPIC_API_KEY;
  return env;
}

const expected = [
  /^model: scripted stand-in replaying examples\/data\/recorded-tool-calls\.\w+\.json/m,
  /^T-10001 {2}sent {5}cancellation_request to contact@atelier-lune\.example$/m,
  /^T-10060 {2}sent {5}damage_report to help@pixelharbor\.example \(after slot_rejected\)$/m,
  /^T-10008 {2}queued {3}model_escalated: needs_human$/m,
  /^T-10010 {2}queued {3}approval_required: refund_request$/m,
  /^T-10046 {2}queued {3}model_escalated: suspicious_request$/m,
  /^T-10058 {2}sent {5}replacement_available to orders@nordlicht-home\.example$/m,
  /^3 tickets wait for a person in the queue\.$/m,
];

describe.each(["openai-agent", "anthropic-agent"])("examples/%s.ts runs offline", (name) => {
  it("replays the recorded tool calls end to end and exits 0", { timeout: 60_000 }, async () => {
    // execFile rejects when the process exits with anything but 0.
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", `examples/${name}.ts`], {
      cwd: root,
      env: offline(),
    });
    for (const line of expected) expect(stdout).toMatch(line);
    // The console transport printed the three messages it delivered, with the sellers' addresses.
    expect(stdout.match(/^── console-\d+ /gm)).toHaveLength(3);
    expect(stdout).not.toMatch(/evil\.example/);
    expect(stderr).toBe("");
  });
});
