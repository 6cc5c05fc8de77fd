import { fileURLToPath } from "node:url";
import ts from "typescript";

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
  const program = ts.createProgram([path], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    noEmit: true,
    skipLibCheck: true,
  });
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
