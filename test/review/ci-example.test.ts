import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { cli } from "../cli/run.js";
import { ReviewWorkspace } from "./review-workspace.js";

const workflow = fileURLToPath(new URL("../../examples/ci/template-review.yml", import.meta.url));
const validator = fileURLToPath(new URL("../../node_modules/.bin/action-validator", import.meta.url));
const space = new ReviewWorkspace();
afterAll(() => space.remove());

/** Runs action-validator (the @action-validator/cli dev dependency) on a workflow file. */
function validate(file: string) {
  return spawnSync(process.execPath, [validator, file], { encoding: "utf8" });
}

describe("examples/ci/template-review.yml", () => {
  it("is a valid workflow to action-validator, which refuses a broken one", () => {
    const run = validate(workflow);
    expect(run.status, run.stdout).toBe(0);
    const broken = join(space.directory, "broken.yml");
    writeFileSync(
      broken,
      readFileSync(workflow, "utf8").replace("runs-on: ubuntu-latest", "runs_on: ubuntu-latest"),
    );
    expect(validate(broken).status).not.toBe(0);
  });

  it("passes no pull request value into a script but through the environment, and never runs on pull_request_target", () => {
    const text = readFileSync(workflow, "utf8");
    const scripts = text.split(/\n\s+run: \|\n/).slice(1);
    expect(scripts.length).toBeGreaterThan(1);
    for (const script of scripts) expect(script.split(/\n\s+- /)[0]).not.toContain("${{");
    expect(text).not.toMatch(/^\s*pull_request_target:/m);
  });

  it("runs its command on this repository's seller catalog and bundled history: the same catalog reports nothing", async () => {
    const run = await cli([
      "diff",
      "--base",
      "git:HEAD:templates/seller.ts",
      "--head",
      "git:HEAD:templates/seller.ts",
      "--history",
      "examples/data/tickets.jsonl",
      "--md",
      "--max-messages",
      "10",
      "--fail-on",
      "widened-reading,recipient-change,approval-removed,effect-lowered,rate-up:2",
    ]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("No review items.");
    expect(run.stdout).toMatch(
      /messages over the history: \d+ proposals: (\d+) unchanged, 0 changed, 0 recipient changed, 0 newly sent, 0 newly escalated/,
    );
    expect(run.stdout).toContain("no change");
  }, 120_000);
});
