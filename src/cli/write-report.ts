import { writeFileSync } from "node:fs";
import type { EscalationReport } from "../metrics/report.js";
import { type HtmlReportMeta, renderHtmlReport } from "./html-report.js";
import type { CliIo } from "./output.js";
import { formatReport, type Grouping } from "./report-text.js";

/** Options shared by `replay` and `report`. */
export interface ReportOutput {
  readonly json: boolean;
  readonly html: string | undefined;
  readonly groupings: readonly Grouping[];
}

/**
 * Prints the report as text (or JSON with --json) and writes the HTML page with --html. The note about
 * the HTML file goes to stderr, so --json output stays one JSON document.
 */
export function writeReport(
  io: CliIo,
  report: EscalationReport,
  output: ReportOutput,
  meta: HtmlReportMeta,
): void {
  if (output.html !== undefined) {
    writeFileSync(output.html, renderHtmlReport(report, meta));
  }
  io.stdout(output.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report, output.groupings));
  if (output.html !== undefined) io.stderr(`HTML report written to ${output.html}\n`);
}

/** Collects a repeatable option's values. */
export function collect(value: string, previous: readonly string[]): string[] {
  return [...previous, value];
}
