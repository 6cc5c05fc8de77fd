/**
 * Every name the README, docs/ and the JSDoc examples tell a reader to import from a `formletter…` path is
 * exported there, with the kind the text uses: a value import must be a value at run time and in the
 * declarations, a type import must at least be an exported name.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { subpaths } from "../../subpaths.js";
import { type DocumentedImport, exampleImports, importsIn, proseClaimsIn } from "./documented-imports.js";
import { exportKinds } from "./entry-exports.js";
import { documentationPages } from "./snippets.js";

const root = fileURLToPath(new URL("../../", import.meta.url));

const fromPages = documentationPages(root).flatMap((page) => {
  const text = readFileSync(join(root, page), "utf8");
  return [...importsIn(page, text), ...proseClaimsIn(page, text)];
});
const fromExamples = [
  ...exampleImports(root, "src"),
  ...exampleImports(root, "templates"),
  ...exampleImports(root, "examples"),
];

/** What is wrong with one documented import, or nothing. */
async function problemWith(claim: DocumentedImport): Promise<string | undefined> {
  const entry = subpaths.find((subpath) => subpath.specifier === claim.specifier);
  if (entry === undefined) return `${claim.where}: ${claim.specifier} is not an entry point of package.json`;
  const kinds = exportKinds(join(root, entry.source));
  const declared = kinds.get(claim.name);
  if (declared === undefined) return `${claim.where}: ${claim.specifier} does not export ${claim.name}`;
  if (claim.kind !== "value") return undefined;
  if (declared !== "value") return `${claim.where}: ${claim.name} from ${claim.specifier} is a type only`;
  const module: Record<string, unknown> = await import(join(root, entry.source));
  if (!(claim.name in module))
    return `${claim.where}: ${claim.name} from ${claim.specifier} is declared but missing at run time`;
  return undefined;
}

async function problemsWith(claims: readonly DocumentedImport[]): Promise<string[]> {
  const problems: string[] = [];
  for (const claim of claims) {
    const problem = await problemWith(claim);
    if (problem !== undefined) problems.push(problem);
  }
  return problems;
}

describe("the names the documentation imports", () => {
  it("finds imports in pages and in JSDoc examples", () => {
    expect(fromPages.length).toBeGreaterThan(40);
    expect(fromExamples.length).toBeGreaterThan(40);
    expect(fromExamples).toContainEqual(
      expect.objectContaining({ specifier: "formletter", name: "signWebhookBody", kind: "value" }),
    );
  });

  it("exist in the README and docs/ entry points they name, with the kind the page uses", async () => {
    expect(await problemsWith(fromPages)).toEqual([]);
  }, 120_000);

  it("exist in the entry points the JSDoc examples name, with the kind the example uses", async () => {
    expect(await problemsWith(fromExamples)).toEqual([]);
  }, 120_000);

  it("reads braces over several lines, type modifiers, renames and comment prefixes", () => {
    const text = [
      "```ts",
      "import type { Catalog } from 'formletter';",
      "import {",
      " *   createCatalog as make,",
      " *   type Decision,",
      '} from "formletter/llm";',
      "```",
      "`sqliteStore(file)` from `formletter/sqlite`, and `Store` from `formletter/store`",
    ].join("\n");
    expect([...importsIn("page.md", text), ...proseClaimsIn("page.md", text)]).toEqual([
      { where: "page.md:2", specifier: "formletter", name: "Catalog", kind: "type" },
      { where: "page.md:3", specifier: "formletter/llm", name: "createCatalog", kind: "value" },
      { where: "page.md:3", specifier: "formletter/llm", name: "Decision", kind: "type" },
      { where: "page.md:8", specifier: "formletter/sqlite", name: "sqliteStore", kind: "value" },
      { where: "page.md:8", specifier: "formletter/store", name: "Store", kind: "any" },
    ]);
  });

  it("reports a missing name, a type imported as a value and an unknown entry point", async () => {
    const claims: DocumentedImport[] = [
      { where: "a.md:1", specifier: "formletter", name: "noSuchExport", kind: "value" },
      { where: "a.md:2", specifier: "formletter", name: "Catalog", kind: "value" },
      { where: "a.md:3", specifier: "formletter/nowhere", name: "x", kind: "type" },
      { where: "a.md:4", specifier: "formletter", name: "createCatalog", kind: "type" },
    ];
    expect(await problemsWith(claims)).toEqual([
      "a.md:1: formletter does not export noSuchExport",
      "a.md:2: Catalog from formletter is a type only",
      "a.md:3: formletter/nowhere is not an entry point of package.json",
    ]);
  });
});
