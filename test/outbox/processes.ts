/**
 * Child processes for the crash and race tests: the `-worker.ts` files of the fixtures folders, run by
 * Node from their bundles once prepareWorkers() has built them, else through tsx; their stderr kept for
 * the failure message.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { builtScripts } from "../fixtures/built-package.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
let bundles: ReadonlyMap<string, string> = new Map();

/**
 * Bundles every worker with what it imports (once per version of the sources, shared by the test files
 * and runs that need it), so each start is Node loading one file rather than tsx compiling the sources.
 */
export async function prepareWorkers(): Promise<void> {
  const tests = join(root, "test");
  const workers = readdirSync(tests, { recursive: true, encoding: "utf8" })
    .filter((file) => /(^|[\\/])fixtures[\\/][^\\/]+-worker\.ts$/.test(file))
    .map((file) => join(tests, file));
  bundles = await builtScripts(workers);
}

export interface Worker {
  readonly child: ChildProcess;
  /** Resolves when the process ended, with its exit code and signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
}

/** Starts the worker `file` (relative to this folder) with `args`, from the repository root. */
export function startWorker(file: string, args: readonly string[]): Worker {
  const path = fileURLToPath(new URL(file, import.meta.url));
  const bundle = bundles.get(path);
  const child = spawn(
    process.execPath,
    [...(bundle === undefined ? ["--import", "tsx", path] : [bundle]), ...args],
    {
      cwd: root,
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  let stderr = "";
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on("exit", (code, signal) => resolve({ code, signal }));
  });
  return { child, exited, stderr: () => stderr };
}

/** The complete lines of a file (a line cut short by a kill is left out), or none if it does not exist. */
export function completeLines(file: string): string[] {
  if (!existsSync(file)) return [];
  const lines = readFileSync(file, "utf8").split("\n");
  lines.pop();
  return lines.filter((line) => line !== "");
}

/**
 * Waits until `ready()` holds, checking every few milliseconds; fails if a worker ends first. The
 * timeout guards against a hang, not a speed: workers compile TypeScript as they start, which takes
 * seconds on a busy machine.
 */
export async function waitUntil(
  ready: () => boolean,
  workers: Worker | readonly Worker[],
  what: string,
  timeoutMs = 60_000,
): Promise<void> {
  const all = Array.isArray(workers) ? workers : [workers as Worker];
  let ended: Worker | undefined;
  for (const worker of all) {
    void worker.exited.then(() => {
      ended ??= worker;
    });
  }
  const deadline = Date.now() + timeoutMs;
  while (!ready()) {
    if (ended !== undefined) throw new Error(`a worker ended before ${what}: ${ended.stderr()}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
