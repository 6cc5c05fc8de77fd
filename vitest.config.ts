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
    typecheck: { enabled: true, include: ["test/**/*.test-d.ts"] },
  },
});
