/**
 * scripts/check-spreads.ts, run on a tree of the test's making: it names every object literal that
 * starts with a spread and goes on, wherever it sits, and passes the forms that cost nothing.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const script = join(import.meta.dirname, "../../scripts/check-spreads.ts");
const tsx = join(import.meta.dirname, "../../node_modules/.bin/tsx");

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function check(files: Record<string, string>) {
  dir = mkdtempSync(join(tmpdir(), "formletter-spreads-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  const run = spawnSync(tsx, [script, dir], { encoding: "utf8" });
  // Each finding as "path:line", the path within the test's tree.
  const within = `${basename(dir)}/`;
  const found = run.stdout.split("\n").filter((line) => line.includes(within));
  return { status: run.status, lines: found.map((line) => line.split(within)[1]?.split(": ")[0]) };
}

describe("check-spreads", () => {
  it("names each literal that starts with a spread and goes on, nested or not, and fails", () => {
    const { status, lines } = check({
      "a.ts": [
        "const a = { ...base, id: 1 };",
        "const b = f({ ...x, ...y });",
        "const c = { kept: 1, inner: { ...row, [key]: 2 } };",
        "const d = { ...(flag ? { x } : {}), method() { return 1; } };",
      ].join("\n"),
      "deep/b.ts": "export const e = () => ({\n  ...base,\n  y,\n});\n",
    });
    expect(status).toBe(1);
    expect(lines).toEqual(["a.ts:1", "a.ts:2", "a.ts:3", "a.ts:4", "deep/b.ts:1"]);
  });

  it("passes a spread alone, a spread after a plain property, merged(), and a type's spread-free shape", () => {
    const { status, lines } = check({
      "ok.ts": [
        "const a = { ...base };",
        "const b = { id: 1, ...base, more: 2 };",
        "const c = merged(base, { id: 1 });",
        "const { x, ...rest } = value;",
        "const d = [...list, 1];",
        "type T = { a: string };",
      ].join("\n"),
    });
    expect(lines).toEqual([]);
    expect(status).toBe(0);
  });
});
