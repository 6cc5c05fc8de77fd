import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

/**
 * Writes the tsconfig.json a module read from git is loaded with, and returns its path: the commit's own
 * path aliases (`compilerOptions.paths` and `baseUrl` of the tsconfig.json nearest the module, through
 * its relative `extends`), with every `formletter` name taken out and mapped to the library this command
 * runs instead (`library`: name → file). The loader tries path aliases before its own aliases, so a
 * commit that maps `formletter` to its own `src/` would otherwise build its catalog with the library of
 * that commit: a catalog built by another library has other versions, and every template reads as changed.
 *
 * The file goes into a folder of its own inside the materialised tree; its targets are written relative
 * to it, so they point at the commit's files (and at the running library) wherever the tree is.
 */
export function writeCommitTsconfig(
  tree: string,
  moduleFile: string,
  library: Readonly<Record<string, string>>,
): string {
  const found = commitPaths(tree, dirname(moduleFile));
  const folder = join(tree, ".formletter-diff-paths");
  mkdirSync(folder, { recursive: true });
  const target = (file: string) => {
    const path = relative(folder, file).split(sep).join("/");
    return path.startsWith(".") ? path : `./${path}`;
  };
  const paths: Record<string, string[]> = {};
  for (const [pattern, targets] of Object.entries(found?.paths ?? {})) {
    if (pattern === "formletter" || pattern.startsWith("formletter/")) continue;
    paths[pattern] = targets.map((file) => target(file));
  }
  for (const [name, file] of Object.entries(library)) paths[name] = [target(file)];
  const compilerOptions = {
    ...(found?.baseUrl !== undefined ? { baseUrl: target(found.baseUrl) } : {}),
    paths,
  };
  const file = join(folder, "tsconfig.json");
  writeFileSync(file, `${JSON.stringify({ compilerOptions }, null, 2)}\n`);
  return file;
}

/** A tsconfig's path aliases with every target absolute, and its absolute `baseUrl` if it sets one. */
interface CommitPaths {
  readonly paths: Readonly<Record<string, readonly string[]>> | undefined;
  readonly baseUrl: string | undefined;
}

/**
 * The effective `paths` and `baseUrl` of the tsconfig.json nearest `directory` inside `tree` (never one
 * outside it: today's checkout must not lend its aliases to the commit's files). A config's own values
 * win over those it extends; targets are relative to `baseUrl` when one is set, else to the config that
 * declares them, as TypeScript reads them. An unreadable config counts as none.
 */
function commitPaths(tree: string, directory: string): CommitPaths | undefined {
  const root = resolve(tree);
  for (let current = resolve(directory); ; current = dirname(current)) {
    const candidate = join(current, "tsconfig.json");
    if (existsSync(candidate)) return readChain(candidate, root, 0);
    if (current === root || !current.startsWith(root + sep)) return undefined;
  }
}

function readChain(file: string, root: string, depth: number): CommitPaths | undefined {
  const config = readJsonc(file);
  if (config === undefined || depth > 8) return undefined;
  const options = isObject(config.compilerOptions) ? config.compilerOptions : {};
  const here = dirname(file);
  const ownBase = typeof options.baseUrl === "string" ? resolve(here, options.baseUrl) : undefined;
  // Later entries of an `extends` list override earlier ones, as in TypeScript.
  const parents = (Array.isArray(config.extends) ? config.extends : [config.extends])
    .filter((entry): entry is string => typeof entry === "string" && /^\.\.?\//.test(entry))
    .map((entry) => resolve(here, entry.endsWith(".json") ? entry : `${entry}.json`))
    .filter((parent) => parent.startsWith(root + sep) && existsSync(parent))
    .map((parent) => readChain(parent, root, depth + 1));
  let inherited: CommitPaths | undefined;
  for (const parent of parents) {
    if (parent === undefined) continue;
    inherited = {
      paths: parent.paths ?? inherited?.paths,
      baseUrl: parent.baseUrl ?? inherited?.baseUrl,
    };
  }
  const baseUrl = ownBase ?? inherited?.baseUrl;
  let paths = inherited?.paths;
  if (isObject(options.paths)) {
    const from = baseUrl ?? here;
    paths = Object.fromEntries(
      Object.entries(options.paths)
        .filter((entry): entry is [string, unknown[]] => Array.isArray(entry[1]))
        .map(([pattern, targets]) => [
          pattern,
          targets.filter((t): t is string => typeof t === "string").map((t) => resolve(from, t)),
        ]),
    );
  }
  return { paths, baseUrl };
}

/** A tsconfig.json's content: JSON with comments and trailing commas; undefined when it cannot be read. */
function readJsonc(file: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(withoutComments(readFileSync(file, "utf8")));
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The text with `//` and `/* *\/` comments and trailing commas taken out, strings left as they are. */
function withoutComments(text: string): string {
  let out = "";
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (char === '"') {
      const end = stringEnd(text, index);
      out += text.slice(index, end);
      index = end - 1;
    } else if (char === "/" && text[index + 1] === "/") {
      while (index < text.length && text[index] !== "\n") index++;
      out += "\n";
    } else if (char === "/" && text[index + 1] === "*") {
      const end = text.indexOf("*/", index + 2);
      index = end === -1 ? text.length : end + 1;
      out += " ";
    } else out += char;
  }
  return out.replace(/,(\s*[}\]])/g, "$1");
}

/** The index just past the string that starts at `start`. */
function stringEnd(text: string, start: number): number {
  for (let index = start + 1; index < text.length; index++) {
    if (text[index] === "\\") index++;
    else if (text[index] === '"') return index + 1;
  }
  return text.length;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
