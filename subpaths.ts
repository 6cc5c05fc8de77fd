/**
 * The package's entry points, read from package.json `exports`: the one place they are listed. tsup
 * builds them and vitest resolves them from here; tsconfig maps `formletter/*` by pattern, and
 * scripts/check-boundaries.ts fails when an import names a subpath package.json does not export.
 */
import { readFileSync } from "node:fs";

const manifest = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as {
  exports: Record<string, unknown>;
};

/** Each entry point: its import specifier, its source file and its output name under dist/. */
export interface Subpath {
  readonly specifier: string;
  readonly source: string;
  readonly entry: string;
}

export const subpaths: readonly Subpath[] = Object.keys(manifest.exports)
  .filter((key) => key !== "./package.json")
  .map((key) => {
    const name = key === "." ? "" : key.slice(2);
    return {
      specifier: name === "" ? "formletter" : `formletter/${name}`,
      source: name === "" ? "src/index.ts" : `src/${name}/index.ts`,
      entry: name === "" ? "index" : `${name}/index`,
    };
  });
