/**
 * examples/agents-openai.ts runs offline and shows its three scenes: a send, a refund that waits for a
 * person and is sent once after the saved run resumes in a new process, and an escalation with its hint.
 */
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

it("examples/agents-openai.ts prints the three scenes, with one delivery of the approved refund", async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", tsx, join(root, "examples/agents-openai.ts")],
    { cwd: root, env: { ...process.env, TSX_TSCONFIG_PATH: join(root, "tsconfig.json") } },
  );
  const lines = stdout.trim().split("\n");
  expect(lines[0]).toMatch(/^1\. send +→ \(the tool said\) Sent: the tracking_request message was sent\./);
  expect(lines[1]).toMatch(
    /^2\. approval +→ queue item \S+, to help@pixelharbor\.example: Refund request for order 4504-6726$/,
  );
  expect(lines[2]).toMatch(/resumed +→ \(the tool said\) Sent: the refund_request message/);
  expect(lines[3]).toMatch(/delivered → \[ 'Refund request for order 4504-6726' \]$/);
  expect(lines[4]).toMatch(
    /^3\. escalate +→ .*Escalated \(slot_rejected\) \(slot order\): .*takes one of: o-[0-9a-z]+$/,
  );
}, 120_000);
