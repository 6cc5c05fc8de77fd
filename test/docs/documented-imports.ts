import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/** One name the documentation tells a reader to take from a `formletter…` entry point. */
export interface DocumentedImport {
  /** The page or source file, relative to the repository root, and the line of the claim. */
  readonly where: string;
  readonly specifier: string;
  readonly name: string;
  /**
   * What the reader will do with it: `value` (an import without `type`, or a call written in prose) must
   * exist at run time; `type` (`import type`, `type X`) only needs the name exported; `any` (a bare name in
   * prose) only needs the name exported.
   */
  readonly kind: "value" | "type" | "any";
}

// `import { a, type B } from "formletter/x"` and `import type { C } from "formletter"`, over several lines too.
const importStatement = /\bimport\s+(type\s+)?\{([^{}]*)\}\s*from\s*["'](formletter(?:\/[\w./-]+)?)["']/g;
// "`verifyWebhookSignature(rawBody, …)` from `formletter`": prose naming an export and its entry point.
const proseClaim = /`([A-Za-z_$][\w$]*)(\([^`]*\))?` from `(formletter(?:\/[\w./-]+)?)`/g;

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let at = text.indexOf("\n"); at !== -1 && at < index; at = text.indexOf("\n", at + 1)) line++;
  return line;
}

/** The names of one import clause's braces, each with its kind. */
function importedNames(clause: string, typeOnly: boolean): { name: string; kind: "value" | "type" }[] {
  return clause
    .split(",")
    .map((part) => part.replace(/^\s*\*?\s*/gm, "").trim())
    .filter(Boolean)
    .map((part) => {
      const typed = /^type\s+/.test(part);
      // `a as b` imports `a`.
      const name =
        part
          .replace(/^type\s+/, "")
          .split(/\s+as\s+/)[0]
          ?.trim() ?? "";
      return { name, kind: typeOnly || typed ? "type" : "value" };
    });
}

/** Every import from a `formletter…` path written in `text` (Markdown, or the inside of a comment). */
export function importsIn(where: string, text: string, firstLine = 1): DocumentedImport[] {
  const found: DocumentedImport[] = [];
  for (const match of text.matchAll(importStatement)) {
    const line = firstLine - 1 + lineAt(text, match.index);
    for (const { name, kind } of importedNames(match[2] ?? "", match[1] !== undefined))
      found.push({ where: `${where}:${line}`, specifier: match[3] ?? "", name, kind });
  }
  return found;
}

/** The names prose attributes to an entry point ("`x(…)` from `formletter/y`"). */
export function proseClaimsIn(where: string, text: string): DocumentedImport[] {
  return [...text.matchAll(proseClaim)].map((match) => ({
    where: `${where}:${lineAt(text, match.index)}`,
    specifier: match[3] ?? "",
    name: match[1] ?? "",
    kind: match[2] === undefined ? "any" : "value",
  }));
}

/** The imports of every `@example` of the JSDoc comments of the TypeScript files under `folder`. */
export function exampleImports(root: string, folder: string): DocumentedImport[] {
  const found: DocumentedImport[] = [];
  for (const entry of readdirSync(join(root, folder), { recursive: true, encoding: "utf8" })) {
    if (!entry.endsWith(".ts")) continue;
    const file = join(root, folder, entry);
    const text = readFileSync(file, "utf8");
    for (const comment of text.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
      const at = comment[0].indexOf("@example");
      if (at === -1) continue;
      const example = comment[0].slice(at);
      found.push(...importsIn(relative(root, file), example, lineAt(text, comment.index + at)));
    }
  }
  return found;
}
