import { existsSync } from "node:fs";
import type { RecordsDefinition } from "../core/definition/define-records.js";
import { importModule } from "./load-catalog.js";
import { CliError } from "./output.js";

/** A records definition loaded from a module, with where it came from. */
export interface LoadedRecords {
  readonly records: RecordsDefinition;
  /** The module file, absolute. */
  readonly file: string;
  /** The export it was found under ("default" for a default export). */
  readonly exportName: string;
}

/** True for what `defineRecords` returns, from any copy of formletter. */
export function isRecordsDefinition(value: unknown): value is RecordsDefinition {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Partial<Record<keyof RecordsDefinition, unknown>>;
  return (
    typeof candidate.collections === "object" &&
    candidate.collections !== null &&
    Array.isArray(candidate.names) &&
    typeof candidate.slot === "object" &&
    typeof candidate.label === "function" &&
    candidate.labelTrees instanceof Map
  );
}

/**
 * Loads the records definition a module exports, as `loadCatalog` loads a catalog (TypeScript or
 * JavaScript, through jiti, with the module's tsconfig paths): the default export, else `records`, else
 * the only export built with `defineRecords`.
 */
export async function loadRecords(file: string): Promise<LoadedRecords> {
  if (!existsSync(file)) throw new CliError(`no records module at ${file}`);
  const { path, module } = await importModule(file);
  const names = Object.keys(module);
  for (const preferred of ["default", "records"]) {
    const value = module[preferred];
    if (Object.hasOwn(module, preferred) && isRecordsDefinition(value))
      return { records: value, file: path, exportName: preferred };
  }
  const definitions = names.filter((name) => isRecordsDefinition(module[name]));
  const only = definitions[0];
  if (definitions.length === 1 && only !== undefined)
    return { records: module[only] as RecordsDefinition, file: path, exportName: only };
  if (definitions.length === 0) {
    throw new CliError(
      `${file} exports no records definition built with defineRecords; exports: ${names.join(", ") || "none"}. Export it as default or as "records"`,
    );
  }
  throw new CliError(
    `${file} exports ${definitions.length} records definitions (${definitions.join(", ")}); export the one to mine with as default or as "records"`,
  );
}
