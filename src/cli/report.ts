import { basename } from "node:path";
import type { Command } from "commander";
import { reportFromAudit } from "../metrics/audit.js";
import { parseTime } from "./duration.js";
import { loadCatalog } from "./load-catalog.js";
import { openStore } from "./open-store.js";
import type { CliIo } from "./output.js";
import { reportOptions, reportSettings, templateEffects, writeReport } from "./write-report.js";

/**
 * `formletter report --db FILE [--since 7d] [--until T] [--by G] [--volume N] [--html FILE] [--json]
 * [--catalog MODULE]`.
 */
export function registerReportCommand(program: Command, io: CliIo): void {
  const command = program
    .command("report")
    .description("the escalation report of an outbox's audit log (SQLite), read in one streaming pass")
    .requiredOption("--db <file>", "the outbox's SQLite file")
    .option("--since <when>", "from this long ago (7d, 24h, 30m, 2w) or this ISO date; all by default")
    .option("--until <when>", "up to (not including) this time, same forms as --since")
    .option("--catalog <module>", "the catalog module: show each template's effect in the table by template")
    .option("--export <name>", "with --catalog: the export of the catalog module to use");
  reportOptions(command).action(async (options) => {
    const { ticketsPerDay, ...output } = reportSettings(options);
    const now = Date.now();
    const since = options.since === undefined ? undefined : parseTime(options.since, "--since", now);
    const until = options.until === undefined ? undefined : parseTime(options.until, "--until", now);
    const effects =
      options.catalog === undefined
        ? undefined
        : templateEffects((await loadCatalog(options.catalog, options.export)).catalog);
    const store = openStore(options.db);
    let report: Awaited<ReturnType<typeof reportFromAudit>>;
    try {
      report = await reportFromAudit(
        store.queryAudit({
          ...(since !== undefined ? { since } : {}),
          ...(until !== undefined ? { until } : {}),
        }),
        ticketsPerDay !== undefined ? { ticketsPerDay } : {},
      );
    } finally {
      await store.close();
    }
    const window = [
      since === undefined ? "" : `since ${new Date(since).toISOString().slice(0, 16).replace("T", " ")}`,
      until === undefined ? "" : `until ${new Date(until).toISOString().slice(0, 16).replace("T", " ")}`,
    ].filter(Boolean);
    writeReport(
      io,
      report,
      output,
      {
        title: "Escalation report",
        subtitle: `audit log of ${basename(options.db)}${window.length > 0 ? `, ${window.join(" ")} UTC` : ""}`,
        generatedAt: new Date(now),
      },
      effects,
    );
  });
}
