import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = fileURLToPath(new URL("../../", import.meta.url));

/**
 * Type-checks `files` with the project's own compiler options (strict, NodeNext, `formletter` mapped to
 * the sources): the errors of those files, formatted, or an empty list.
 */
export function typecheck(files: readonly string[]): string[] {
  const configFile = ts.readConfigFile(`${root}tsconfig.json`, ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(configFile.config, ts.sys, root);
  const program = ts.createProgram({ rootNames: [...files], options: { ...options, noEmit: true } });
  const errors: string[] = [];
  for (const file of files) {
    const source = program.getSourceFile(file);
    if (source === undefined) {
      errors.push(`${file}: not part of the program`);
      continue;
    }
    for (const diagnostic of [
      ...program.getSyntacticDiagnostics(source),
      ...program.getSemanticDiagnostics(source),
    ]) {
      const where =
        diagnostic.start === undefined
          ? ""
          : `:${source.getLineAndCharacterOfPosition(diagnostic.start).line + 1}`;
      errors.push(`${file}${where}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`);
    }
  }
  return errors;
}
