import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeCommitTsconfig } from "../../src/cli/git-tsconfig.js";

const root = mkdtempSync(join(tmpdir(), "formletter-git-tsconfig-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A tree written out from a commit, with the files given (path → content). */
function tree(name: string, files: Readonly<Record<string, string>>): string {
  const folder = join(root, name);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), content);
  }
  return folder;
}

/** The written tsconfig's paths, each target made absolute again. */
function writtenPaths(file: string): Record<string, string[]> {
  const config = JSON.parse(readFileSync(file, "utf8"));
  const base = resolve(dirname(file), config.compilerOptions.baseUrl ?? ".");
  return Object.fromEntries(
    Object.entries(config.compilerOptions.paths as Record<string, string[]>).map(([pattern, targets]) => [
      pattern,
      targets.map((target) => resolve(base, target)),
    ]),
  );
}

const library = {
  formletter: "/opt/formletter/dist/index.js",
  "formletter/mcp": "/opt/formletter/dist/mcp/index.js",
};

describe("writeCommitTsconfig", () => {
  it("keeps the commit's own aliases, read through extends and comments, and maps formletter to the running library", () => {
    const folder = tree("extends", {
      "tsconfig.base.json": `{
  // shared settings
  "compilerOptions": {
    "baseUrl": "./lib",
    "paths": { "@app/*": ["./app/*"], "formletter": ["../src/index.ts"], "formletter/*": ["../src/*/index.ts"], },
  },
}`,
      "templates/tsconfig.json":
        '{ "extends": "../tsconfig.base", /* the templates\' own */ "compilerOptions": {} }',
      "templates/seller.ts": "",
    });
    const file = writeCommitTsconfig(folder, join(folder, "templates", "seller.ts"), library);
    expect(file.startsWith(folder)).toBe(true);
    expect(writtenPaths(file)).toEqual({
      "@app/*": [join(folder, "lib", "app", "*")],
      formletter: [library.formletter],
      "formletter/mcp": [library["formletter/mcp"]],
    });
  });

  it("reads the paths relative to the config that declares them when no baseUrl is set, and never a config outside the tree", () => {
    const outside = tree("outer", {
      "tsconfig.json": '{ "compilerOptions": { "paths": { "@today/*": ["./today/*"] } } }',
    });
    const folder = join(outside, "commit");
    tree("outer/commit", {
      "tsconfig.json": '{ "compilerOptions": { "paths": { "@catalog/*": ["./catalog/*"] } } }',
      "catalog/main.ts": "",
    });
    expect(writtenPaths(writeCommitTsconfig(folder, join(folder, "catalog", "main.ts"), library))).toEqual({
      "@catalog/*": [join(folder, "catalog", "*")],
      formletter: [library.formletter],
      "formletter/mcp": [library["formletter/mcp"]],
    });
    const bare = join(outside, "bare");
    tree("outer/bare", { "main.ts": "" });
    expect(Object.keys(writtenPaths(writeCommitTsconfig(bare, join(bare, "main.ts"), library)))).toEqual([
      "formletter",
      "formletter/mcp",
    ]);
  });
});
