import * as nodeModule from "node:module";
import { fileURLToPath } from "node:url";
import { MessageChannel, receiveMessageOnPort } from "node:worker_threads";

/**
 * Tells each ES module file Node loads from here on (URL) to the port it was given: a load hook, so it
 * sees the modules `import` evaluates natively, which no cache lists. Plain JavaScript: it runs in
 * Node's hooks thread, which loads it from this data: URL, not through a bundler or a TypeScript loader.
 */
const hookSource = `let port;
export function initialize(data) { port = data.port; }
export async function load(url, context, nextLoad) {
  if (url.startsWith("file:")) port.postMessage(url);
  return nextLoad(url, context);
}`;

/** What a recording saw: the files of the module graph loaded since it started. */
export interface LoadedFiles {
  /** Stops recording and returns the files loaded, absolute, outside node_modules, each once. */
  stop(): string[];
}

/**
 * Starts recording which files the code run next loads: ES modules through a load hook (`module.register`,
 * Node 20.6 and later), CommonJS and jiti-compiled modules (TypeScript among them) as the entries
 * they add to `require.cache`. Meant for a fresh worker that loads one catalog, so "what was loaded" is
 * that catalog's module graph: the files whose change should load it again. Packages (node_modules) are
 * left out: they change with an install, not an edit.
 */
export function recordLoadedFiles(): LoadedFiles {
  const cache = nodeModule.createRequire(import.meta.url).cache;
  const before = new Set(Object.keys(cache));
  const { port1, port2 } = new MessageChannel();
  // register is missing before Node 20.6: there, only CommonJS and compiled modules are seen.
  if (typeof nodeModule.register === "function") {
    nodeModule.register(`data:text/javascript,${encodeURIComponent(hookSource)}`, {
      data: { port: port2 },
      transferList: [port2],
    });
  }
  return {
    stop() {
      const files = new Set(Object.keys(cache).filter((path) => !before.has(path)));
      // The hook posts before a module is evaluated, so every message is already queued: read them now.
      for (let next = receiveMessageOnPort(port1); next !== undefined; next = receiveMessageOnPort(port1))
        files.add(fileURLToPath(String(next.message)));
      port1.close();
      return [...files].filter((path) => !/[\\/]node_modules[\\/]/.test(path));
    },
  };
}
