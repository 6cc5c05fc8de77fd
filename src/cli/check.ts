import { basename } from "node:path";
import type { Command } from "commander";
import type { Catalog } from "../core/decision/catalog.js";
import type { CompiledSlot, Template } from "../core/definition/template-types.js";
import { formatWarnings, type LiteralWarning, literalWarnings } from "./check-identifiers.js";
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
      // Only when declared, so the data of a template without it is what it was before it existed.
      ...(template.recipientChoice === undefined ? {} : { recipient: template.recipientChoice }),
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
  const recipient =
    compiled !== template.recipient
      ? ""
      : template.recipientChoice === "model-chooses"
        ? " → recipient, the model's choice (declared)"
        : " → recipient";
  return `${slot.collection}${match.length + where.length > 0 ? ` (${[...match, ...where].join(", ")})` : ""}${recipient}`;
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
