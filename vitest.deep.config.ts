/**
 * `npm run test:deep`: the property tests at their full number of cases (test/fixtures/property-runs.ts),
 * found as the test files that ask propertyRuns() for their count. `npm test` runs them with fewer.
 */
import { readdirSync, readFileSync } from "node:fs";
import { defineConfig } from "vitest/config";
import base from "./vitest.config.js";

const tests = new URL("./test/", import.meta.url);
const propertyFiles = readdirSync(tests, { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith(".test.ts"))
  .filter((file) => readFileSync(new URL(file, tests), "utf8").includes("propertyRuns("))
  .map((file) => `test/${file.replaceAll("\\", "/")}`);

const { projects: _projects, ...shared } = base.test ?? {};

export default defineConfig({
  ...base,
  test: { ...shared, include: propertyFiles, env: { FORMLETTER_PROPERTY_RUNS: "full" } },
});
