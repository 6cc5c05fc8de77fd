import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

/** One fenced TypeScript block of a Markdown page. */
export interface Snippet {
  /** The page, relative to the repository root. */
  readonly page: string;
  /** The line of the opening fence. */
  readonly line: number;
  /** The words after "ts" on the fence, e.g. `illustrative`. */
  readonly info: readonly string[];
  readonly code: string;
}

const fence = /^(`{3,}|~{3,})\s*(ts|typescript)(?:\s+(.*))?$/;

/** Every fenced ```ts block of a Markdown text, with its line and info words. */
export function extractSnippets(page: string, markdown: string): Snippet[] {
  const snippets: Snippet[] = [];
  const lines = markdown.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const open = fence.exec((lines[index] ?? "").trimEnd());
    if (open === null) continue;
    const marker = open[1] ?? "```";
    const body: string[] = [];
    let end = index + 1;
    for (; end < lines.length && !(lines[end] ?? "").trimEnd().startsWith(marker); end++)
      body.push(lines[end] ?? "");
    snippets.push({
      page,
      line: index + 1,
      info: (open[3] ?? "").split(/\s+/).filter(Boolean),
      code: body.join("\n"),
    });
    index = end;
  }
  return snippets;
}

/** The documentation: the README, the benchmarks' page and every page under docs/. */
export function documentationPages(root: string): string[] {
  const docs = join(root, "docs");
  const pages = ["README.md", "bench/README.md"].filter((page) => existsSync(join(root, page)));
  if (existsSync(docs)) {
    for (const entry of readdirSync(docs, { recursive: true, encoding: "utf8" }))
      if (entry.endsWith(".md")) pages.push(relative(root, join(docs, entry)));
  }
  return pages;
}

/** A type error in a snippet: where in the page, and what. */
export interface SnippetProblem {
  readonly page: string;
  readonly line: number;
  readonly message: string;
}

/**
 * Typechecks each snippet as its own module against the sources (the repository's tsconfig, with its
 * paths mapping `formletter/*` onto src), with `prelude` declaring the names a reader's code would
 * define (their records, catalog, database…). Unused names are allowed: a snippet shows one step.
 * The problems are those of the snippets and the prelude (and of the options): the sources' own bodies
 * are checked by `npm run typecheck`, not again here, which leaves most of the checker's work undone.
 */
export function typecheckSnippets(
  root: string,
  snippets: readonly Snippet[],
  prelude: string,
): SnippetProblem[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, "tsconfig.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
      },
    },
  );
  if (config === undefined) throw new Error("tsconfig.json cannot be read");
  const options: ts.CompilerOptions = { ...config.options, noUnusedLocals: false, noUnusedParameters: false };
  const folder = join(root, "test/docs/.snippets");
  const files = new Map<string, { text: string; snippet?: Snippet }>();
  files.set(join(folder, "prelude.ts"), { text: prelude });
  snippets.forEach((snippet, index) => {
    // `export {}` makes each a module: its own scope, top-level await allowed.
    files.set(join(folder, `snippet-${index + 1}.ts`), { text: `${snippet.code}\nexport {};\n`, snippet });
  });
  const host = ts.createCompilerHost(options);
  // As tsc does: JSDoc is parsed only where it can change a type error (it cannot in .ts files).
  host.jsDocParsingMode = ts.JSDocParsingMode.ParseForTypeErrors;
  const getSourceFile = host.getSourceFile.bind(host);
  host.fileExists = (file) => files.has(file) || ts.sys.fileExists(file);
  host.readFile = (file) => files.get(file)?.text ?? ts.sys.readFile(file);
  host.getSourceFile = (file, language, onError, create) => {
    const virtual = files.get(file);
    return virtual === undefined
      ? getSourceFile(file, language, onError, create)
      : ts.createSourceFile(file, virtual.text, language);
  };
  const program = ts.createProgram([...files.keys()], options, host);
  const problems: SnippetProblem[] = [];
  const diagnostics = [
    ...program.getConfigFileParsingDiagnostics(),
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...[...files.keys()].flatMap((file) => {
      const source = program.getSourceFile(file);
      if (source === undefined) throw new Error(`${file} is not part of the program`);
      return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
    }),
  ];
  for (const diagnostic of diagnostics) {
    const file = diagnostic.file?.fileName;
    const virtual = file === undefined ? undefined : files.get(file);
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
    if (virtual?.snippet === undefined) {
      problems.push({ page: file === undefined ? "(program)" : relative(root, file), line: 0, message });
      continue;
    }
    const { line } = diagnostic.file?.getLineAndCharacterOfPosition(diagnostic.start ?? 0) ?? { line: 0 };
    problems.push({ page: virtual.snippet.page, line: virtual.snippet.line + 1 + line, message });
  }
  return problems;
}

/** All snippets of the documentation pages under `root`. */
export function documentationSnippets(root: string): Snippet[] {
  return documentationPages(root).flatMap((page) =>
    extractSnippets(page, readFileSync(join(root, page), "utf8")),
  );
}
