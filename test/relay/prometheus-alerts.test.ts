import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const folder = fileURLToPath(new URL("../../examples/prometheus/", import.meta.url));
const rules = join(folder, "formletter-alerts.yml");
const unitTests = join(folder, "formletter-alerts.test.yml");

/** promtool on the PATH, or undefined: in CI (CI=true) its absence fails the tests instead of skipping them. */
function findPromtool(): string | undefined {
  for (const directory of (process.env.PATH ?? "").split(delimiter)) {
    const candidate = join(directory, "promtool");
    if (directory !== "" && existsSync(candidate)) return candidate;
  }
  return undefined;
}
const promtool = findPromtool();
const inCi = process.env.CI === "true";

/** Runs promtool; returns its exit code and output instead of throwing. */
function run(args: readonly string[], cwd: string): { code: number; output: string } {
  if (promtool === undefined)
    throw new Error("promtool is not installed: CI installs Debian's prometheus package");
  try {
    const output = execFileSync(promtool, [...args], {
      cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    return { code: 0, output };
  } catch (error) {
    const failed = error as { status?: number; stdout?: string; stderr?: string };
    return { code: failed.status ?? 1, output: `${failed.stdout ?? ""}${failed.stderr ?? ""}` };
  }
}

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "formletter-alerts-"));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("examples/prometheus/formletter-alerts.yml", () => {
  it("reads only the relay's limit, first-contact, decision, delivery-event and queue-age series, and uses each", () => {
    const text = readFileSync(rules, "utf8");
    const expressions = [...text.matchAll(/expr: (\|\n(?: {10}.*\n)+|.*)/g)].map((match) => match[1] ?? "");
    const series = new Set(expressions.flatMap((expr) => expr.match(/formletter_[a-z_]+/g) ?? []));
    expect([...series].sort()).toEqual([
      "formletter_queue_oldest_seconds",
      "formletter_relay_decisions_total",
      "formletter_relay_delivery_events_total",
      "formletter_relay_first_contacts_total",
      "formletter_relay_limit_events_total",
    ]);
    expect(text).toContain('formletter_relay_limit_events_total{limit="template"}');
    expect(text).toContain('formletter_relay_limit_events_total{limit="ceiling"}');
  });

  it.skipIf(promtool === undefined && !inCi)("passes promtool check rules", () => {
    const { code, output } = run(["check", "rules", rules], folder);
    expect(output).toContain("SUCCESS: 7 rules found");
    expect(code).toBe(0);
  });

  it.skipIf(promtool === undefined && !inCi)(
    "passes promtool test rules: every alert fires on its synthetic series and not before",
    () => {
      const text = readFileSync(unitTests, "utf8");
      for (const alert of readFileSync(rules, "utf8").matchAll(/- alert: (\w+)/g)) {
        // Each alert is tested firing (expected alerts) and quiet (exp_alerts: []).
        expect(text).toMatch(new RegExp(`alertname: ${alert[1]}\\n\\s+exp_alerts: \\[\\]`));
        expect(text).toMatch(new RegExp(`alertname: ${alert[1]}\\n\\s+exp_alerts:\\n\\s+- exp_labels:`));
      }
      const { code, output } = run(["test", "rules", unitTests], folder);
      expect(output).toContain("SUCCESS");
      expect(code).toBe(0);
    },
  );

  it.skipIf(promtool === undefined && !inCi)(
    "the unit tests fail when an alert's threshold no longer fires on its series",
    () => {
      copyFileSync(unitTests, join(scratch, "formletter-alerts.test.yml"));
      writeFileSync(
        join(scratch, "formletter-alerts.yml"),
        readFileSync(rules, "utf8").replace(") > 0.5", ") > 0.9"),
      );
      const { code, output } = run(["test", "rules", "formletter-alerts.test.yml"], scratch);
      expect(code).not.toBe(0);
      expect(output).toContain("FormletterEscalationRateHigh");
      writeFileSync(
        join(scratch, "formletter-alerts.yml"),
        readFileSync(rules, "utf8").replace("> 4 * 3600", "> 5 * 3600"),
      );
      const waiting = run(["test", "rules", "formletter-alerts.test.yml"], scratch);
      expect(waiting.code).not.toBe(0);
      expect(waiting.output).toContain("FormletterQueueItemWaitingLong");
      writeFileSync(
        join(scratch, "broken.yml"),
        "groups:\n  - name: x\n    rules:\n      - alert: X\n        expr: sum(\n",
      );
      expect(run(["check", "rules", "broken.yml"], scratch).code).not.toBe(0);
    },
  );
});
