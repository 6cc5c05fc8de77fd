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
    // preview's catalog worker is a file of its own beside it (a worker thread starts from a file).
    // Split, so a start loads only the chunks of the command it runs (src/cli/commands.ts); the chunks
    // sit in dist/cli beside both, so the paths code there resolves from itself (the worker,
    // package.json two folders up) are the same in every chunk.
    entry: { "cli/index": "src/cli/index.ts", "cli/preview-worker": "src/cli/preview-worker.ts" },
    format: ["esm"],
    splitting: true,
    esbuildOptions(options) {
      options.chunkNames = "cli/[name]-[hash]";
    },
    target: "node20",
    sourcemap: true,
    banner: { js: "#!/usr/bin/env node" },
  },
  {
    // Mining's worker threads (the line reader, the merge's helper), each started from a file beside the
    // code that starts it: the package's mine entry (ESM and CommonJS alike) and the command line's
    // chunks. Each is whole, so it loads no chunk of either build.
    entry: {
      "mine/read-worker": "src/mine/read-worker.ts",
      "cli/read-worker": "src/mine/read-worker.ts",
      "mine/merge-worker": "src/mine/merge-worker.ts",
      "cli/merge-worker": "src/mine/merge-worker.ts",
    },
    format: ["esm"],
    splitting: false,
    target: "node20",
    sourcemap: true,
  },
]);
