import { escapeHtml } from "../core/definition/channels.js";
import { printable } from "../core/message/sanitize.js";

/** What a page says about where it came from. */
export interface HtmlPageMeta {
  readonly title: string;
  /** One line under the title, e.g. "replay of history.jsonl with templates/seller.ts". */
  readonly subtitle: string;
  readonly generatedAt: Date;
}

/** Escaped for HTML, and control characters written out: a page is also read with cat and less. */
export const escapeForPage = (text: string | number): string => escapeHtml(printable(String(text)));

/** A page that forbids loading anything: no script, no font, no request, only its own inline style. */
export const selfContainedPolicy = "default-src 'none'; style-src 'unsafe-inline'";

/**
 * A report page's rules for a phone-width screen, for pages to add to their own style: the page never
 * scrolls sideways (a wide table scrolls inside its own box) and cards take the whole row.
 */
export const narrowScreenCss = `
@media (max-width: 640px) {
  body { padding: 12px; }
  table { display: block; overflow-x: auto; min-width: 0; }
  .cards .card { flex: 1 1 100%; min-width: 0; }
}
`;

/** The document around `body`: its policy, viewport and inline style. Every argument is already safe. */
export function htmlDocument(title: string, policy: string, css: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeForPage(title)}</title>
<style>${css}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

/**
 * One self-contained report page (see {@link selfContainedPolicy}), so it can be mailed, attached to a
 * ticket or opened offline. `body` is the markup after the header, already escaped by the caller.
 */
export function htmlPage(meta: HtmlPageMeta, css: string, body: string): string {
  const e = escapeForPage;
  return htmlDocument(
    meta.title,
    selfContainedPolicy,
    css,
    `<header>
<h1>${e(meta.title)}</h1>
<p class="subtitle">${e(meta.subtitle)} · generated ${e(meta.generatedAt.toISOString().replace("T", " ").slice(0, 16))} UTC</p>
</header>
${body}`,
  );
}
