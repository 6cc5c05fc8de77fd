import { existsSync } from "node:fs";
import { basename } from "node:path";
import type { Command } from "commander";
import { replayHistory } from "../metrics/replay.js";
import { loadCatalog } from "./load-catalog.js";
import type { CliIo } from "./output.js";
import { CliError } from "./output.js";
import { progressBar } from "./progress.js";
import { reportOptions, reportSettings, templateEffects, writeReport } from "./write-report.js";

/** `formletter replay CATALOG HISTORY.jsonl [--json] [--html FILE] [--by G] [--volume N] [--export NAME]`. */
export function registerReplayCommand(program: Command, io: CliIo): void {
  const command = program
    .command("replay <catalog> <history>")
    .description(
      "run a history file (JSON Lines of { ticketId, records, output, tags?, at? }; records need not repeat the ticketId) through the catalog's decide(): the escalation rate it would have had, and the first lines of each escalation reason; nothing is sent or stored",
    )
    .option("--export <name>", "the export of the catalog module to use");
  reportOptions(command).action(async (catalogFile: string, history: string, options) => {
    const { ticketsPerDay, ...output } = reportSettings(options);
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
      output,
      {
        title: "Escalation report (replay)",
        subtitle: `replay of ${basename(history)} with ${basename(catalogFile)} (export ${exportName}, catalog version ${catalog.version})`,
        generatedAt: new Date(),
      },
      templateEffects(catalog),
    );
  });
}
