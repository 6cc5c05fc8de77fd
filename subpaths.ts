/**
 * The package's entry points, read from package.json `exports`: the one place they are listed. tsup
 * builds them and vitest resolves them from here; tsconfig maps `formletter/*` by the same search, and
 * scripts/check-boundaries.ts fails when an import names a subpath package.json does not export.
 *
 * A subpath's source is `<folder>/<name>/index.ts`, searched in the folders below: a store sits under
 * src/store, a transport under src/transport, the model's tools in the core, and their subpath names stay
 * short (`formletter/sqlite`, `formletter/smtp`, `formletter/llm`).
 */
import { existsSync, readFileSync } from "node:fs";

const manifest = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as {
  exports: Record<string, unknown>;
};

/** Each entry point: its import specifier, its source file and its output name under dist/. */
export interface Subpath {
  readonly specifier: string;
  readonly source: string;
  readonly entry: string;
}

/** Where subpath sources are searched, in order; tsconfig.json's `paths` lists the same folders. */
export const sourceFolders = ["src", "src/store", "src/transport", "src/core"] as const;

function sourceOf(name: string): string {
  const found = sourceFolders
    .map((folder) => `${folder}/${name}/index.ts`)
    .find((path) => existsSync(new URL(`./${path}`, import.meta.url)));
  if (found === undefined)
    throw new Error(
      `package.json exports ./${name}, but no ${name}/index.ts is in ${sourceFolders.join(", ")}`,
    );
  return found;
}

export const subpaths: readonly Subpath[] = Object.keys(manifest.exports)
  .filter((key) => key !== "./package.json")
  .map((key) => {
    const name = key === "." ? "" : key.slice(2);
    return {
      specifier: name === "" ? "formletter" : `formletter/${name}`,
      source: name === "" ? "src/index.ts" : sourceOf(name),
      entry: name === "" ? "index" : `${name}/index`,
    };
  });
