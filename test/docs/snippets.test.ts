import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { snippetPrelude } from "./prelude.js";
import { documentationSnippets, extractSnippets, typecheckSnippets } from "./snippets.js";

const root = fileURLToPath(new URL("../../", import.meta.url));

// A block fenced "```ts illustrative" is a shape, not code (a signature with every option named, a type
// written with "…", an excerpt of a generated file importing the reader's own module): it is left out.
// The rest compile, against the sources, with the prelude's names for what a reader defines.
const illustrative = (info: readonly string[]) => info.includes("illustrative");

describe("the documentation's TypeScript", () => {
  const snippets = documentationSnippets(root);

  it("compiles: every ```ts block of the README and docs/ typechecks against the sources", () => {
    const checked = snippets.filter((snippet) => !illustrative(snippet.info));
    expect(checked.length).toBeGreaterThan(15);
    // One block that must fail, checked in the same program: a checker that reports nothing fails here.
    const wrong = extractSnippets(
      "self-check.md",
      'Text.\n\n```ts\nimport { createCatalog } from "formletter";\nconst n: number = createCatalog;\n```\n',
    );
    const problems = typecheckSnippets(root, [...checked, ...wrong], snippetPrelude).map(
      (problem) => `${problem.page}:${problem.line}: ${problem.message.split("\n")[0]}`,
    );
    expect(problems).toEqual([
      expect.stringMatching(/^self-check\.md:5: Type .* is not assignable to type 'number'/),
    ]);
  }, 180_000);

  it("keeps illustrative blocks rare", () => {
    expect(snippets.filter((snippet) => illustrative(snippet.info)).length).toBeLessThanOrEqual(3);
  });

  it("finds blocks fenced with tildes, longer fences and typescript, and reads the info words", () => {
    const found = extractSnippets(
      "page.md",
      "~~~typescript\nconst a = 1;\n~~~\n\n````ts illustrative\nconst b = ```;\n````\n\n```sh\nls\n```\n",
    );
    expect(found.map((snippet) => [snippet.line, snippet.info, snippet.code])).toEqual([
      [1, [], "const a = 1;"],
      [5, ["illustrative"], "const b = ```;"],
    ]);
  });
});
