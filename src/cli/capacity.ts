import { readFileSync } from "node:fs";
import { basename } from "node:path";
import type { Command } from "commander";
import { type CatalogCapacity, catalogCapacity } from "../capacity/capacity.js";
import type { FieldExposure } from "../capacity/exposure.js";
import { printableLine } from "../core/message/sanitize.js";
import { loadCatalog } from "./load-catalog.js";
import type { CliIo } from "./output.js";
import { CliError, table } from "./output.js";

const bits = (value: number) =>
  value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const count = (value: number) => value.toLocaleString("en-US");

/** `formletter capacity CATALOG [--records SAMPLE.json] [--assume N] [--export NAME] [--json]`. */
export function registerCapacityCommand(program: Command, io: CliIo): void {
  program
    .command("capacity <catalog>")
    .description(
      "what a steered model could encode through the catalog: choices per slot, bits per message, worst case per ticket and per day, and the fields each template shows",
    )
    .option(
      "--records <file>",
      "a sample ticket's records (JSON, as your loader returns them) to count candidates on",
    )
    .option(
      "--assume <n>",
      "without --records: records per collection to assume (default: records.maxPerCollection)",
    )
    .option("--export <name>", "the export of the catalog module to use")
    .option("--json", "machine-readable output")
    .action(async (catalogFile: string, options) => {
      const { catalog, exportName } = await loadCatalog(catalogFile, options.export);
      if (options.records !== undefined && options.assume !== undefined) {
        throw new CliError("pass --records or --assume, not both");
      }
      let assume: number | undefined;
      if (options.assume !== undefined) {
        assume = Number(options.assume);
        if (!Number.isInteger(assume) || assume < 0)
          throw new CliError(`--assume ${options.assume}: give a whole number of records`);
      }
      const capacity = catalogCapacity(catalog, {
        ...(options.records !== undefined ? { sample: readSample(options.records) } : {}),
        ...(assume !== undefined ? { recordsPerCollection: assume } : {}),
      });
      if (options.json) {
        io.stdout(
          `${JSON.stringify({ catalog: { file: catalogFile, export: exportName, version: catalog.version }, ...capacity }, null, 2)}\n`,
        );
        return;
      }
      io.stdout(
        formatCapacity(
          capacity,
          `${basename(catalogFile)} (export ${exportName}, version ${catalog.version})`,
        ),
      );
    });
}

function readSample(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    throw new CliError(`cannot read the sample records at ${file}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new CliError(
      `${file} is not JSON: pass one ticket's records, { "ticketId": …, "<collection>": [ … ] }`,
    );
  }
}

/** The capacity as tables: choices per slot, worst case per template with totals, fields shown. */
function formatCapacity(capacity: CatalogCapacity, title: string): string {
  const { basis } = capacity;
  const lines: string[] = [
    `capacity of ${title}`,
    `template choice: ${capacity.templateChoices} templates = log2(${capacity.templateChoices}) = ${bits(capacity.templates[0]?.templateBits ?? 0)} bits`,
    basis.kind === "sample"
      ? `candidates: counted on sample ticket ${printableLine(basis.ticketId)} (${Object.entries(
          basis.records,
        )
          .map(([name, n]) => `${name} ${n}`)
          .join(", ")})`
      : `candidates: ASSUMED ${count(basis.recordsPerCollection)} records per ref slot (${basis.from === "maxPerCollection" ? "records.maxPerCollection, the most one ticket may hold" : "--assume"}); pass --records SAMPLE.json to count a real ticket`,
    "",
  ];
  const slotRows = capacity.templates.flatMap((template) =>
    template.slots.map((slot) => [
      template.id,
      slot.slot,
      slot.kind,
      `${slot.from}${slot.optional ? " (optional)" : ""}`,
      count(slot.candidates),
      bits(slot.bits),
    ]),
  );
  const sampled = capacity.templates.some((template) => template.sample !== undefined);
  const localised = capacity.templates.some((template) => template.locales.length > 0);
  const templateRows = capacity.templates.map((template) => [
    template.id,
    template.channel,
    bits(template.bitsPerMessage),
    count(template.perTicket.messages),
    bits(template.perTicket.bits),
    count(template.perDay.messages),
    bits(template.perDay.bits),
    template.effect,
    template.approval ?? "-",
    ...(localised ? [template.locales.join(", ") || "-"] : []),
    ...(sampled ? [sampleText(template.sample)] : []),
  ]);
  const { perTicket, perDay } = capacity.totals;
  templateRows.push([
    "total",
    "",
    "",
    count(perTicket.messages),
    bits(perTicket.bits),
    count(perDay.messages),
    bits(perDay.bits),
    "",
    "",
    ...(localised ? [""] : []),
    ...(sampled ? [""] : []),
  ]);
  lines.push(
    "choices per slot",
    table(["template", "slot", "kind", "from", "candidates", "bits"], slotRows).trimEnd(),
    "",
    "worst case (every template at its limits)",
    table(
      [
        "template",
        "channel",
        "bits/message",
        "msgs/ticket",
        "bits/ticket",
        "msgs/day",
        "bits/day",
        "effect",
        "approval",
        ...(localised ? ["locales"] : []),
        ...(sampled ? ["sample: distinct messages"] : []),
      ],
      templateRows,
    ).trimEnd(),
    "",
    "fields shown",
    table(
      ["template", "slot", "field", "use", "label", "shown to"],
      capacity.templates.flatMap((template) => template.fields.map(fieldRow)),
      60,
    ).trimEnd(),
    "",
    `records of other tickets reachable: ${capacity.otherTicketsReachable}`,
    ...capacity.notes.map((note) => `- ${note}`),
  );
  return `${lines.join("\n")}\n`;
}

function sampleText(sample: CatalogCapacity["templates"][number]["sample"]): string {
  if (sample === undefined) return "-";
  if (!sample.enumerated) return `not counted (${count(sample.proposals)} proposals)`;
  const total = `${count(sample.messages)} of ${count(sample.proposals)} proposals = ${bits(sample.bits)} bits`;
  if (sample.byLocale === undefined || Object.keys(sample.byLocale).length === 0) return total;
  const perLocale = Object.entries(sample.byLocale).map(
    ([locale, messages]) => `${locale} ${count(messages)}`,
  );
  return `${total} (${perLocale.join(", ")})`;
}

function fieldRow(field: FieldExposure): string[] {
  const label =
    field.label === "untrusted"
      ? `UNTRUSTED, written by ${field.author}`
      : field.label === "private"
        ? `PRIVATE, readable by ${field.readableBy?.join(", ")}`
        : field.label === "computed"
          ? "computed in code"
          : "-";
  return [
    field.template,
    field.slot,
    field.collection === undefined ? "(derived)" : `${field.collection}.${field.field}`,
    field.use,
    label,
    field.shownTo,
  ];
}
