/**
 * Object literals that start with a spread and go on (`{ ...row, id }`, `{ ...a, ...b }`), in the code
 * every `handle()` and every relay request runs (src/outbox, src/store, src/core, src/relay), checked on
 * every `npm test`; the store conformance suite runs in tests only, and is left out. On Node 20 (V8 11.3) such a literal builds a new hidden class each time it runs: about
 * 1 µs and 0.4–6 KB of garbage, where `merged(row, { id })` (src/core/merged.ts) or a literal that starts
 * with a plain property costs under 0.1 µs. Together they had made `handle()` on the memory store cost
 * almost twice its CPU. Prints each one and exits 1; prints nothing and exits 0 when there are none.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
// Folders given on the command line replace these (the script's own test checks a tree of its making).
const checked =
  process.argv.length > 2
    ? process.argv.slice(2).map((directory) => resolve(directory))
    : ["src/outbox", "src/store", "src/core", "src/relay"].map((directory) => join(root, directory));
// The conformance suite runs in tests only; merged() itself takes the spread for objects with a
// `__proto__` key.
const skipped = new Set([join(root, "src/store/conformance"), join(root, "src/core/merged.ts")]);

function filesUnder(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return skipped.has(path) ? [] : filesUnder(path);
    return /\.ts$/.test(name) && !name.endsWith(".d.ts") && !skipped.has(path) ? [path] : [];
  });
}

const found: string[] = [];
for (const file of checked.flatMap(filesUnder)) {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const visit = (node: ts.Node): void => {
    if (
      ts.isObjectLiteralExpression(node) &&
      node.properties.length > 1 &&
      node.properties[0] !== undefined &&
      ts.isSpreadAssignment(node.properties[0])
    ) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push(`${relative(root, file)}:${line + 1}: ${node.getText(source).split("\n")[0]}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
if (found.length > 0) {
  process.stdout.write(
    `${found.join("\n")}\n\n${found.length} object literal(s) start with a spread and go on: write merged(base, { … }) (src/core/merged.ts), or start the literal with a plain property\n`,
  );
  process.exit(1);
}
