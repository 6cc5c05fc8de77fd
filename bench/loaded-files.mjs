/**
 * Imports one module and prints, as JSON on its last line of stdout, every file the import loaded:
 * `node loaded-files.mjs <specifier>`. `node loaded-files.mjs --run <file> [arguments...]` runs a
 * program instead (the built command line), as `node <file> [arguments...]` would, and prints the files
 * as JSON on the last line of stderr when the process exits (the program may write to stdout itself).
 * `node loaded-files.mjs --require <specifier>` loads a module with `require`, as CommonJS code does.
 *
 * ES modules are seen by a load hook (`module.register`), which Node calls for every module an `import`
 * evaluates, packages' included; CommonJS files by the entries they add to `require.cache`. Plain
 * JavaScript, so Node runs it with no TypeScript loader whose own files would be counted.
 */
import * as nodeModule from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { MessageChannel, receiveMessageOnPort } from "node:worker_threads";

const hookSource = `let port;
export function initialize(data) { port = data.port; }
export async function load(url, context, nextLoad) {
  if (url.startsWith("file:")) port.postMessage(url);
  return nextLoad(url, context);
}`;

const { port1, port2 } = new MessageChannel();
nodeModule.register(`data:text/javascript,${encodeURIComponent(hookSource)}`, {
  data: { port: port2 },
  transferList: [port2],
});
const cache = nodeModule.createRequire(import.meta.url).cache;
const self = fileURLToPath(import.meta.url);

/** The files loaded so far, each once, this script left out. */
function loaded() {
  const files = new Set(Object.keys(cache));
  // The hook posts before the module it loads is evaluated, so every message is queued by now.
  for (let next = receiveMessageOnPort(port1); next !== undefined; next = receiveMessageOnPort(port1))
    files.add(fileURLToPath(String(next.message)));
  files.delete(self);
  return [...files].sort();
}

const [specifier = "", ...rest] = process.argv.slice(2);
if (specifier === "--run") {
  const [program = "", ...programArguments] = rest;
  // The program reads its arguments from process.argv, as when it is run itself.
  process.argv.splice(1, process.argv.length, program, ...programArguments);
  process.once("exit", () => {
    process.stderr.write(`\n${JSON.stringify(loaded())}\n`);
  });
  await import(pathToFileURL(program).href);
} else if (specifier === "--require") {
  nodeModule.createRequire(import.meta.url)(rest[0] ?? "");
  process.stdout.write(`${JSON.stringify(loaded())}\n`);
  port1.close();
} else {
  // A bare specifier resolves from this file's folder up, as it would from a module of the project.
  await import(specifier);
  process.stdout.write(`${JSON.stringify(loaded())}\n`);
  port1.close();
}
