import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // Examples and ready catalogs import the package by name, as users do; tests run them on the sources.
  resolve: { alias: { formletter: fileURLToPath(new URL("./src/index.ts", import.meta.url)) } },
  test: {
    include: ["test/**/*.test.ts"],
    setupFiles: ["test/setup.ts"],
    typecheck: { enabled: true, include: ["test/**/*.test-d.ts"] },
  },
});
