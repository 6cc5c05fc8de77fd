import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";

/** A link of a Markdown page to a file of the repository, with its fragment if any. */
export interface PageLink {
  readonly page: string;
  readonly line: number;
  readonly target: string;
  readonly fragment: string | undefined;
}

const fence = /^(`{3,}|~{3,})/;
const heading = /^#{1,6} (.+)$/;
const link = /\[[^\]]*\]\(([^)\s]+)\)/g;

/** The lines of a page outside fenced code blocks, with their numbers. */
function proseLines(markdown: string): [number, string][] {
  const lines: [number, string][] = [];
  let open: string | undefined;
  markdown.split("\n").forEach((line, index) => {
    const marker = fence.exec(line)?.[1];
    if (marker !== undefined) {
      if (open === undefined) open = marker;
      else if (line.trim() === open) open = undefined;
      return;
    }
    if (open === undefined) lines.push([index + 1, line]);
  });
  return lines;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function anchorOf(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor a page's headings give, numbered as GitHub numbers repeated ones ("x", "x-1"). */
export function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, line] of proseLines(markdown)) {
    const text = heading.exec(line)?.[1];
    if (text === undefined) continue;
    const base = anchorOf(text);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** The links of a page to the repository's own files (not to web addresses), resolved from the root. */
export function pageLinks(root: string, page: string): PageLink[] {
  const links: PageLink[] = [];
  for (const [line, text] of proseLines(readFileSync(join(root, page), "utf8"))) {
    for (const match of text.matchAll(link)) {
      const href = match[1] ?? "";
      if (/^[a-z][a-z+.-]*:/i.test(href)) continue;
      const [path = "", fragment] = href.split("#", 2);
      const target = path === "" ? page : relative(root, normalize(join(root, dirname(page), path)));
      links.push({ page, line, target, fragment });
    }
  }
  return links;
}

/** What is wrong with a link: a file that does not exist, or an anchor the page does not have. */
export function brokenLink(root: string, entry: PageLink): string | undefined {
  const file = join(root, entry.target);
  if (!existsSync(file)) return `${entry.page}:${entry.line}: ${entry.target} does not exist`;
  if (entry.fragment === undefined || !entry.target.endsWith(".md")) return undefined;
  if (anchorsOf(readFileSync(file, "utf8")).has(entry.fragment)) return undefined;
  return `${entry.page}:${entry.line}: ${entry.target} has no heading #${entry.fragment}`;
}
