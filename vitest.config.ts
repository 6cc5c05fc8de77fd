import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { subpaths } from "./subpaths.js";

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  // Examples and ready catalogs import the package by name, as users do; tests run them on the sources.
  resolve: {
    alias: subpaths.map((subpath) => ({
      find: new RegExp(`^${subpath.specifier}$`),
      replacement: source(`./${subpath.source}`),
    })),
  },
  test: {
    include: ["test/**/*.test.ts"],
    setupFiles: ["test/setup.ts"],
    // Two test files at a time, not vitest's default of one less than the cores (one, on two cores): most
    // files wait on child processes, servers and disk syncs, so a second file fills that time.
    maxWorkers: 2,
    // A guard against hangs, not a speed check (benchmarks measure speed): property tests and the tests
    // that start processes or servers take seconds on a busy 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    typecheck: { enabled: true, include: ["test/**/*.test-d.ts"] },
  },
});
