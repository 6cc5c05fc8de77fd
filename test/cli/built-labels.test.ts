import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { build } from "tsup";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { labelledCatalogModule } from "../fixtures/labelled-catalog-module.js";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../", import.meta.url));
let directory: string;

// The package and its command line are bundled separately, as in `dist`: a catalog built with the
// package's bundle is read by the CLI's bundle, each with its own copy of formletter's modules.
beforeAll(async () => {
  mkdirSync(join(root, "node_modules/.cache"), { recursive: true });
  directory = mkdtempSync(join(root, "node_modules/.cache/formletter-built-"));
  await build({
    entry: { index: join(root, "src/index.ts"), "cli/index": join(root, "src/cli/index.ts") },
    format: ["esm"],
    outDir: directory,
    target: "node20",
    splitting: false,
    dts: false,
    silent: true,
    config: false,
  });
  writeFileSync(join(directory, "catalog.mjs"), labelledCatalogModule("./index.js"));
}, 120_000);
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe("the built command line", () => {
  it("reads the labels of a catalog built by the package's own bundle", async () => {
    const { stdout } = await run(process.execPath, [
      join(directory, "cli/index.js"),
      "capacity",
      join(directory, "catalog.mjs"),
      "--json",
    ]);
    const capacity = JSON.parse(stdout) as {
      templates: { fields: { field: string; label: string; author?: string; readableBy?: string[] }[] }[];
    };
    const fields = capacity.templates[0]?.fields ?? [];
    expect(fields.find((field) => field.field === "body")).toMatchObject({
      label: "untrusted",
      author: "buyer",
    });
    expect(fields.find((field) => field.field === "email")).toMatchObject({
      label: "private",
      readableBy: ["buyer"],
    });
  });
});
