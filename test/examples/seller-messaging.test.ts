import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

let directory: string;
let stdout: string;

// `npm run demo`, run in a folder of its own: the demo writes .formletter/ where it runs, and the
// checkout's own demo database is not the test's to replace.
beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), "formletter-demo-"));
  ({ stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", tsx, join(root, "examples/seller-messaging.ts")],
    { cwd: directory, env: { ...process.env, TSX_TSCONFIG_PATH: join(root, "tsconfig.json") } },
  ));
}, 120_000);
afterAll(() => rmSync(directory, { recursive: true, force: true }));

// A row of the table: a ticket and its outcome, or a line of the history file that was skipped.
const row = /^(\S+ +(send|dup|escalate) |line \d+: skipped, )/;

describe("examples/seller-messaging.ts (npm run demo)", () => {
  it("prints the table whole: every row follows the header with nothing between them", () => {
    const lines = stdout.split("\n");
    const header = lines.findIndex((line) => /^ticket +outcome +template \/ reason/.test(line));
    expect(header).toBeGreaterThanOrEqual(0);
    const after = lines.slice(header + 1);
    const end = after.findIndex((line) => !row.test(line));
    const contiguous = end === -1 ? after.length : end;
    const summary = /^decided (\d+) · .* malformed lines (\d+)$/m.exec(stdout);
    expect(summary).not.toBeNull();
    const [, decided, malformed] = summary ?? [];
    expect(contiguous).toBe(Number(decided) + Number(malformed));
    expect(lines.filter((line) => row.test(line))).toHaveLength(contiguous);
  });

  it("shows the first delivered message once, after the table", () => {
    const heading = "The first message delivered, exactly as it went out:";
    const lines = stdout.split("\n");
    expect(lines.filter((line) => line === heading)).toHaveLength(1);
    expect(lines.indexOf(heading)).toBeGreaterThan(lines.findLastIndex((line) => row.test(line)));
  });
});
