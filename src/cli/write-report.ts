import { writeFileSync } from "node:fs";
import type { Command } from "commander";
import type { Catalog } from "../core/decision/catalog.js";
import type { EscalationReport } from "../metrics/report.js";
import { parseVolume } from "./duration.js";
import { type HtmlReportMeta, renderHtmlReport } from "./html-report.js";
import type { CliIo } from "./output.js";
import { checkGroupings, formatReport, type Grouping, type TemplateEffects } from "./report-text.js";

/** Options shared by `replay` and `report`. */
export interface ReportOutput {
  readonly json: boolean;
  readonly html: string | undefined;
  readonly groupings: readonly Grouping[];
}

/**
 * Prints the report as text (or JSON with --json) and writes the HTML page with --html. The note about
 * the HTML file goes to stderr, so --json output stays one JSON document. With `effects` (the catalog is
 * known), the tables by template (text and HTML) gain an effect column and the JSON a `templateEffects` field.
 */
export function writeReport(
  io: CliIo,
  report: EscalationReport,
  output: ReportOutput,
  meta: HtmlReportMeta,
  effects?: TemplateEffects,
): void {
  if (output.html !== undefined) {
    writeFileSync(output.html, renderHtmlReport(report, meta, effects));
  }
  const json = () =>
    JSON.stringify(
      effects === undefined ? report : { ...report, templateEffects: Object.fromEntries(effects) },
      null,
      2,
    );
  io.stdout(output.json ? `${json()}\n` : formatReport(report, output.groupings, effects));
  if (output.html !== undefined) io.stderr(`HTML report written to ${output.html}\n`);
}

/** Each template's effect, by id, in catalog order. */
export function templateEffects(catalog: Pick<Catalog, "templates">): TemplateEffects {
  return new Map(catalog.templates.map((template) => [template.id, template.effect]));
}

/** Adds the options `replay` and `report` share: --by, --volume, --html, --json. */
export function reportOptions(command: Command): Command {
  return command
    .option(
      "--by <grouping>",
      "template, reason, day, version, tag or tag:NAME (repeatable); all but version by default",
      collect,
      [],
    )
    .option(
      "--volume <tickets>",
      "project human decisions at this many tickets a day instead of the observed volume",
    )
    .option("--html <file>", "also write the report as a self-contained HTML page")
    .option("--json", "machine-readable output");
}

/** The shared options, checked: what to print, and the volume to project at. */
export function reportSettings(options: {
  by?: string[];
  volume?: string;
  html?: string;
  json?: boolean;
}): ReportOutput & { readonly ticketsPerDay: number | undefined } {
  return {
    groupings: checkGroupings(options.by ?? []),
    ticketsPerDay: parseVolume(options.volume),
    json: options.json === true,
    html: options.html,
  };
}

/** Collects a repeatable option's values. */
export function collect(value: string, previous: readonly string[]): string[] {
  return [...previous, value];
}
