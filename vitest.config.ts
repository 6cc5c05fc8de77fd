import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { subpaths } from "./subpaths.js";

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Test files that need a module graph and a process of their own: each sets or reads state that lives
 * once per process (OpenTelemetry's global providers, prom-client's default collectors, a module
 * registry reset, the process's heap measured, a module mocked). The rest share their worker's modules from file to file,
 * which halves the time spent importing the sources.
 */
export const isolatedFiles = [
  "test/bench/streaming-run.test.ts",
  "test/core/definition/labels.test.ts",
  "test/core/telemetry.test.ts",
  "test/core/telemetry-registered-late.test.ts",
  "test/mine/few-placer-unstarted.test.ts",
  "test/package/opentelemetry.test.ts",
  "test/relay/prometheus.test.ts",
];

export default defineConfig({
  // Examples and ready catalogs import the package by name, as users do; tests run them on the sources.
  resolve: {
    alias: subpaths.map((subpath) => ({
      find: new RegExp(`^${subpath.specifier}$`),
      replacement: source(`./${subpath.source}`),
    })),
  },
  test: {
    setupFiles: ["test/setup.ts"],
    // Two test files at a time, not vitest's default of one less than the cores (one, on two cores): most
    // files wait on child processes, servers and disk syncs, so a second file fills that time.
    maxWorkers: 2,
    // A guard against hangs, not a speed check (benchmarks measure speed): property tests and the tests
    // that start processes or servers take seconds on a busy 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The type tests (*.test-d.ts) are checked by `npm run typecheck`: tsconfig.json includes test/, and
    // an expectTypeOf that does not hold is a compile error there.
    projects: [
      {
        extends: true,
        test: { name: "shared", include: ["test/**/*.test.ts"], exclude: isolatedFiles, isolate: false },
      },
      { extends: true, test: { name: "isolated", include: isolatedFiles } },
    ],
  },
});
