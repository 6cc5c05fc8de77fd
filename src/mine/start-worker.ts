import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { type ResourceLimits, Worker } from "node:worker_threads";

/**
 * Starts one of mining's worker threads: the built `<name>.js` beside this file, or from the sources
 * (tests, tsx), where that file is TypeScript, which Node cannot run in a worker, a one-line script that
 * loads it through jiti.
 */
export function startWorker(
  name: "read-worker" | "merge-worker",
  workerData: unknown,
  resourceLimits: ResourceLimits = {},
): Worker {
  const built = new URL(`./${name}.js`, import.meta.url);
  if (existsSync(built)) return new Worker(built, { workerData, resourceLimits });
  const source = JSON.stringify(fileURLToPath(new URL(`./${name}.ts`, import.meta.url)));
  const jiti = JSON.stringify(createRequire(import.meta.url).resolve("jiti"));
  return new Worker(`require(${jiti}).createJiti(${source}).import(${source});`, {
    eval: true,
    workerData,
    resourceLimits,
  });
}
