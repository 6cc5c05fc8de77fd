import type { DefaultTreeAdapterMap } from "parse5";
import { lazyDependency } from "../lazy-dependency.js";

// Loaded at the first HTML part: catalogs without HTML e-mail never need the parser.
const htmlParser = lazyDependency<typeof import("parse5")>("parse5");

/**
 * How a browser reads an HTML document, for two uses: where a placed value lands (text, an attribute, a
 * comment, a raw-text element…), and the text a reader sees (text nodes and attribute values, entities
 * decoded), which the outbound scan reads.
 */

type Node = DefaultTreeAdapterMap["node"];
type Element = DefaultTreeAdapterMap["element"];

/** Where in a parsed document a piece of text landed. */
export type HtmlContext =
  | { readonly kind: "text" }
  | {
      readonly kind: "attribute";
      readonly element: string;
      readonly name: string;
      /** Undefined where the parser copied the element (no source position); the original is checked. */
      readonly quoted: boolean | undefined;
      /** Same object for the same attribute of the same element. */
      readonly owner: object;
    }
  | { readonly kind: "attribute-name"; readonly element: string }
  | { readonly kind: "tag-name" }
  | { readonly kind: "comment" }
  | { readonly kind: "doctype" }
  | { readonly kind: "raw-text"; readonly element: string };

/**
 * Elements whose content is not ordinary text: raw text and RCDATA (script, style, textarea, title…),
 * foreign content (svg, math: their own URL attributes and CDATA), inert or fallback content (template,
 * noscript), plaintext, after which everything is text, and select and frameset, inside which a browser
 * ignores most start tags — so whether a later `<style>` opens raw text would depend on sections.
 */
export const rawTextElements: ReadonlySet<string> = new Set([
  "script",
  "style",
  "textarea",
  "title",
  "xmp",
  "iframe",
  "noembed",
  "noframes",
  "noscript",
  "plaintext",
  "template",
  "svg",
  "math",
  "select",
  "frameset",
]);

// Attributes a client follows, fetches, runs or styles with: a value there is a link or code, not text.
const urlAttributes = new Set([
  "href",
  "src",
  "srcset",
  "imagesrcset",
  "srcdoc",
  "action",
  "formaction",
  "poster",
  "background",
  "cite",
  "data",
  "codebase",
  "classid",
  "archive",
  "code",
  "longdesc",
  "lowsrc",
  "dynsrc",
  "usemap",
  "manifest",
  "ping",
  "profile",
  "icon",
  "itemtype",
  "itemid",
  "xmlns",
  "attributionsrc",
  "style",
  "http-equiv",
  "content",
  "is",
]);
// Names that hold a URL by convention (data-src, data-href, lazy-loading and tracking scripts).
const urlLikeName = /href|src|url|uri|action|^on/;
// Elements every attribute of which configures the document, loads something or decides how code runs
// (a value in <script type> could turn inert text into a script).
const configuringElements = new Set([
  "script",
  "style",
  "iframe",
  "template",
  "svg",
  "math",
  "meta",
  "base",
  "link",
  "param",
  "object",
  "embed",
  "applet",
  "frame",
  "frameset",
  "form",
]);

/** Whether a value may be placed in this attribute of this element (quoting is checked apart). */
export function isTextAttribute(element: string, name: string): boolean {
  return !configuringElements.has(element) && !urlAttributes.has(name) && !urlLikeName.test(name);
}

// Elements a browser lays out as blocks by default: their text does not run on into the next.
const blockElements = new Set(
  (
    "address article aside blockquote body br caption center dd details dialog dir div dl dt fieldset " +
    "figcaption figure footer form h1 h2 h3 h4 h5 h6 head header hgroup hr html legend li listing main " +
    "menu nav ol optgroup option p pre section summary table tbody td tfoot th thead tr ul"
  ).split(" "),
);
const keepsWhitespace = new Set(["pre", "listing", "textarea", "plaintext"]);
// Their text is never shown to a reader.
const invisibleText = new Set(["script", "style", "template"]);

/** Parses HTML as a browser does: with scripting on (noscript is raw text), positions kept for quoting. */
export function parseHtml(source: string): DefaultTreeAdapterMap["document"] {
  return htmlParser().parse(source, { sourceCodeLocationInfo: true });
}

/**
 * Walks a parsed document in source order: `visit` gets every piece of markup text with its context
 * (text nodes, attribute names and values, tag names, comments, doctypes); the return value is the text
 * a reader sees: text nodes with white space folded as browsers do, a line break around each block
 * element, each attribute value on a line of its own. What `visit` returns for a comment is added to it.
 */
export function readDocument(
  document: DefaultTreeAdapterMap["document"],
  source: string,
  visit: (text: string, context: HtmlContext) => string | undefined = () => undefined,
): string {
  let out = "";
  const walk = (node: Node, raw: string | undefined, pre: boolean, hidden: boolean) => {
    switch (node.nodeName) {
      case "#text": {
        const { value } = node as DefaultTreeAdapterMap["textNode"];
        visit(value, raw === undefined ? { kind: "text" } : { kind: "raw-text", element: raw });
        if (!hidden) out += pre ? value : value.replace(/[\t\n\f\r ]+/g, " ");
        return;
      }
      case "#comment":
        out += visit((node as DefaultTreeAdapterMap["commentNode"]).data, { kind: "comment" }) ?? "";
        return;
      case "#documentType": {
        const doctype = node as DefaultTreeAdapterMap["documentType"];
        visit(`${doctype.name} ${doctype.publicId} ${doctype.systemId}`, { kind: "doctype" });
        return;
      }
      case "#document":
      case "#document-fragment":
        for (const child of (node as DefaultTreeAdapterMap["parentNode"]).childNodes)
          walk(child, raw, pre, hidden);
        return;
    }
    const element = node as Element;
    const name = element.tagName;
    visit(name, { kind: "tag-name" });
    const located = element.sourceCodeLocation?.attrs;
    for (const attribute of element.attrs) {
      const qualified = attribute.prefix ? `${attribute.prefix}:${attribute.name}` : attribute.name;
      visit(qualified, { kind: "attribute-name", element: name });
      const position = located?.[qualified] ?? located?.[attribute.name];
      visit(attribute.value, {
        kind: "attribute",
        element: name,
        name: qualified,
        quoted:
          position === undefined
            ? undefined
            : isQuoted(source.slice(position.startOffset, position.endOffset)),
        owner: attribute,
      });
      out += `\n${attribute.value}\n`;
    }
    const block = blockElements.has(name);
    if (block) out += "\n";
    const innerRaw = raw ?? (rawTextElements.has(name) ? name : undefined);
    const innerPre = pre || keepsWhitespace.has(name);
    const innerHidden = hidden || invisibleText.has(name);
    for (const child of element.childNodes) walk(child, innerRaw, innerPre, innerHidden);
    if (name === "template") {
      const content = (element as DefaultTreeAdapterMap["template"]).content;
      for (const child of content.childNodes) walk(child, innerRaw, innerPre, true);
    }
    if (block) out += "\n";
  };
  walk(document, undefined, false, false);
  return out;
}

/** `name="…"` or `name='…'`; not `name=…` and not a bare `name`. */
function isQuoted(attributeSource: string): boolean {
  return /^[^=]*=[\t\n\f\r ]*["']/.test(attributeSource);
}

/**
 * The text a reader of this HTML sees: text nodes and attribute values, entities decoded, white space
 * folded. What the outbound scan reads of an HTML part.
 *
 * @example
 * import { htmlReaderText } from "./html-reading.js";
 * htmlReaderText('<p title="a &amp; b">x&#64;y</p>'); // "…a & b…x@y…"
 */
export function htmlReaderText(html: string): string {
  return readDocument(parseHtml(html), html);
}
