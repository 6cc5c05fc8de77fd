import { defineConfig } from "tsup";
import { subpaths } from "./subpaths.js";

export default defineConfig([
  {
    entry: Object.fromEntries(subpaths.map((subpath) => [subpath.entry, subpath.source])),
    format: ["esm", "cjs"],
    target: "node20",
    // import.meta.url in the CommonJS build (optional peers are loaded with createRequire).
    shims: true,
    sourcemap: true,
    // tsup injects `baseUrl`, which TypeScript 6 deprecates.
    dts: { compilerOptions: { ignoreDeprecations: "6.0" } },
  },
  {
    // The command line: ESM only (it awaits at top level), with a shebang so npm can link it.
    entry: { "cli/index": "src/cli/index.ts" },
    format: ["esm"],
    target: "node20",
    sourcemap: true,
    banner: { js: "#!/usr/bin/env node" },
  },
]);
