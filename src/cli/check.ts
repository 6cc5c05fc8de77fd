import { basename } from "node:path";
import type { Command } from "commander";
import type { Catalog } from "../core/decision/catalog.js";
import type { CompiledSlot, Template } from "../core/definition/template-types.js";
import type { Part } from "../core/definition/text-parts.js";
import {
  kindName,
  literalIdentifiers,
  scanFinds,
  shownIdentifier,
  type TextPiece,
} from "../mine/literal-identifiers.js";
import { loadCatalog } from "./load-catalog.js";
import type { CliIo } from "./output.js";
import { table } from "./output.js";

/** `formletter check CATALOG [--export NAME] [--json]`: for a team's CI. */
export function registerCheckCommand(program: Command, io: CliIo): void {
  program
    .command("check <catalog>")
    .description(
      "load the catalog, running every definition-time check; print its templates, slots, limits, effects and channels; exit 1 on any error",
    )
    .option("--export <name>", "the export of the catalog module to use")
    .option("--json", "machine-readable output")
    .action(async (catalogFile: string, options) => {
      const { catalog, exportName } = await loadCatalog(catalogFile, options.export);
      if (options.json) {
        io.stdout(
          `${JSON.stringify({ ok: true, file: catalogFile, export: exportName, ...describeCatalog(catalog), warnings: literalWarnings(catalog) }, null, 2)}\n`,
        );
        return;
      }
      io.stdout(
        formatCheck(catalog, `${basename(catalogFile)} (export ${exportName})`, literalWarnings(catalog)),
      );
    });
}

/** The catalog as data: what `check --json` prints. */
function describeCatalog(catalog: Catalog) {
  return {
    version: catalog.version,
    escalationCodes: catalog.escalationCodes,
    templates: catalog.templates.map((template) => ({
      id: template.id,
      channel: template.channel,
      audience: template.audience,
      limits: template.limits,
      effect: template.effect,
      approval: template.approval ?? null,
      ...(template.channel === "sms" ? { maxSegments: template.maxSegments } : {}),
      slots: template.resolveOrder.map(describeSlot),
    })),
  };
}

function describeSlot(compiled: CompiledSlot) {
  const { slot } = compiled;
  return {
    name: compiled.name,
    kind: slot.kind,
    optional: slot.optional,
    ...(slot.kind === "ref" ? { collection: slot.collection } : {}),
    ...(slot.kind === "choice" ? { keys: [...compiled.keys.keys()] } : {}),
    ...(compiled.fields.length > 0
      ? {
          shows: compiled.fields.map((field) => ({
            tag: field.tag,
            field: field.field,
            format: field.format.kind,
            maxLength: field.maxLength,
          })),
        }
      : {}),
    ...(compiled.joins.length > 0
      ? { match: compiled.joins.map((join) => `${join.field} = ${join.slot}.${join.otherField}`) }
      : {}),
  };
}

function slotSource(template: Template, compiled: CompiledSlot): string {
  const { slot } = compiled;
  if (slot.kind === "choice") return `keys: ${[...compiled.keys.keys()].join(", ")}`;
  if (slot.kind === "derived") return "computed in code";
  const match = compiled.joins.map((join) => `${join.field} = ${join.slot}.${join.otherField}`);
  const where = slot.where === undefined ? [] : ["where"];
  const recipient = compiled === template.recipient ? " → recipient" : "";
  return `${slot.collection}${match.length + where.length > 0 ? ` (${[...match, ...where].join(", ")})` : ""}${recipient}`;
}

/**
 * An identifier written in a template's text: sent as it stands to every recipient of the template and,
 * being template text, never flagged by the outbound scan; a reviewer should see each one.
 */
export interface LiteralWarning {
  readonly template: string;
  /** The locale of the text: a localised template's tag, or "default" for a template without locales. */
  readonly locale: string;
  readonly part: "subject" | "text" | "html";
  /** "email", "phone" (a phone or other long number), "url" (a URL or host name) or "id". */
  readonly kind: string;
  /** The identifier defanged, never as written; empty when only the outbound scan's own reading found it. */
  readonly text: string;
}

/**
 * Every identifier written in the texts of every template, in every locale: subject, text, and HTML as
 * its reader sees it (attribute values too). A section may show or not, so each text is read both ways.
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
      const parts = { subject: variant.subject, text: variant.body, html: variant.htmlText };
      for (const [part, written] of Object.entries(parts) as [
        LiteralWarning["part"],
        readonly Part[] | undefined,
      ][]) {
        if (written === undefined) continue;
        for (const sections of [true, false]) {
          const pieces = piecesOfParts(written, sections);
          const { text, found } = literalIdentifiers(pieces);
          const finds: { kind: string; text: string }[] = found.map(({ kind, start, end }) => ({
            kind,
            text: shownIdentifier(kind, text.slice(start, end)),
          }));
          if (finds.length === 0) {
            const kind = scanFinds(pieces.map((piece) => ("text" in piece ? piece.text : " ")).join(""));
            if (kind !== undefined) finds.push({ kind, text: "" });
          }
          for (const find of finds) {
            const key = JSON.stringify([template.id, locale, part, find.kind, find.text]);
            if (seen.has(key)) continue;
            seen.add(key);
            warnings.push({ template: template.id, locale, part, ...find });
          }
        }
      }
    }
  }
  return warnings;
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

function formatWarnings(warnings: readonly LiteralWarning[]): string[] {
  if (warnings.length === 0) return [];
  return [
    `warning: ${warnings.length} identifier(s) written in template text, which goes to every recipient as it stands and is never scanned; make each a record field's slot, or confirm it is meant for everyone:`,
    ...warnings.map(
      (warning) =>
        `  template ${warning.template}, locale ${warning.locale}, ${warning.part}: ${kindName(warning.kind)}${warning.text === "" ? "" : ` ${warning.text}`}`,
    ),
    "",
  ];
}

function formatCheck(catalog: Catalog, title: string, warnings: readonly LiteralWarning[]): string {
  const templates = table(
    ["template", "channel", "audience", "per ticket", "per day", "effect", "approval"],
    catalog.templates.map((template) => [
      template.id,
      template.channel === "sms" ? `sms (≤ ${template.maxSegments} segments)` : template.channel,
      template.audience,
      String(template.limits.perTicket),
      String(template.limits.perDay),
      template.effect,
      template.approval ?? "-",
    ]),
  );
  const slots = table(
    ["template", "slot", "kind", "from", "shows"],
    catalog.templates.flatMap((template) =>
      template.resolveOrder.map((compiled) => [
        template.id,
        `${compiled.name}${compiled.slot.optional ? "?" : ""}`,
        compiled.slot.kind,
        slotSource(template, compiled),
        compiled.fields
          .map((field) =>
            field.tag === compiled.name
              ? `${field.field} (${field.format.kind})`
              : `${field.tag}: ${field.field} (${field.format.kind})`,
          )
          .join(", ") || "-",
      ]),
    ),
    72,
  );
  return [
    `catalog ${title}: ${catalog.templates.length} template(s), version ${catalog.version}`,
    `escalation codes: ${catalog.escalationCodes.join(", ")}`,
    "",
    templates.trimEnd(),
    "",
    slots.trimEnd(),
    "",
    ...formatWarnings(warnings),
    `ok: every template passed the definition checks ("?" marks an optional slot)`,
    "",
  ].join("\n");
}
