import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  // Examples and ready catalogs import the package by name, as users do; tests run them on the sources.
  resolve: {
    alias: [
      { find: /^formletter\/sqlite$/, replacement: source("./src/sqlite/index.ts") },
      { find: /^formletter\/smtp$/, replacement: source("./src/smtp/index.ts") },
      { find: /^formletter\/llm$/, replacement: source("./src/llm/index.ts") },
      { find: /^formletter\/mine$/, replacement: source("./src/mine/index.ts") },
      { find: /^formletter\/testing$/, replacement: source("./src/testing/index.ts") },
      { find: /^formletter\/relay$/, replacement: source("./src/relay/index.ts") },
      { find: /^formletter\/postgres$/, replacement: source("./src/postgres/index.ts") },
      { find: /^formletter$/, replacement: source("./src/index.ts") },
    ],
  },
  test: {
    include: ["test/**/*.test.ts"],
    setupFiles: ["test/setup.ts"],
    // A guard against hangs, not a speed check (benchmarks measure speed): property tests and the tests
    // that start processes or servers take seconds on a busy 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    typecheck: { enabled: true, include: ["test/**/*.test-d.ts"] },
  },
});
