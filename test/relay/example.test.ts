import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));

describe("examples/relay/run.ts", () => {
  it("starts formletter serve, mints tokens, and agents holding only a token propose through it", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "examples/relay/run.ts"],
      {
        cwd: root,
        timeout: 90_000,
      },
    );
    expect(stdout).toMatch(/^relay listening on http:\/\/127\.0\.0\.1:\d+ /);
    const agents = stdout.split("\nagent for ").slice(1, 5);
    expect(agents).toHaveLength(4);
    const [first, second, hostile, alsoHostile] = agents as [string, string, string, string];
    expect(`${first}${second}`).toContain("proposal: send");
    for (const attack of [hostile, alsoHostile]) {
      expect(attack).toContain("[hostile:");
      expect(attack).toMatch(/proposal: escalate \(\w+\)/);
    }
    for (const block of agents) {
      expect(block).toMatch(/prompt: \d+ choosable records; tools \(openai\): \d+/);
      expect(block).toContain("another ticket: 403 ticket_mismatch");
    }
    expect(stdout).toContain("agent with a forged token:\n  refused: 401 token_invalid");
    expect(stdout).toMatch(/operator ana@example\.com, open queue: 2 item\(s\)/);
    expect(stdout).toMatch(/formletter_relay_refusals_total\{refusal="ticket_mismatch"\} 4/);
    // Delivered messages are printed by the relay process, the only one that resolves recipients.
    expect(stdout).toMatch(/relay │ to: +\S+@\S+/);
    expect(stdout).toContain("relay │ stopping");
    expect(stdout).toMatch(
      /relay │ request method=POST route=\/v1\/proposals status=200 durationMs=[\d.]+ ticketId=/,
    );
  }, 120_000);
});
