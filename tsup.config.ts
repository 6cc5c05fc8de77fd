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
    // The command line: ESM only (it awaits at top level), with a shebang so npm can link it. The
    // preview's catalog worker is a file of its own beside it (a worker thread starts from a file), and
    // each is bundled whole, so the CLI finds the worker next to itself.
    entry: { "cli/index": "src/cli/index.ts", "cli/preview-worker": "src/cli/preview-worker.ts" },
    format: ["esm"],
    splitting: false,
    target: "node20",
    sourcemap: true,
    banner: { js: "#!/usr/bin/env node" },
  },
]);
