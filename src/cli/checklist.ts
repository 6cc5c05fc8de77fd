import { basename } from "node:path";
import type { Command } from "commander";
import { buildChecklist } from "../checklist/checklist.js";
import type { ChecklistOptions } from "../checklist/types.js";
import { formatChecklistMarkdown, formatChecklistText } from "./checklist-format.js";
import { loadCatalog } from "./load-catalog.js";
import type { CliIo } from "./output.js";
import { CliError } from "./output.js";
import { readSampleTickets } from "./preview-tickets.js";

/**
 * `formletter checklist --catalog MODULE [--records SAMPLE.json] [--json|--md]`: the pre-launch checklist,
 * computed from the catalog and a sample ticket. Exit code 1 when any item is ✗, so it can gate CI.
 */
export function registerChecklistCommand(program: Command, io: CliIo): void {
  program
    .command("checklist")
    .description(
      "the pre-launch checklist, computed from the catalog and a sample ticket: per template its recipient, fields and labels, effect and approval, limits, capacity and locales; then the hostile-output fuzz, an injection corpus through the records and the testing properties, live on the sample. Exit 1 on any ✗",
    )
    .requiredOption("--catalog <module>", "the module exporting the catalog")
    .option("--export <name>", "the export of the catalog module to use")
    .option(
      "--records <file>",
      "a sample ticket's records (JSON, as formletter preview --records takes them; of an array, the first)",
    )
    .option("--max-per-day <n>", "the perDay above which a limit looks like none (default 10000)")
    .option("--max-per-ticket <n>", "the perTicket above which a limit looks like none (default 10)")
    .option("--max-bits <n>", "most bits one message may encode (default 20)")
    .option("--runs <n>", "decisions the testing properties try on the sample (default 500)")
    .option("--json", "machine-readable output")
    .option("--md", "Markdown output, for a pull request or a wiki")
    .action(async (options) => {
      if (options.json && options.md) throw new CliError("pass --json or --md, not both");
      const settings = thresholds(options);
      const tickets = readSampleTickets(options.records === undefined ? {} : { records: options.records });
      const { catalog, exportName } = await loadCatalog(options.catalog, options.export);
      const checklist = buildChecklist(catalog, {
        ...settings,
        ...(tickets.records.length > 0 ? { sample: tickets.records[0] } : {}),
      });
      const title = `${basename(options.catalog)} (export ${exportName}, version ${catalog.version})`;
      if (options.json) {
        io.stdout(
          `${JSON.stringify({ catalog: { file: options.catalog, export: exportName, version: catalog.version }, ...checklist }, null, 2)}\n`,
        );
      } else {
        io.stdout(
          options.md ? formatChecklistMarkdown(checklist, title) : formatChecklistText(checklist, title),
        );
      }
      if (!checklist.ok) {
        const failed = checklist.items.filter((item) => item.status === "fail").length;
        throw new CliError(`checklist: ${failed} item${failed === 1 ? "" : "s"} ✗`);
      }
    });
}

function thresholds(options: Record<string, string | undefined>): ChecklistOptions {
  const given: Record<string, number> = {};
  for (const [flag, name, whole] of [
    ["maxPerDay", "maxPerDay", true],
    ["maxPerTicket", "maxPerTicket", true],
    ["maxBits", "maxBitsPerMessage", false],
    ["runs", "propertyRuns", true],
  ] as const) {
    const raw = options[flag];
    if (raw === undefined) continue;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < 0 || (whole && !Number.isInteger(value))) {
      const option = flag.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
      throw new CliError(`--${option} ${raw}: give a ${whole ? "whole " : ""}number ≥ 0`);
    }
    given[name] = value;
  }
  return given;
}
