import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const readme = readFileSync(`${root}README.md`, "utf8");

/** The rows of the README's documentation table, by the pages they link. */
function tableRows(markdown: string): string[][] {
  const start = /^## Documentation$/m.exec(markdown)?.index;
  if (start === undefined) return [];
  const section = markdown.slice(start);
  const end = section.indexOf("\n## ");
  return (end === -1 ? section : section.slice(0, end))
    .split("\n")
    .filter((line) => line.startsWith("| [") || line.startsWith("| `"))
    .map((line) => [...line.matchAll(/\]\(([^)#]+)/g)].map((match) => match[1] ?? ""));
}

// The README is the front door: short enough to read, and every page of docs/ is one row away.
describe("the README", () => {
  it("is at most 20 KB", () => {
    expect(Buffer.byteLength(readme, "utf8")).toBeLessThanOrEqual(20_480);
  });

  it("lists every page of docs/ in its documentation table, one row each", () => {
    const pages = readdirSync(`${root}docs`)
      .filter((entry) => entry.endsWith(".md"))
      .map((entry) => `docs/${entry}`)
      .sort();
    const rows = tableRows(readme);
    expect(rows.every((links) => links.length === 1)).toBe(true);
    const listed = rows.flat().filter((link) => link.startsWith("docs/"));
    expect([...listed].sort()).toEqual(pages);
  });

  it("keeps the set-up commands and the new-project box of shell commands", () => {
    expect(readme).toContain("npm run demo");
    expect(readme).toMatch(/^npm test\b/m);
    const box = readme.slice(readme.indexOf("\n### A new project\n"));
    const commands = /```sh\n([\s\S]*?)```/.exec(box)?.[1]?.trim().split("\n") ?? [];
    expect(commands).toContain("npm pkg set type=module");
    expect(commands.every((line) => /^(npm|npx) /.test(line))).toBe(true);
    expect(commands.at(-1)).toBe("npx tsx main.ts");
  });

  it("reads a table's rows by the pages they link, and nothing past the next section", () => {
    const rows = tableRows(
      "## Documentation\n\n| page | x |\n| --- | --- |\n| [A](docs/a.md#x) | a |\n\n## Next\n| [B](docs/b.md) | b |\n",
    );
    expect(rows).toEqual([["docs/a.md"]]);
  });
});
