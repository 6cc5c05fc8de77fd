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
    // The program resolves no package (below): a name an entry re-exports from one would end nowhere.
    if (target.declarations === undefined || target.declarations.length === 0)
      throw new Error(`${path} exports ${exported.name}, which the package's own sources do not declare`);
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

const options: ts.CompilerOptions = {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  lib: ["lib.es2022.d.ts"],
  types: [],
  noEmit: true,
  skipLibCheck: true,
};

/**
 * A host that resolves the sources' relative imports only. Which names a module exports, and whether each
 * is a value, is written in the package's own sources (exportKinds throws if a name leads elsewhere): the
 * declarations of the packages they import (some thousands of files, most of the parsing) are not read.
 * JSDoc is not parsed either; no kind depends on it.
 */
function sourcesOnlyHost(): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  host.jsDocParsingMode = ts.JSDocParsingMode.ParseNone;
  host.resolveModuleNameLiterals = (literals, containingFile, redirected, compilerOptions) =>
    literals.map((literal) =>
      literal.text.startsWith(".")
        ? ts.resolveModuleName(literal.text, containingFile, compilerOptions, host, undefined, redirected)
        : { resolvedModule: undefined },
    );
  return host;
}

/**
 * One program over every entry point of the package (and `path`): the entries share most of their
 * modules, which one checker reads and binds once rather than once an entry.
 */
function programWith(path: string): ts.Program {
  if (shared?.roots.has(path)) return shared.program;
  const roots = new Set([...(shared?.roots ?? entrySources), path]);
  const program = ts.createProgram({
    rootNames: [...roots],
    options,
    host: sourcesOnlyHost(),
    ...(shared === undefined ? {} : { oldProgram: shared.program }),
  });
  // `export * from "a-package"` would add names this program cannot see: none may be in the sources.
  for (const source of program.getSourceFiles()) {
    if (program.isSourceFileDefaultLibrary(source)) continue;
    for (const statement of source.statements) {
      const from = ts.isExportDeclaration(statement) ? statement.moduleSpecifier : undefined;
      if (from !== undefined && ts.isStringLiteral(from) && !from.text.startsWith("."))
        throw new Error(`${source.fileName} re-exports from ${from.text}, which exportKinds does not read`);
    }
  }
  shared = { program, roots };
  return program;
}
