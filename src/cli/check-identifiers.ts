import type { Catalog } from "../core/decision/catalog.js";
import type { Template } from "../core/definition/template-types.js";
import type { Part } from "../core/definition/text-parts.js";
import {
  kindName,
  literalIdentifiers,
  scanFinds,
  shownIdentifier,
  type TextPiece,
} from "../mine/literal-identifiers.js";

/**
 * An identifier written in a template's text: sent as it stands to every recipient of the template and,
 * being template text, never flagged by the outbound scan; a reviewer should see each one.
 */
export interface LiteralWarning {
  readonly template: string;
  /** The locale of the text: a localised template's tag, or "default" for a template without locales. */
  readonly locale: string;
  /** Where: the subject, the text, the HTML (as read and as sent), or a choice slot's labels. */
  readonly part: "subject" | "text" | "html" | "choice";
  /** The choice slot, for part "choice". */
  readonly slot?: string;
  /** "email", "phone" (a phone or other long number), "url" (a URL or host name) or "id". */
  readonly kind: string;
  /** The identifier defanged, never as written; empty when only the outbound scan's own reading found it. */
  readonly text: string;
}

/** One written text of a template in one locale, read as pieces. */
interface WrittenText {
  readonly part: LiteralWarning["part"];
  readonly slot?: string;
  readonly pieces: readonly TextPiece[];
}

/**
 * Every identifier written in the texts of every template, in every locale: subject, text, HTML (as its
 * reader sees it, attribute values too, and as sent, comments too) and choice labels, which are sent as
 * they are written as well.
 */
export function literalWarnings(catalog: Catalog): LiteralWarning[] {
  const warnings: LiteralWarning[] = [];
  const seen = new Set<string>();
  for (const template of catalog.templates) {
    const locales = template.locales;
    const variants: [string, Template][] =
      locales === undefined
        ? [[template.locale ?? "default", template]]
        : locales.tags.map((tag) => [tag, locales.variants.get(tag) ?? template]);
    for (const [locale, variant] of variants) {
      for (const { part, slot, pieces } of writtenTexts(variant)) {
        for (const find of identifiersIn(pieces)) {
          const key = JSON.stringify([template.id, locale, part, slot, find.kind, find.text]);
          if (seen.has(key)) continue;
          seen.add(key);
          warnings.push({
            template: template.id,
            locale,
            part,
            ...(slot === undefined ? {} : { slot }),
            ...find,
          });
        }
      }
    }
  }
  return warnings;
}

/**
 * A template's written texts; a section may show or not, so each text with sections is read both ways.
 * The HTML is read as its reader sees it (entities decoded, attribute values) and as it is sent, where a
 * comment or a style sheet a reader never sees still goes to every recipient.
 */
function writtenTexts(variant: Template): WrittenText[] {
  const texts: WrittenText[] = [];
  const reads: [LiteralWarning["part"], readonly Part[] | undefined][] = [
    ["subject", variant.subject],
    ["text", variant.body],
    ["html", variant.htmlText],
    ["html", variant.html],
  ];
  for (const [part, written] of reads) {
    if (written === undefined) continue;
    texts.push({ part, pieces: piecesOfParts(written, true) });
    if (written.some((piece) => piece.type === "section"))
      texts.push({ part, pieces: piecesOfParts(written, false) });
  }
  for (const compiled of variant.resolveOrder) {
    if (compiled.slot.kind !== "choice") continue;
    for (const label of Object.values(compiled.slot.choices) as string[])
      texts.push({ part: "choice", slot: compiled.name, pieces: [{ text: label }] });
  }
  return texts;
}

/** The identifiers in written text, defanged; the outbound scan's own reading when the finders see none. */
function identifiersIn(pieces: readonly TextPiece[]): { kind: string; text: string }[] {
  const { text, found } = literalIdentifiers(pieces);
  const finds: { kind: string; text: string }[] = found.map(({ kind, start, end }) => ({
    kind,
    text: shownIdentifier(kind, text.slice(start, end)),
  }));
  if (finds.length === 0) {
    const kind = scanFinds(pieces.map((piece) => ("text" in piece ? piece.text : " ")).join(""));
    if (kind !== undefined) finds.push({ kind, text: "" });
  }
  return finds;
}

/**
 * Compiled parts as written text and value places, with every section shown or every one left out. A
 * section's edges read as line breaks: text on either side of one does not run together, since a
 * section and its inverse ("{{#x}}…{{/x}}{{^x}}…{{/x}}") never show together.
 */
function piecesOfParts(parts: readonly Part[], sections: boolean): TextPiece[] {
  return parts.flatMap((part): TextPiece[] =>
    part.type === "text"
      ? [{ text: part.text }]
      : part.type === "value"
        ? [{ value: `{{${part.tag}}}` }]
        : [{ text: "\n" }, ...(sections ? piecesOfParts(part.parts, sections) : []), { text: "\n" }],
  );
}

/** The warnings as `check` prints them, before its closing line; nothing when there are none. */
export function formatWarnings(warnings: readonly LiteralWarning[]): string[] {
  if (warnings.length === 0) return [];
  return [
    `warning: ${warnings.length} identifier(s) written in template text, which goes to every recipient as it stands and is never scanned; make each a record field's slot, or confirm it is meant for everyone:`,
    ...warnings.map(
      (warning) =>
        `  template ${warning.template}, locale ${warning.locale}, ${warning.part}${warning.slot === undefined ? "" : ` ${warning.slot}`}: ${kindName(warning.kind)}${warning.text === "" ? "" : ` ${warning.text}`}`,
    ),
    "",
  ];
}
