import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
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
  options: ImportOptions = {},
): Promise<LoadedCatalog> {
  const { path, module } = await importModule(file, options);
  const [name, catalog] = pick(file, module, exportName);
  return { catalog, file: path, exportName: name };
}

/** How to import a module. */
export interface ImportOptions {
  /** Evaluate the module and its imports again instead of reusing a cached copy: after the file changed. */
  readonly fresh?: boolean;
}

/**
 * Imports a module of the team's (TypeScript or JavaScript) through jiti, with the module's own
 * tsconfig.json path aliases, as their service imports it. Loading errors become one-line CLI errors.
 */
export async function importModule(
  file: string,
  options: ImportOptions = {},
): Promise<{ path: string; module: Record<string, unknown>; cache: ReturnType<typeof createJiti>["cache"] }> {
  const path = resolve(file);
  if (!existsSync(path)) throw new CliError(`no catalog module at ${file}`);
  const tsconfig = nearestTsconfig(dirname(path));
  const jiti = createJiti(import.meta.url, {
    ...(tsconfig !== undefined ? { tsconfigPaths: tsconfig } : {}),
    ...(options.fresh === true ? { moduleCache: false } : {}),
  });
  try {
    return { path, module: (await jiti.import(path)) as Record<string, unknown>, cache: jiti.cache };
  } catch (error) {
    if (isFormletterError(error)) throw new CliError(`${file}: ${error.message}`);
    const message = error instanceof Error ? error.message : String(error);
    throw new CliError(`cannot load ${file}: ${message.split("\n")[0]}`);
  }
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
