import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { cli } from "../cli/run.js";
import { reviewCatalogModule } from "../fixtures/review-catalogs.js";
import { historyLines, ReviewWorkspace } from "./review-workspace.js";

const workflow = fileURLToPath(new URL("../../examples/ci/template-review.yml", import.meta.url));
const validator = fileURLToPath(new URL("../../node_modules/.bin/action-validator", import.meta.url));
const space = new ReviewWorkspace();
afterAll(() => space.remove());

/** Runs action-validator (the @action-validator/cli dev dependency) on a workflow file. */
function validate(file: string): Promise<{ status: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [validator, file], { stdio: ["ignore", "pipe", "ignore"] });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout }));
  });
}

describe("examples/ci/template-review.yml", () => {
  it("is a valid workflow to action-validator, which refuses a broken one", async () => {
    const broken = join(space.directory, "broken.yml");
    writeFileSync(
      broken,
      readFileSync(workflow, "utf8").replace("runs-on: ubuntu-latest", "runs_on: ubuntu-latest"),
    );
    // Two processes of their own: both run at once.
    const [run, refused] = await Promise.all([validate(workflow), validate(broken)]);
    expect(run.status, run.stdout).toBe(0);
    expect(refused.status).not.toBe(0);
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

/**
 * The workflow's `formletter diff` command as its script writes it, its variables filled in: the words
 * from `diff` to the redirection of its output, quotes taken off.
 */
function workflowCommand(variables: Readonly<Record<string, string>>): string[] {
  const text = readFileSync(workflow, "utf8").replace(/\\\n/g, " ");
  const line = /npx formletter (diff [^\n>]*)>/.exec(text)?.[1];
  if (line === undefined) throw new Error("the workflow runs no formletter diff");
  return line
    .trim()
    .split(/\s+/)
    .map((word) =>
      word.replace(/^"|"$/g, "").replace(/\$\{(\w+)\}/g, (_, name: string) => {
        const value = variables[name];
        if (value === undefined) throw new Error(`the workflow's command reads \${${name}}`);
        return value;
      }),
    );
}

/** Runs `run` with the working folder set to `directory`, as the workflow's job runs in its checkout. */
async function inFolder<T>(directory: string, run: () => Promise<T>): Promise<T> {
  const before = process.cwd();
  process.chdir(directory);
  try {
    return await run();
  } finally {
    process.chdir(before);
  }
}

describe("the workflow's command on a repository's own history", () => {
  const library = fileURLToPath(new URL("../../src/index.ts", import.meta.url));
  const zod = createRequire(import.meta.url).resolve("zod");
  const repo = join(space.directory, "repo");
  const git = (...args: string[]) =>
    execFileSync("git", args, {
      cwd: repo,
      encoding: "utf8",
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1" },
    });
  /**
   * Two commits of a repository that holds its own copy of the library, as this one does: its tsconfig
   * maps `formletter` to `vendor/formletter.ts`. At the base commit that copy is stale (here: it throws
   * when loaded), so a base read from git must be built with the running library, never the commit's.
   * The head removes the refund's approval through its spread.
   */
  function twoCommits(): void {
    mkdirSync(join(repo, "templates"), { recursive: true });
    mkdirSync(join(repo, "vendor"), { recursive: true });
    mkdirSync(join(repo, "examples", "data"), { recursive: true });
    git("init", "-q", "-b", "main");
    git("config", "user.email", "review@example.com");
    git("config", "user.name", "review");
    writeFileSync(
      join(repo, "tsconfig.json"),
      `{ // as a repository holding the library maps its own name
  "compilerOptions": { "paths": { "formletter": ["./vendor/formletter.ts"], }, },
}
`,
    );
    writeFileSync(
      join(repo, "vendor", "formletter.ts"),
      'throw new Error("the stale copy of the library at the base commit was loaded");\n',
    );
    writeFileSync(join(repo, "templates", "seller.ts"), reviewCatalogModule("formletter", zod));
    git("add", ".");
    git("commit", "-q", "-m", "base");
    writeFileSync(join(repo, "vendor", "formletter.ts"), `export * from ${JSON.stringify(library)};\n`);
    writeFileSync(
      join(repo, "templates", "seller.ts"),
      reviewCatalogModule("formletter", zod, { refundSpread: `{ effect: "reversible" }` }),
    );
    git("commit", "-q", "-am", "head");
  }

  it("names the approval removed and the effect lowered, lists the refunds' changed messages, and fails", async () => {
    twoCommits();
    const { catalog } = await space.catalog();
    const history = space.lines("tickets.jsonl", historyLines(catalog, 12));
    execFileSync("cp", [history, join(repo, "examples", "data", "tickets.jsonl")]);
    const variables = {
      BASE_SHA: git("rev-parse", "HEAD~1").trim(),
      CATALOG: "templates/seller.ts",
      HISTORY: "examples/data/tickets.jsonl",
    };
    const command = workflowCommand(variables);
    expect(command).toContain("--md");
    const run = await inFolder(repo, () => cli(command));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("review items named by --fail-on: approval-removed (1), effect-lowered (1)");
    const items = run.stdout.split("\n").filter((line) => line.startsWith("- `"));
    expect(items.map((line) => /^- `([a-z-]+)` \*\*([^*]+)\*\*/.exec(line)?.slice(1))).toEqual([
      ["effect-lowered", "refund\\_order"],
      ["approval-removed", "refund\\_order"],
    ]);
    expect(run.stdout).toContain("templates: 0 added, 0 removed, 1 changed, 1 unchanged");
    // Every fourth line proposes the refund: a draft waiting for approval before, sent now.
    expect(run.stdout).toContain(
      "messages over the history: 12 proposals: 9 unchanged, 3 changed, 0 recipient changed, 0 newly sent, 0 newly escalated",
    );
    expect(run.stdout).toContain("| changed | refund\\_order |");
  }, 120_000);
});
