import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { anchorOf, anchorsOf, brokenLink, pageLinks } from "./links.js";
import { documentationPages } from "./snippets.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const pages = documentationPages(root);

describe("the documentation's links", () => {
  it("lead to files that exist and to headings those pages have", () => {
    const broken = pages.flatMap((page) =>
      pageLinks(root, page).flatMap((entry) => brokenLink(root, entry) ?? []),
    );
    expect(broken).toEqual([]);
  });

  it("reach every page from the README, directly or through the pages it links", () => {
    const reached = new Set(["README.md"]);
    const next = ["README.md"];
    for (let page = next.pop(); page !== undefined; page = next.pop()) {
      for (const entry of pageLinks(root, page)) {
        if (!entry.target.endsWith(".md") || reached.has(entry.target)) continue;
        reached.add(entry.target);
        next.push(entry.target);
      }
    }
    expect(pages.filter((page) => !reached.has(page))).toEqual([]);
  });

  it("reads anchors as GitHub writes them", () => {
    expect(anchorOf("Catalog and `decide()`")).toBe("catalog-and-decide");
    expect(anchorOf("Security: what is guaranteed, and its limits")).toBe(
      "security-what-is-guaranteed-and-its-limits",
    );
    expect([...anchorsOf("## Stores\n```\n## not a heading\n```\n## Stores\n")]).toEqual([
      "stores",
      "stores-1",
    ]);
  });
});
