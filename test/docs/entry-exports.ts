import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { subpaths } from "../../subpaths.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const entrySources = subpaths.map((subpath) => join(root, subpath.source));

/** What a name exported by an entry point is: something code can call or read at run time, or a type only. */
export type ExportKind = "value" | "type";

const seen = new Map<string, ReadonlyMap<string, ExportKind>>();

/**
 * Every name the module at `file` exports, types and values, as the TypeScript checker sees it, each with
 * its kind. A re-export is followed to what it names, so `export { x }` of a function is a value and
 * `export type { T }` of an interface is a type.
 */
export function exportKinds(file: string | URL): ReadonlyMap<string, ExportKind> {
  const path = typeof file === "string" ? file : fileURLToPath(file);
  const known = seen.get(path);
  if (known !== undefined) return known;
  const program = programWith(path);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(path);
  const symbol = source && checker.getSymbolAtLocation(source);
  if (symbol === undefined) throw new Error(`no module symbol for ${path}`);
  const kinds = new Map<string, ExportKind>();
  for (const exported of checker.getExportsOfModule(symbol)) {
    const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    // `export type { f }` of a function leaves only its type usable, whatever f is.
    const typeOnly = exported.declarations?.some((declaration) =>
      ts.isTypeOnlyExportDeclaration(declaration),
    );
    kinds.set(exported.name, !typeOnly && target.flags & ts.SymbolFlags.Value ? "value" : "type");
  }
  seen.set(path, kinds);
  return kinds;
}

let shared: { readonly program: ts.Program; readonly roots: ReadonlySet<string> } | undefined;

/**
 * One program over every entry point of the package (and `path`): the entries share most of their
 * modules, which one checker reads and binds once rather than once an entry.
 */
function programWith(path: string): ts.Program {
  if (shared?.roots.has(path)) return shared.program;
  const roots = new Set([...(shared?.roots ?? entrySources), path]);
  const program = ts.createProgram(
    [...roots],
    {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      noEmit: true,
      skipLibCheck: true,
    },
    undefined,
    shared?.program,
  );
  shared = { program, roots };
  return program;
}
