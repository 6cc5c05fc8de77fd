import type { TemplateEffect } from "../core/definition/template-types.js";
import { printableLine } from "../core/message/sanitize.js";
import type { EscalationReport, RateRow } from "../metrics/report.js";
import { formatSummary, percent } from "../metrics/summary.js";
import { CliError, table } from "./output.js";

/** A grouping the text report shows: "template", "reason", "day", "tag" (every tag) or "tag:NAME". */
export type Grouping = string;

const fixed = ["reason", "template", "tag", "day"];
// Shown when asked for: a log written by one catalog has one version, and its table says nothing new.
const onRequest = ["version"];

/** Checks `--by` values, naming the valid ones. */
export function checkGroupings(groupings: readonly string[]): readonly Grouping[] {
  for (const grouping of groupings) {
    if (!fixed.includes(grouping) && !onRequest.includes(grouping) && !/^tag:.+/.test(grouping)) {
      throw new CliError("--by: give template, reason, day, tag or tag:NAME (e.g. tag:category), or version");
    }
  }
  return groupings.length === 0 ? fixed : groupings;
}

const interval = (row: { low: number; high: number }) => `${percent(row.low)}–${percent(row.high)}`;

/** Each template's effect, by id: known when the report was made with the catalog (replay, --catalog). */
export type TemplateEffects = ReadonlyMap<string, TemplateEffect>;

function rateTable(heading: string, rows: readonly RateRow[], effects?: TemplateEffects): string {
  return `\n${heading}\n${table(
    [
      heading.split(" ")[1] ?? "group",
      ...(effects === undefined ? [] : ["effect"]),
      "decided",
      "sent",
      "escalated",
      "rate",
      "95% CI",
    ],
    rows.map((row) => [
      printableLine(row.key),
      // A template no longer in the catalog (or the "(other)" row) has no effect to show.
      ...(effects === undefined ? [] : [effects.get(row.key) ?? "-"]),
      String(row.decided),
      String(row.sent),
      String(row.escalated),
      percent(row.rate),
      interval(row),
    ]),
  )}`;
}

/**
 * The escalation report as text: the summary, then one table per grouping, then what was counted. With
 * `effects`, the table by template shows each template's effect next to its id.
 */
export function formatReport(
  report: EscalationReport,
  groupings: readonly Grouping[],
  effects?: TemplateEffects,
): string {
  let text = formatSummary(report);
  const { period } = report;
  if (period.first !== undefined && period.last !== undefined) {
    text += `period: ${period.first.slice(0, 10)} … ${period.last.slice(0, 10)} (${period.days} day${period.days === 1 ? "" : "s"})${period.undated > 0 ? `; ${period.undated} decision(s) without a time` : ""}\n`;
  } else if (report.overall.decided > 0) {
    text += "period: no decision has a time, so there is no daily view; pass --volume to project\n";
  }
  for (const grouping of groupings) {
    if (grouping === "reason") {
      text += `\nby reason\n${table(
        ["reason", "count", "share", "95% CI"],
        report.byReason.map((row) => [row.reason, String(row.count), percent(row.share), interval(row)]),
      )}`;
    } else if (grouping === "template") {
      text += rateTable("by template", report.byTemplate, effects);
    } else if (grouping === "day") {
      text += rateTable("by day", report.byDay);
    } else if (grouping === "version") {
      text += rateTable("by catalog-version", report.byCatalogVersion);
      text += rateTable("by template@version", report.byTemplateVersion);
    } else {
      const byName = new Map(report.byTag.map((tag) => [tag.tag, tag.rows]));
      const names = grouping === "tag" ? [...byName.keys()] : [grouping.slice(4)];
      for (const name of names) {
        const rows = byName.get(name);
        text +=
          rows === undefined
            ? `\nby tag:${printableLine(name)}: no decision has this tag\n`
            : rateTable(`by tag:${printableLine(name)}`, rows);
      }
    }
  }
  const examples = report.byReason.filter((row) => row.examples !== undefined);
  if (examples.length > 0) {
    text += "\nfirst escalations by reason (line of the history file: detail)\n";
    for (const row of examples) {
      text += `${printableLine(row.reason)} (${row.count}):\n`;
      for (const example of row.examples ?? []) text += `  line ${example.line}: ${example.detail}\n`;
      const more = row.count - (row.examples?.length ?? 0);
      if (more > 0) text += `  and ${more} more\n`;
    }
  }
  if (report.malformed.count > 0) {
    const shown = report.malformed.lines.map((line) => `line ${line.line}: ${line.problem}`);
    const more = report.malformed.count - shown.length;
    text += `\nmalformed lines (${report.malformed.count}, skipped): ${shown.join("; ")}${more > 0 ? `; and ${more} more` : ""}\n`;
  }
  if (report.truncated.length > 0) {
    text += `\ngroups capped (further keys counted under "(other)"): ${report.truncated.join(", ")}\n`;
  }
  text += `\ncounted:\n${report.definition.map((rule) => `- ${rule}`).join("\n")}\n`;
  return text;
}
