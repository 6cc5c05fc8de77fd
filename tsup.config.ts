import { defineConfig } from "tsup";

export default defineConfig([
  {
    entry: {
      index: "src/index.ts",
      "llm/index": "src/llm/index.ts",
      "mine/index": "src/mine/index.ts",
      "postgres/index": "src/postgres/index.ts",
      "relay/index": "src/relay/index.ts",
      "sqlite/index": "src/sqlite/index.ts",
      "smtp/index": "src/smtp/index.ts",
      "testing/index": "src/testing/index.ts",
    },
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
