import { existsSync } from "node:fs";
import { basename } from "node:path";
import type { Command } from "commander";
import { reportFromAudit } from "../metrics/audit.js";
import { sqliteStore } from "../sqlite/store.js";
import { parseTime, parseVolume } from "./duration.js";
import type { CliIo } from "./output.js";
import { CliError } from "./queue.js";
import { checkGroupings } from "./report-text.js";
import { collect, writeReport } from "./write-report.js";

/** `formletter report --db FILE [--since 7d] [--until T] [--by G] [--volume N] [--html FILE] [--json]`. */
export function registerReportCommand(program: Command, io: CliIo): void {
  program
    .command("report")
    .description("the escalation report of an outbox's audit log (SQLite), read in one streaming pass")
    .requiredOption("--db <file>", "the outbox's SQLite file")
    .option("--since <when>", "from this long ago (7d, 24h, 30m, 2w) or this ISO date; all by default")
    .option("--until <when>", "up to (not including) this time, same forms as --since")
    .option(
      "--by <grouping>",
      "template, reason, day, tag or tag:NAME (repeatable); all by default",
      collect,
      [],
    )
    .option(
      "--volume <tickets>",
      "project human decisions at this many tickets a day instead of the observed volume",
    )
    .option("--html <file>", "also write the report as a self-contained HTML page")
    .option("--json", "machine-readable output")
    .action(async (options) => {
      const groupings = checkGroupings(options.by);
      const ticketsPerDay = parseVolume(options.volume);
      const now = Date.now();
      const since = options.since === undefined ? undefined : parseTime(options.since, "--since", now);
      const until = options.until === undefined ? undefined : parseTime(options.until, "--until", now);
      // A typo must not create an empty database and report zero escalations.
      if (!existsSync(options.db))
        throw new CliError(`no outbox database at ${options.db}; pass the file the outbox writes with --db`);
      const store = sqliteStore(options.db);
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
        { json: options.json === true, html: options.html, groupings },
        {
          title: "Escalation report",
          subtitle: `audit log of ${basename(options.db)}${window.length > 0 ? `, ${window.join(" ")} UTC` : ""}`,
          generatedAt: new Date(now),
        },
      );
    });
}
