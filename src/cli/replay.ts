import { existsSync } from "node:fs";
import { basename } from "node:path";
import type { Command } from "commander";
import { replayHistory } from "../metrics/replay.js";
import { parseVolume } from "./duration.js";
import { loadCatalog } from "./load-catalog.js";
import type { CliIo } from "./output.js";
import { progressBar } from "./progress.js";
import { CliError } from "./queue.js";
import { checkGroupings } from "./report-text.js";
import { collect, writeReport } from "./write-report.js";

/** `formletter replay CATALOG HISTORY.jsonl [--json] [--html FILE] [--by G] [--volume N] [--export NAME]`. */
export function registerReplayCommand(program: Command, io: CliIo): void {
  program
    .command("replay <catalog> <history>")
    .description(
      "run a history file (JSON Lines of { ticketId, records, output, tags?, at? }) through the catalog's decide(): the escalation rate it would have had; nothing is sent or stored",
    )
    .option("--export <name>", "the export of the catalog module to use")
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
    .action(async (catalogFile: string, history: string, options) => {
      const groupings = checkGroupings(options.by);
      const ticketsPerDay = parseVolume(options.volume);
      if (!existsSync(history)) throw new CliError(`no history file at ${history}`);
      const { catalog, exportName } = await loadCatalog(catalogFile, options.export);
      const bar = progressBar(io, "replay");
      let report: Awaited<ReturnType<typeof replayHistory>>;
      try {
        report = await replayHistory(catalog, history, {
          ...(ticketsPerDay !== undefined ? { ticketsPerDay } : {}),
          ...(bar !== undefined ? { onProgress: (progress) => bar.update(progress) } : {}),
        });
      } finally {
        bar?.stop();
      }
      writeReport(
        io,
        report,
        { json: options.json === true, html: options.html, groupings },
        {
          title: "Escalation report (replay)",
          subtitle: `replay of ${basename(history)} with ${basename(catalogFile)} (export ${exportName}, catalog version ${catalog.version})`,
          generatedAt: new Date(),
        },
      );
    });
}
