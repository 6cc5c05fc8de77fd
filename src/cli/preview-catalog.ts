import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { loadFailure } from "./load-catalog.js";
import type { PageMode } from "./preview-page.js";
import type { SampleTickets } from "./preview-tickets.js";

/** What a catalog worker is started with. */
export interface WorkerSetup {
  readonly file: string;
  readonly exportName: string | undefined;
  readonly tickets: SampleTickets;
  /** Most combinations decided per template. */
  readonly limit: number;
}

/** A page the server asks a worker for: the ticket, how it is served, and a problem to show above it. */
export interface PageRequest {
  readonly id: number;
  readonly index: number;
  readonly mode: Extract<PageMode, { kind: "served" }>;
  readonly warning: string | undefined;
}

/** What a worker answers: first whether the catalog loaded, then pages. */
export type FromWorker =
  | { readonly kind: "loaded"; readonly version: string; readonly files: readonly string[] }
  | { readonly kind: "failed"; readonly problem: string; readonly files: readonly string[] }
  | { readonly kind: "page"; readonly id: number; readonly html: string }
  | { readonly kind: "page-failed"; readonly id: number; readonly problem: string };

/** One loaded version of the catalog, held by its own worker. */
export interface CatalogVersion {
  /** The loaded catalog's `version`: a hash of its templates, so it names the texts the pages show. */
  readonly version: string;
  /** The files of its module graph (outside node_modules): a change to any of them is a new version. */
  readonly files: readonly string[];
  /** Renders a page; rejects with a message when the worker stopped or took too long. */
  render(page: Omit<PageRequest, "id">): Promise<string>;
  /** Ends the worker once the pages it is rendering are sent: it is no longer the version shown. */
  retire(): void;
}

/** A load's outcome: the version, or what failed and which files were read before it did. */
export type CatalogLoad =
  | { readonly ok: true; readonly loaded: CatalogVersion }
  | { readonly ok: false; readonly problem: string; readonly files: readonly string[] };

/** How long a worker may take, and whom to tell when a loaded one stops on its own. */
export interface WorkerLimits {
  /** A catalog whose module never finishes loading (a loop, an await that never settles) is given up. */
  readonly loadMs: number;
  /** A page whose `where`, `derived` or label code never returns ends its worker. */
  readonly renderMs: number;
  readonly onStop?: (problem: string) => void;
}

/**
 * Loads the catalog module in a new worker thread. Node caches an ES module for the life of its
 * thread, and a CommonJS one by path, and a query string on the URL would reload the entry file only, not
 * what it imports, while keeping every old copy in memory: a fresh worker per version evaluates the whole
 * graph from disk, and retiring it frees that version. Never throws: a failure is a result.
 */
export function loadCatalogVersion(setup: WorkerSetup, limits: WorkerLimits): Promise<CatalogLoad> {
  let worker: Worker;
  try {
    worker = startWorker(setup);
  } catch (error) {
    const problem = `cannot start the worker that loads ${setup.file}: ${loadFailure(error)}`;
    return Promise.resolve({ ok: false, problem, files: [] });
  }
  return new Promise((resolve) => {
    const pending = new Map<number, { settle: (page: FromWorker) => void; timer: NodeJS.Timeout }>();
    let ready = false;
    let retiring = false;
    // Why the worker is ending, once it is: it stops taking pages, and the server is told at once.
    let ending: string | undefined;
    let nextId = 0;
    const end = (problem: string) => {
      if (ending !== undefined) return;
      ending = problem;
      clearTimeout(loading);
      resolve({ ok: false, problem, files: [] });
      if (ready && !retiring) limits.onStop?.(problem);
      void worker.terminate();
    };
    const loading = setTimeout(
      () =>
        end(
          `cannot load ${setup.file}: it did not finish loading within ${limits.loadMs / 1000} s (a loop or an await that never ends?)`,
        ),
      limits.loadMs,
    );
    const version = (loaded: Extract<FromWorker, { kind: "loaded" }>): CatalogVersion => ({
      version: loaded.version,
      files: loaded.files,
      render(page) {
        if (ending !== undefined) return Promise.reject(new Error(ending));
        const id = nextId++;
        return new Promise((done, fail) => {
          const timer = setTimeout(
            () =>
              end(
                `${setup.file}: the page of ticket ${page.index} did not finish within ${limits.renderMs / 1000} s (a where, derived or label function that never returns?)`,
              ),
            limits.renderMs,
          );
          pending.set(id, {
            timer,
            settle: (answer) =>
              answer.kind === "page" ? done(answer.html) : fail(new Error(answerProblem(answer))),
          });
          worker.postMessage({ id, ...page } satisfies PageRequest);
        });
      },
      retire() {
        retiring = true;
        if (pending.size === 0) void worker.terminate();
      },
    });
    worker.on("message", (message: FromWorker) => {
      if (message.kind === "loaded" || message.kind === "failed") {
        clearTimeout(loading);
        if (message.kind === "failed") {
          resolve({ ok: false, problem: message.problem, files: message.files });
          end(message.problem);
          return;
        }
        ready = true;
        resolve({ ok: true, loaded: version(message) });
        return;
      }
      const waiting = pending.get(message.id);
      if (waiting === undefined) return;
      clearTimeout(waiting.timer);
      pending.delete(message.id);
      waiting.settle(message);
      if (retiring && pending.size === 0) void worker.terminate();
    });
    const loadingOr = (file: string) => (ready ? file : `cannot load ${file}`);
    // The catalog's own code runs in the worker: a throw outside any call, or process.exit, ends it.
    worker.on("error", (error) => end(`${loadingOr(setup.file)}: its code threw: ${loadFailure(error)}`));
    // Node hands over every message the worker sent before "exit": a page sent just before the worker
    // died is answered, and only what is still waiting then fails.
    worker.on("exit", (code) => {
      end(`${loadingOr(setup.file)}: its code ended the thread (exit code ${code})`);
      for (const { settle, timer } of pending.values()) {
        clearTimeout(timer);
        settle({ kind: "page-failed", id: -1, problem: ending as string });
      }
      pending.clear();
    });
  });
}

function answerProblem(answer: FromWorker): string {
  return answer.kind === "page-failed" ? answer.problem : `unexpected answer ${answer.kind}`;
}

/**
 * The worker runs the built preview-worker.js beside this file; from the sources (tests, tsx) that file
 * is TypeScript, which Node cannot run in a worker, so a one-line script loads it through jiti.
 */
function startWorker(setup: WorkerSetup): Worker {
  const built = new URL("./preview-worker.js", import.meta.url);
  if (existsSync(built)) return new Worker(built, { workerData: setup });
  const source = JSON.stringify(fileURLToPath(new URL("./preview-worker.ts", import.meta.url)));
  const jiti = JSON.stringify(createRequire(import.meta.url).resolve("jiti"));
  return new Worker(`require(${jiti}).createJiti(${source}).import(${source});`, {
    eval: true,
    workerData: setup,
  });
}
