import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { materialiseGitModule } from "../../src/cli/git-module.js";
import { loadCatalog } from "../../src/cli/load-catalog.js";
import { ReviewWorkspace } from "./review-workspace.js";

const space = new ReviewWorkspace();
const repo = join(space.directory, "repo");
const run = (...args: string[]) =>
  execFileSync("git", args, {
    cwd: repo,
    encoding: "utf8",
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1" },
  });

/** Writes the catalog as `catalog/main.ts` re-exporting `catalog/inner.ts`: a relative import to resolve. */
function writeCatalog(noteBody?: string): void {
  const inner = space.module(noteBody === undefined ? {} : { noteBody });
  execFileSync("cp", [inner, join(repo, "catalog", "inner.ts")]);
  writeFileSync(join(repo, "catalog", "main.ts"), 'export { catalog } from "./inner.ts";\n');
  writeFileSync(join(repo, "catalog", "aliased.ts"), 'export { catalog } from "@catalog/inner.ts";\n');
  writeFileSync(
    join(repo, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { paths: { "@catalog/*": ["./catalog/*"] } } }),
  );
}

beforeAll(() => {
  mkdirSync(join(repo, "catalog"), { recursive: true });
  run("init", "-q", "-b", "main");
  run("config", "user.email", "review@example.com");
  run("config", "user.name", "review");
  writeCatalog();
  symlinkSync("/etc/hostname", join(repo, "catalog", "outside.ts"));
  run("add", ".");
  run("commit", "-q", "-m", "base");
  writeCatalog("Order {{order.number}} comes to {{order.total}}, paid {{order.amount}}.");
  run("commit", "-q", "-am", "head");
}, 30_000);
afterAll(() => space.remove());

describe("git:REF:path", () => {
  it("loads the module as it was at REF, its relative imports from that commit's tree, and removes the copy", async () => {
    const module = await materialiseGitModule("git:main~1:catalog/main.ts", repo);
    const then = await loadCatalog(module.file);
    const now = await loadCatalog(join(repo, "catalog", "main.ts"));
    expect(module.commit).toBe(run("rev-parse", "main~1").trim());
    expect(then.catalog.version).not.toBe(now.catalog.version);
    const note = then.catalog.templates.find((template) => template.id === "order_note");
    expect(note?.source.body).toContain("totals");
    module.dispose();
    expect(existsSync(module.file)).toBe(false);
  });

  it("resolves the commit's own path aliases to the commit's files, not today's", async () => {
    const module = await materialiseGitModule("git:main~1:catalog/aliased.ts", repo);
    try {
      const then = await loadCatalog(module.file, undefined, {
        alias: module.alias,
        tsconfig: module.tsconfig,
      });
      const note = then.catalog.templates.find((template) => template.id === "order_note");
      expect(note?.source.body).toContain("totals");
      expect(module.alias).toHaveProperty("formletter");
    } finally {
      module.dispose();
    }
  });

  it.each([
    ["git:--output=/tmp/x:catalog/main.ts", "REF a branch"],
    ["git:-n:catalog/main.ts", "REF a branch"],
    ["git:main..other:catalog/main.ts", "REF a branch"],
    ["git:main catalog/main.ts", "REF a branch"],
    ["git:main", "REF a branch"],
    ["git:main:--help", "the path must be a file"],
    ["git:main:/etc/passwd", "the path must be a file"],
    ["git:main:../outside.ts", "the path must be a file"],
    ["git:main:catalog/../../x.ts", "the path must be a file"],
    ["git:nope:catalog/main.ts", "no commit nope"],
    ["git:main:catalog/missing.ts", "no file catalog/missing.ts at main"],
    ["git:main:catalog/outside.ts", "is not a file inside the tree of main"],
  ])("refuses %s, saying what is wrong", async (spec, problem) => {
    await expect(materialiseGitModule(spec, repo)).rejects.toThrow(problem);
  });

  it("is what formletter diff --base takes, run from the repository", () => {
    const entry = fileURLToPath(new URL("../../src/cli/index.ts", import.meta.url));
    const output = execFileSync(
      process.execPath,
      [
        "--import",
        // From the repository's folder, a bare "tsx" would be looked for there.
        new URL("../../node_modules/tsx/dist/loader.mjs", import.meta.url).href,
        entry,
        "diff",
        "--base",
        "git:HEAD~1:catalog/main.ts",
        "--head",
        "catalog/main.ts",
        "--json",
      ],
      { cwd: repo, encoding: "utf8" },
    );
    const review = JSON.parse(output);
    expect(review.changed).toEqual([expect.objectContaining({ id: "order_note", parts: ["texts"] })]);
    expect(review.sources.base).toBe("git:HEAD~1:catalog/main.ts");
  }, 60_000);
});
