import { existsSync, realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createJiti } from "jiti";
import type { Catalog } from "../core/decision/catalog.js";
import { isFormletterError } from "../core/errors.js";
import { CliError } from "./output.js";

/** A catalog loaded from a module, with where it came from. */
export interface LoadedCatalog {
  readonly catalog: Catalog;
  /** The module file, absolute. */
  readonly file: string;
  /** The export the catalog was found under ("default" for a default export). */
  readonly exportName: string;
}

/** True for what `createCatalog` returns, from any copy of formletter. */
export function isCatalog(value: unknown): value is Catalog {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Partial<Record<keyof Catalog, unknown>>;
  return (
    typeof candidate.decide === "function" &&
    typeof candidate.prepare === "function" &&
    typeof candidate.version === "string" &&
    Array.isArray(candidate.templates) &&
    typeof candidate.records === "object"
  );
}

/**
 * Loads the catalog a module exports: TypeScript or JavaScript, through jiti, so a team points the CLI
 * at the file their service imports. Takes `exportName`, else the default export, else `catalog`, else
 * the only export that is a catalog. Loading runs the module, so every definition-time check runs: a
 * bad template fails here with the message that names the template, the slot and the fix.
 */
export async function loadCatalog(
  file: string,
  exportName?: string,
  resolution?: ModuleResolution,
): Promise<LoadedCatalog> {
  const { path, module } = await importModule(file, resolution);
  const [name, catalog] = pick(file, module, exportName);
  return { catalog, file: path, exportName: name };
}

/** How a module's imports resolve when not as its own tsconfig.json says: a module read from git. */
export interface ModuleResolution {
  /** Module names to load from given files, when no path alias names them. */
  readonly alias?: Readonly<Record<string, string>>;
  /** The tsconfig.json whose path aliases apply, instead of the one nearest the module. */
  readonly tsconfig?: string;
}

/**
 * Imports a module of the team's (TypeScript or JavaScript) through jiti, with the module's own
 * tsconfig.json path aliases, as their service imports it. Loading errors become one-line CLI errors
 * that say where the module graph failed.
 *
 * A module is evaluated once per process (Node caches ES modules for the life of the process, and
 * CommonJS ones by path): to see a module again after it changed, load it in a fresh worker, as
 * `formletter preview` does.
 */
export async function importModule(
  file: string,
  resolution: ModuleResolution = {},
): Promise<{ path: string; module: Record<string, unknown> }> {
  const { alias, tsconfig: given } = resolution;
  const path = resolve(file);
  if (!existsSync(path)) throw new CliError(`no catalog module at ${file}`);
  // Through a symbolic link, the module's imports (and its tsconfig) are those of the file it points at,
  // as Node resolves them; jiti would look next to the link, and find nothing there.
  const real = realpathSync(path);
  const tsconfig = given ?? nearestTsconfig(dirname(real));
  const jiti = createJiti(import.meta.url, {
    ...(tsconfig !== undefined ? { tsconfigPaths: tsconfig } : {}),
    ...(alias !== undefined ? { alias: { ...alias } } : {}),
    // A tree written out for one run is never loaded again: caching its files would only fill the disk.
    ...(given !== undefined ? { fsCache: false } : {}),
  });
  try {
    return { path, module: (await jiti.import(real)) as Record<string, unknown> };
  } catch (error) {
    if (isFormletterError(error)) throw new CliError(`${file}: ${error.message}`);
    throw new CliError(`cannot load ${file}: ${loadFailure(error, real)}`);
  }
}

/**
 * The first line of a loading error, and where it happened when the line does not say: a syntax error
 * or a throw in a module the catalog imports otherwise reads as if the catalog module were at fault.
 * `module` is the catalog module's real path: the message names it already.
 */
export function loadFailure(error: unknown, module?: string): string {
  const text = error instanceof Error ? `${error.message}\n${error.stack ?? ""}` : String(error);
  // One line, of a length a terminal and a page warning can show (minified code puts a file on one line).
  const line = (text.split("\n")[0] ?? "").trim().slice(0, 400);
  const named = error instanceof Error && error.name !== "Error" && !line.startsWith(error.name);
  const first = named ? `${error.name}: ${line}` : line;
  const place = placeInGraph(text, module);
  return place === undefined || first.includes(place) ? first : `${first} (at ${place})`;
}

/** formletter's own code (src/ from the sources, dist/ when built): where loading starts, not where it failed. */
const ownCode = ["../../src/", "../../dist/"].map((folder) =>
  fileURLToPath(new URL(folder, import.meta.url)),
);

/**
 * The first file:line in a message or stack inside the module graph: a team's file other than the
 * catalog module, not Node's or a package's (jiti's frames sit between a module and what it imports).
 * The stack below formletter's loader is whoever asked for the catalog, so the search stops there.
 * Else the module that required one that was not found (CommonJS "Require stack").
 */
function placeInGraph(text: string, module: string | undefined): string | undefined {
  for (const match of text.matchAll(/(?<=^|[\s(])(?:file:\/\/)?(\/[^\s():]+):(\d+)(?::\d+)?/gm)) {
    const [, path, line] = match;
    if (path === undefined || path.includes("/node_modules/") || path === module) continue;
    if (ownCode.some((folder) => path.startsWith(folder))) break;
    return `${path}:${line}`;
  }
  const required = /^Require stack:\n- (\S.*)$/m.exec(text)?.[1];
  return required === module ? undefined : required;
}

function pick(
  file: string,
  module: Record<string, unknown>,
  exportName: string | undefined,
): [string, Catalog] {
  const names = Object.keys(module);
  const catalogs = names.filter((name) => isCatalog(module[name]));
  if (exportName !== undefined) {
    const value = Object.hasOwn(module, exportName) ? module[exportName] : undefined;
    if (!isCatalog(value)) {
      throw new CliError(
        `${file}: export "${exportName}" is ${value === undefined ? "missing" : "not a catalog built with createCatalog"}; catalogs exported: ${catalogs.join(", ") || "none"}`,
      );
    }
    return [exportName, value];
  }
  for (const preferred of ["default", "catalog"]) {
    const value = module[preferred];
    if (Object.hasOwn(module, preferred) && isCatalog(value)) return [preferred, value];
  }
  if (catalogs.length === 1) {
    const only = catalogs[0] as string;
    return [only, module[only] as Catalog];
  }
  if (catalogs.length === 0) {
    throw new CliError(
      `${file} exports no catalog built with createCatalog; exports: ${names.join(", ") || "none"}. Export it as default or as "catalog"`,
    );
  }
  throw new CliError(
    `${file} exports ${catalogs.length} catalogs (${catalogs.join(", ")}); pick one with --export NAME`,
  );
}

/** The tsconfig.json of the catalog's project: the nearest one up from its folder. */
function nearestTsconfig(directory: string): string | undefined {
  for (let current = directory; ; current = dirname(current)) {
    const candidate = join(current, "tsconfig.json");
    if (existsSync(candidate)) return candidate;
    if (dirname(current) === current) return undefined;
  }
}
