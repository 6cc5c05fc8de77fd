import { randomBytes } from "node:crypto";
import { escapeForPage as e, htmlDocument } from "../cli/html-page.js";
import { pagePolicy } from "../cli/preview-page.js";
import { previewCss } from "../cli/preview-style.js";
import { workspaceScript } from "./workspace-script.js";

/** The workspace's additions to the preview page's style: the list, the badges, the action forms. */
const workspaceCss = `
body { grid-template-columns: minmax(0, 1fr); grid-template-areas: "head" "main"; }
header nav { display: flex; gap: 12px; align-items: center; flex-wrap: wrap; }
header form { margin: 0; }
.late { color: var(--accent); font-weight: 600; }
tr.late td, tr.late th { background: #fef2f2; }
tr.selected td, tr.selected th { outline: 2px solid #2563eb; }
.flash { border: 1px solid #15803d; color: #14532d; border-radius: 6px; padding: 8px 12px; }
.flash.refused { border-color: var(--warn); color: var(--warn); }
form.filters { display: flex; gap: 8px; flex-wrap: wrap; align-items: end; margin: 12px 0; }
form.filters label { display: flex; flex-direction: column; font-size: 12px; color: var(--muted); }
form.filters select, form.filters input { font: inherit; min-width: 0; max-width: 14em; }
form.action { display: flex; gap: 8px; flex-wrap: wrap; align-items: end; margin: 8px 0; }
form.action label { display: flex; flex-direction: column; font-size: 12px; color: var(--muted); }
form.action input, form.action textarea { font: inherit; min-width: 0; }
iframe.draft { width: 100%; min-height: 240px; border: 1px solid var(--line); border-radius: 6px; background: #fff; }
ul.counts { list-style: none; padding: 0; margin: 4px 0; display: flex; flex-wrap: wrap; gap: 4px 14px; }
#live { font-size: 13px; color: var(--muted); }
`;

/**
 * A wide table in a box that scrolls sideways on a narrow screen. The box is a named, focusable region:
 * a keyboard user can scroll it even when no cell holds a link (axe's scrollable-region-focusable).
 */
export function scrollingTable(label: string, table: string): string {
  return `<div class="scroll" role="region" tabindex="0" aria-label="${e(label)}">${table}</div>`;
}

/** What one workspace page needs from its caller: every part already escaped. */
export interface ShellParts {
  readonly title: string;
  /** The signed-in operator, shown with the sign-out button; undefined on the sign-in page. */
  readonly operator?: { readonly name: string; readonly csrf: string } | undefined;
  readonly basePath: string;
  /** Whether the header links the suppressions page (a workspace over an outbox). */
  readonly suppressions?: boolean;
  readonly body: string;
}

/** A workspace page: the preview page's document, policy and style, with one nonce'd script. */
export function workspacePage(parts: ShellParts): { html: string; policy: string } {
  const nonce = randomBytes(16).toString("base64");
  const policy = pagePolicy({ kind: "served", nonce, version: "", query: undefined });
  const base = e(parts.basePath);
  const who =
    parts.operator === undefined
      ? ""
      : `<nav aria-label="session"><a href="${base}/">Queue</a>${parts.suppressions === true ? `<a href="${base}/suppressions">Suppressions</a>` : ""}<span>signed in as <strong>${e(parts.operator.name)}</strong></span><form method="post" action="${base}/sign-out"><input type="hidden" name="csrf" value="${e(parts.operator.csrf)}"><button type="submit">Sign out</button></form><span id="live" role="status" aria-live="polite"></span></nav>`;
  const html = htmlDocument(
    parts.title,
    policy,
    `${previewCss}${workspaceCss}`,
    `<a class="skip" href="#main">Skip to content</a>
<header>
<h1>${e(parts.title)}</h1>
${who}
</header>
<main id="main" data-base="${base}">
${parts.body}
</main>
${parts.operator === undefined ? "" : `<script nonce="${nonce}">${workspaceScript}</script>`}`,
  );
  // frame-ancestors only counts in a header: no other site may frame the workspace to steer clicks.
  return { html, policy: `${policy}; frame-ancestors 'none'` };
}
