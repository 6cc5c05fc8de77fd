import { templateError } from "../errors.js";
import { merged } from "../merged.js";
import { type HtmlContext, isTextAttribute, parseHtml, readDocument } from "../scan/html-reading.js";
import type { Part } from "./text-parts.js";

/**
 * The definition-time check of a template's HTML: each `{{tag}}` and section boundary is replaced by a
 * unique marker, the result is parsed as a browser would (parse5), and the context each marker landed in
 * decides. Values are allowed only in text and in quoted values of attributes that are neither URLs,
 * styles nor event handlers; sections must open and close in text, or inside one quoted attribute value,
 * so hiding a section cannot move what follows into another context.
 */

/** What the HTML check gives back: the HTML as a reader sees it, as parts the scan renders per decision. */
export interface HtmlReading {
  /** Text nodes and attribute values with entities decoded, sections and value tags kept. */
  readonly parts: readonly Part[];
  /** The literal text a reader sees, for the scan's allowance. */
  readonly literal: string;
}

type Boundary =
  | { readonly kind: "value"; readonly tag: string; readonly slot: string }
  | { readonly kind: "open" | "close"; readonly tag: string; readonly slot: string };

/**
 * Checks where the values of a template's HTML land and derives its reader's view. Throws a
 * `DefinitionError` naming the template, the slot and the fix.
 */
export function checkHtml(id: string, parts: readonly Part[]): HtmlReading {
  checkAmpersands(id, parts, false);
  const boundaries: Boundary[] = [];
  const prefix = markerPrefix(parts);
  const source = withMarkers(parts, boundaries, prefix);
  const markerPattern = new RegExp(`${prefix}(\\d+)z`, "g");
  const sectionMarker = new RegExp(`^${prefix}(\\d+)z$`);

  const document = parseHtml(source);
  const found = boundaries.map(() => [] as HtmlContext[]);
  const visible = readDocument(document, source, (text, context) => {
    if (!text.includes(prefix)) return undefined;
    // A comment that is exactly a section's marker is where the section opens or closes, in text.
    const section = context.kind === "comment" ? sectionMarker.exec(text) : null;
    if (section !== null && boundaries[Number(section[1])]?.kind !== "value") {
      found[Number(section[1])]?.push({ kind: "text" });
      return text;
    }
    for (const match of text.matchAll(markerPattern)) found[Number(match[1])]?.push(context);
    return undefined;
  });

  for (const [index, boundary] of boundaries.entries()) {
    const contexts = found[index] ?? [];
    const shown = boundary.kind === "value" ? `{{${boundary.tag}}}` : `{{#${boundary.tag}}}`;
    if (contexts.length === 0) {
      templateError(
        id,
        `html: ${shown} lands where an HTML parser drops it (an end tag, a repeated attribute, a misplaced doctype); place it in text or a quoted attribute value`,
        boundary.slot,
      );
    }
    for (const context of contexts) {
      const problem =
        boundary.kind === "value" ? valueProblem(context) : sectionProblem(context, boundary.tag);
      if (problem !== undefined) templateError(id, `html: ${shown} ${problem}`, boundary.slot);
    }
  }
  checkSections(id, boundaries, found);

  // The reader's view must hold every marker once, in template order: else the parser moved or copied one.
  const order = [...visible.matchAll(markerPattern)].map((match) => Number(match[1]));
  const misplaced = boundaries.findIndex((_boundary, index) => order[index] !== index);
  if (misplaced !== -1 || order.length !== boundaries.length) {
    // The first marker out of place is the one the parser moved (or copied).
    const moved = misplaced === -1 ? boundaries.length - 1 : (order[misplaced] ?? misplaced);
    const boundary = (boundaries[moved] ?? boundaries[misplaced]) as Boundary;
    templateError(
      id,
      `html: the markup around {{${boundary.tag}}} is misnested, so a browser moves or copies it (misnested inline elements, text directly inside <table>); close each element in the order it was opened and keep text in table cells`,
      boundary.slot,
    );
  }
  const segments = visible.split(new RegExp(`<!--${prefix}\\d+z-->|${prefix}\\d+z`));
  let next = 0;
  const take = (): Part => ({ type: "text", text: segments[next++] ?? "" });
  const rebuild = (list: readonly Part[]): Part[] => {
    const out: Part[] = [];
    for (const part of list) {
      if (part.type === "text") continue;
      if (part.type === "value") {
        out.push(part, take());
        continue;
      }
      const inner = [take(), ...rebuild(part.parts)];
      out.push(merged(part, { parts: inner }), take());
    }
    return out;
  };
  const readerParts = [take(), ...rebuild(parts)].filter((part) => part.type !== "text" || part.text !== "");
  return { parts: readerParts, literal: segments.join("\n") };
}

/**
 * A marker prefix that occurs nowhere in the template's text. Lower-case letters and digits only, so it
 * survives where the parser lower-cases (tag and attribute names) and is one word in every context.
 */
function markerPrefix(parts: readonly Part[]): string {
  const text = literalOf(parts).toLowerCase();
  let counter = 0;
  while (text.includes(`qzfl${counter}m`)) counter++;
  return `qzfl${counter}m`;
}

function literalOf(parts: readonly Part[]): string {
  return parts
    .map((part) => (part.type === "text" ? part.text : part.type === "section" ? literalOf(part.parts) : ""))
    .join("");
}

/**
 * The HTML with every section shown, each value tag replaced by a numbered marker, each section boundary
 * by a comment holding one: a comment stays where it is written (text inside <table> is moved before it),
 * and where a value could not go, neither can the comment.
 */
function withMarkers(parts: readonly Part[], boundaries: Boundary[], prefix: string): string {
  let out = "";
  const marker = (boundary: Boundary) => {
    boundaries.push(boundary);
    const word = `${prefix}${boundaries.length - 1}z`;
    return boundary.kind === "value" ? word : `<!--${word}-->`;
  };
  for (const part of parts) {
    if (part.type === "text") out += part.text;
    else if (part.type === "value")
      out += marker({ kind: "value", tag: part.tag, slot: part.tag.split(".")[0] ?? part.tag });
    else {
      out += marker({ kind: "open", tag: part.tag, slot: part.slot });
      out += withMarkers(part.parts, boundaries, prefix);
      out += marker({ kind: "close", tag: part.tag, slot: part.slot });
    }
  }
  return out;
}

function valueProblem(context: HtmlContext): string | undefined {
  switch (context.kind) {
    case "text":
      return undefined;
    case "attribute":
      if (!isTextAttribute(context.element, context.name)) {
        return `is in the ${context.name} attribute of <${context.element}>, which a client follows, loads or runs (URLs, styles, event handlers, ${context.element === "meta" || context.element === "link" || context.element === "base" ? `<${context.element}> settings` : "srcset, action…"}); values never go there: show the value as text instead, e.g. <a href="https://your.example/orders">{{order}}</a>`;
      }
      if (context.quoted === false) {
        return `is in an unquoted value of the ${context.name} attribute of <${context.element}>; quote it: ${context.name}="{{…}}"`;
      }
      return undefined;
    case "attribute-name":
      return `is inside an attribute name of <${context.element}>; values go in text or quoted attribute values only`;
    case "tag-name":
      return "is inside a tag name; values go in text or quoted attribute values only";
    case "comment":
      return "is inside an HTML comment (some clients read conditional comments as HTML); move it out of the comment";
    case "doctype":
      return "is inside the doctype; move it into the body";
    case "raw-text":
      return `is inside <${context.element}>, whose content is not ordinary text (script, style, textarea, title, svg, math, template, noscript, select…); move it into an ordinary element such as <p> or <span>`;
  }
}

function sectionProblem(context: HtmlContext, tag: string): string | undefined {
  if (context.kind === "text") return undefined;
  if (context.kind === "attribute" && context.quoted !== false) return undefined;
  return `(or its {{/${tag}}}) is not in text or a quoted attribute value; a section must open and close in text, or both inside one quoted attribute value`;
}

/** An open and its close in the same context: both in text, or both in the same attribute of one element. */
function checkSections(id: string, boundaries: readonly Boundary[], found: readonly HtmlContext[][]): void {
  const open: number[] = [];
  for (const [index, boundary] of boundaries.entries()) {
    if (boundary.kind === "value") continue;
    if (boundary.kind === "open") {
      open.push(index);
      continue;
    }
    const start = found[open.pop() as number]?.[0];
    const end = found[index]?.[0];
    const same =
      start?.kind === "text"
        ? end?.kind === "text"
        : start?.kind === "attribute" && end?.kind === "attribute" && start.owner === end.owner;
    if (!same) {
      templateError(
        id,
        `html: section {{#${boundary.tag}}}…{{/${boundary.tag}}} opens in one context and closes in another (text, a tag, an attribute); open and close it in text, around whole elements, or inside one quoted attribute value`,
        boundary.slot,
      );
    }
  }
}

/**
 * "&" right before a tag can spell a character reference with the value ("&" and "#64;" show "@"), which
 * escaping the value alone cannot prevent.
 */
function checkAmpersands(id: string, parts: readonly Part[], inSection: boolean): void {
  parts.forEach((part, index) => {
    if (part.type === "section") checkAmpersands(id, part.parts, true);
    if (part.type !== "text" || !/&[#0-9A-Za-z]*$/.test(part.text)) return;
    const after = parts[index + 1];
    // At the very end of the HTML nothing can follow the "&"; literal text after it is the author's own.
    if ((after === undefined && !inSection) || after?.type === "text") return;
    const slot =
      after === undefined ? undefined : after.type === "section" ? after.slot : after.tag.split(".")[0];
    templateError(
      id,
      `html: an "&" comes right before a tag (or a section's end), so a value could complete a character reference ("&" and "#64;" show "@"); write "&amp;" or put a space after it`,
      slot,
    );
  });
}
