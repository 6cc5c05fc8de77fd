import type { Message, SendDecision } from "../core/decision/decision.js";
import { foldLine, noEscape } from "../core/definition/channels.js";
import type { Template } from "../core/definition/template-types.js";
import { type Part, renderParts } from "../core/definition/text-parts.js";
import {
  type HtmlContext,
  htmlReaderText,
  isTextAttribute,
  parseHtml,
  readDocument,
} from "../core/scan/html-reading.js";
import { scanMessage } from "../core/scan/scan.js";

/**
 * The checks of `checkCatalog` that look at each part of a sent message on its own, independently of how
 * `decide` did it: every part passes the outbound scan as its reader sees it (the HTML parsed afresh),
 * and every value of an HTML part lands in text or a quoted attribute that is not a URL, style or handler.
 */

/** One property that did not hold, for the caller to report. */
export interface PartProblem {
  readonly property: "every_part_scanned" | "html_values_in_text";
  readonly detail: string;
}

/** How each part of a message reads; the HTML is parsed as a browser would parse it. */
const partReaders: Readonly<Record<"subject" | "text" | "html", (message: Message) => string | undefined>> = {
  subject: (message) => message.subject,
  text: (message) => message.text,
  html: (message) => (message.html === undefined ? undefined : htmlReaderText(message.html)),
};

/**
 * Scans each part of a sent message on its own, against template text and the decision's values: a find
 * means `decide` let through a part it did not scan (or scanned differently from its reader's view).
 */
export function unscannedParts(template: Template, decision: SendDecision): PartProblem[] {
  const formatted: string[] = [decision.message.to];
  const whole: string[] = [];
  for (const compiled of template.resolveOrder) {
    if (compiled.slot.kind === "choice") {
      const value = decision.values[compiled.name];
      if (value !== undefined) formatted.push(value);
      continue;
    }
    for (const field of compiled.fields) {
      const value = decision.values[field.tag];
      if (value !== undefined) (field.format.kind === "text" ? whole : formatted).push(value);
    }
  }
  // A subject shows values folded onto one line; the folded forms are the same values.
  formatted.push(...formatted.map(foldLine));
  whole.push(...whole.map(foldLine));
  const problems: PartProblem[] = [];
  for (const [part, read] of Object.entries(partReaders)) {
    const text = read(decision.message);
    if (text === undefined) continue;
    const finding = scanMessage(text, { literal: template.literal, formatted, whole });
    if (finding !== undefined) {
      problems.push({
        property: "every_part_scanned",
        detail: `the ${part} was sent holding ${finding.kind === "id" ? "an id-shaped token" : `a ${finding.kind}`} that is neither template text nor a resolved value`,
      });
    }
  }
  return problems;
}

/**
 * Renders the template's HTML for the sections this decision shows, with a unique marker for each value,
 * parses it, and reports each value that did not land in text or a quoted text attribute.
 */
export function misplacedHtmlValues(
  template: Template,
  chosen: Readonly<Record<string, unknown>>,
): PartProblem[] {
  if (template.html === undefined) return [];
  const tags = valueTags(template.html);
  // Lower-case letters and digits, found nowhere in the template: it survives every context unchanged.
  const source = (template.source.html ?? "").toLowerCase();
  let prefix = "qzck";
  while (source.includes(prefix)) prefix += "q";
  const markers = new Map(tags.map((tag, index) => [tag, `${prefix}${index}z`]));
  const html = renderParts(template.html, markers, chosen, noEscape);
  if (typeof html !== "string") {
    return [{ property: "html_values_in_text", detail: `{{${html.missing}}} of the HTML has no value` }];
  }
  const pattern = new RegExp(`${prefix}(\\d+)z`, "g");
  const problems: PartProblem[] = [];
  readDocument(parseHtml(html), html, (text, context) => {
    if (!text.includes(prefix)) return undefined;
    for (const match of text.matchAll(pattern)) {
      const where = misplacement(context);
      if (where !== undefined) {
        problems.push({
          property: "html_values_in_text",
          detail: `{{${tags[Number(match[1])]}}} landed ${where} of the sent HTML`,
        });
      }
    }
    return undefined;
  });
  return problems;
}

function misplacement(context: HtmlContext): string | undefined {
  switch (context.kind) {
    case "text":
      return undefined;
    case "attribute":
      if (!isTextAttribute(context.element, context.name))
        return `in the ${context.name} attribute of <${context.element}>`;
      return context.quoted === false ? `in an unquoted ${context.name} attribute` : undefined;
    case "raw-text":
      return `inside <${context.element}>`;
    default:
      return `in a ${context.kind}`;
  }
}

function valueTags(parts: readonly Part[], into: string[] = []): string[] {
  for (const part of parts) {
    if (part.type === "value" && !into.includes(part.tag)) into.push(part.tag);
    if (part.type === "section") valueTags(part.parts, into);
  }
  return into;
}
