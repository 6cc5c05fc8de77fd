/**
 * The import boundaries of src/, checked on every `npm test`:
 * - the core (src/core) imports no runtime folder: no outbox, store, transport, relay, cli, metrics,
 *   capacity, checklist, mine or testing code (the catalog's preview is pure, so it is core);
 * - stores (src/store and the stores under it) import nothing of the outbox;
 * - relay and cli reach the outbox and the stores only through their entry points (index.ts);
 * - no import cycles, type-only imports included;
 * - every `formletter/…` import in src, examples, templates, bench and test names a subpath that
 *   package.json exports.
 * Prints each violation and exits 1; prints nothing and exits 0 when the tree is clean.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const src = join(root, "src");

function filesUnder(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return name === "node_modules" ? [] : filesUnder(path);
    return /\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

const importPattern = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+"([^"]+)"|import\(\s*"([^"]+)"\s*\)/g;

/** The specifiers a file imports or re-exports from. */
function specifiersOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(importPattern)].map((match) => (match[1] ?? match[2]) as string);
}

/** A relative specifier as the source file it names (`./x.js` is `./x.ts`). */
function resolveLocal(from: string, specifier: string): string {
  return resolve(dirname(from), specifier).replace(/\.js$/, ".ts");
}

/**
 * The area of a file under src/: "core" for src/core (definitions, decisions, messages, the scan, the
 * model's tools), "entry" for src/index.ts, a store or transport folder with its parent
 * ("store/sqlite", "transport/smtp"), otherwise its top folder.
 */
function area(file: string): string {
  const parts = relative(src, file).split("/");
  if (parts.length === 1) return "entry";
  const [top, second] = parts as [string, string];
  if ((top === "store" || top === "transport") && parts.length > 2) return `${top}/${second}`;
  return top;
}

const runtime = new Set([
  "outbox",
  "store",
  "store/sqlite",
  "store/postgres",
  "store/conformance",
  "transport",
  "transport/smtp",
  "providers",
  "relay",
  "cli",
  "metrics",
  "capacity",
  "checklist",
  "mine",
  "testing",
]);
const isStore = (area: string) => area === "store" || area.startsWith("store/");
const entryOnly = new Set(["outbox", "store", "store/sqlite", "store/postgres"]);

const violations: string[] = [];
const graph = new Map<string, string[]>();
const sources = filesUnder(src);

for (const file of sources) {
  const from = area(file);
  const name = relative(root, file);
  const edges: string[] = [];
  for (const specifier of specifiersOf(file)) {
    if (!specifier.startsWith(".")) continue;
    const target = resolveLocal(file, specifier);
    edges.push(target);
    const to = area(target);
    if (to === from) continue;
    if (from === "core" && runtime.has(to))
      violations.push(`${name}: the core imports the ${to} folder (${specifier})`);
    if (isStore(from) && to === "outbox")
      violations.push(`${name}: a store imports the outbox (${specifier})`);
    if ((from === "relay" || from === "cli") && entryOnly.has(to) && !target.endsWith("/index.ts"))
      violations.push(`${name}: ${from} imports ${to} internals (${specifier}); use its entry point`);
  }
  graph.set(file, edges);
}

// Cycles that are accepted: none. A new one is listed here only with the reason it cannot be broken.
const knownCycles = new Set<string>([]);

// Cycles: a depth-first search that reports each cycle once, by its smallest member.
const reported = new Set<string>();
const state = new Map<string, "open" | "done">();
const stack: string[] = [];
function visit(file: string): void {
  state.set(file, "open");
  stack.push(file);
  for (const next of graph.get(file) ?? []) {
    if (state.get(next) === "open") {
      const cycle = stack.slice(stack.indexOf(next)).map((path) => relative(root, path));
      const key = [...cycle].sort().join(" ");
      if (!reported.has(key) && !knownCycles.has(key)) {
        reported.add(key);
        violations.push(`import cycle: ${[...cycle, cycle[0]].join(" → ")}`);
      }
    } else if (!state.has(next) && graph.has(next)) visit(next);
  }
  stack.pop();
  state.set(file, "done");
}
for (const file of graph.keys()) if (!state.has(file)) visit(file);

// Package subpaths: only those package.json exports.
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  exports: Record<string, unknown>;
};
const exported = new Set(
  Object.keys(manifest.exports).map((key) => (key === "." ? "formletter" : `formletter/${key.slice(2)}`)),
);
for (const folder of ["src", "examples", "templates", "bench", "test"]) {
  for (const file of filesUnder(join(root, folder))) {
    for (const specifier of specifiersOf(file)) {
      if ((specifier === "formletter" || specifier.startsWith("formletter/")) && !exported.has(specifier))
        violations.push(`${relative(root, file)}: imports ${specifier}, which package.json does not export`);
    }
  }
}

if (violations.length > 0) {
  process.stderr.write(`${violations.join("\n")}\n${violations.length} import boundary violation(s)\n`);
  process.exit(1);
}
