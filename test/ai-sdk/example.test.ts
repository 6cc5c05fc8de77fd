import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));

describe("examples/agents-ai-sdk.ts", () => {
  it("plays the three scenes: a send, a refund a person approves through the outbox, an escalation with its hint", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "examples/agents-ai-sdk.ts"],
      { cwd: root, timeout: 90_000 },
    );
    expect(stdout).toContain("1. send      → (the tool said) Sent: the tracking_request message was sent.");
    expect(stdout).toMatch(
      /2\. approval {2}→ queue item \S+, to help@pixelharbor\.example: Refund request for order 4504-6726/,
    );
    expect(stdout).toContain("resumed   → (the tool said) Sent: the refund_request message was sent.");
    expect(stdout).toMatch(
      /delivered → \[\s*'Tracking requested for order 4504-6726',\s*'Refund request for order 4504-6726'\s*\]/,
    );
    expect(stdout).toMatch(
      /3\. escalate {2}→ \(the tool said\) Escalated \(slot_rejected\) \(slot order\): nothing was sent;.* takes one of: o-\w+/,
    );
  }, 120_000);
});
