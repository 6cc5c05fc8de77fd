import { mkdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { Command } from "commander";
import type { Catalog } from "../core/decision/catalog.js";
import { loadCatalog } from "./load-catalog.js";
import type { CliIo } from "./output.js";
import { CliError } from "./output.js";
import { selectedTicket, ticketLinks } from "./preview-model.js";
import { renderPreviewPage } from "./preview-page.js";
import { startPreviewServer } from "./preview-server.js";
import { readSampleTickets, type SampleTickets } from "./preview-tickets.js";

/** What `formletter preview` was asked for, checked. */
interface PreviewSettings {
  readonly catalog: string;
  readonly exportName: string | undefined;
  readonly tickets: SampleTickets;
  readonly limit: number;
  readonly port: number;
  readonly out: string | undefined;
  readonly pages: number;
}

/**
 * `formletter preview --catalog MODULE [--records FILE | --history FILE] [--port N] [--out DIR]`: the
 * catalog's review page, served on 127.0.0.1 (reloading as the module or a file it imports changes) or
 * written as static files.
 */
export function registerPreviewCommand(program: Command, io: CliIo): void {
  program
    .command("preview")
    .description(
      "every message the catalog can send for sample tickets, with each template's text, slots and field labels: a local page that reloads as the catalog or a file it imports changes, or static files with --out",
    )
    .requiredOption("--catalog <module>", "the module exporting the catalog")
    .option("--export <name>", "the export of the catalog module to use")
    .option("--records <file>", "sample tickets: one ticket's records (JSON), or an array of them")
    .option("--history <file>", "sample tickets: a history file (JSON lines of { ticketId, records, … })")
    .option("--port <port>", "TCP port on 127.0.0.1; 0 picks a free one", "4400")
    .option("--out <dir>", "write static pages to this folder instead of serving")
    .option("--limit <n>", "most combinations decided per template and ticket", "500")
    .option("--pages <n>", "with --out: most ticket pages written", "25")
    .action(async (options) => {
      const settings = checkSettings(options);
      if (settings.out !== undefined) {
        const { catalog } = await loadCatalog(settings.catalog, settings.exportName);
        const written = writeStaticPreview(catalog, settings);
        io.stdout(
          `preview written to ${join(settings.out, "index.html")} (${written} ticket page${written === 1 ? "" : "s"})\n`,
        );
        return;
      }
      await servePreview(settings, io);
    });
}

function checkSettings(options: Record<string, string | undefined>): PreviewSettings {
  const whole = (name: string, value: string | undefined, low: number, high: number) => {
    const number = Number(value);
    if (!Number.isInteger(number) || number < low || number > high)
      throw new CliError(`--${name} ${value}: give a whole number from ${low} to ${high}`);
    return number;
  };
  const tickets = readSampleTickets({
    ...(options.records === undefined ? {} : { records: options.records }),
    ...(options.history === undefined ? {} : { history: options.history }),
  });
  return {
    catalog: options.catalog as string,
    exportName: options.export,
    tickets,
    limit: whole("limit", options.limit, 1, 1_000_000),
    port: whole("port", options.port, 0, 65_535),
    out: options.out,
    pages: whole("pages", options.pages, 1, 10_000),
  };
}

/** Writes index.html (the first ticket) and ticket-N.html for the next ones; returns how many tickets. */
function writeStaticPreview(catalog: Catalog, settings: PreviewSettings): number {
  const out = settings.out as string;
  mkdirSync(out, { recursive: true });
  const count = Math.min(settings.pages, settings.tickets.records.length);
  const tickets = { ...settings.tickets, ids: settings.tickets.ids.slice(0, count) };
  const links = ticketLinks(catalog, tickets);
  const link = (index: number) => (index === 0 ? "index.html" : `ticket-${index}.html`);
  const omitted = settings.tickets.records.length - count;
  for (let index = 0; index < Math.max(1, count); index++) {
    const html = renderPreviewPage({
      title: `Catalog preview: ${basename(settings.catalog)}`,
      catalog,
      tickets: links,
      selected: selectedTicket(catalog, tickets, index, settings.limit),
      warning: omitted > 0 ? `${omitted} more sample tickets not written (raise --pages)` : undefined,
      mode: { kind: "static" },
      link,
    });
    writeFileSync(join(out, link(index)), html);
  }
  return count;
}

/** Serves until SIGINT or SIGTERM. */
async function servePreview(settings: PreviewSettings, io: CliIo): Promise<void> {
  const server = await startPreviewServer({
    file: settings.catalog,
    ...(settings.exportName === undefined ? {} : { exportName: settings.exportName }),
    tickets: settings.tickets,
    limit: settings.limit,
    port: settings.port,
    onReload: (outcome) =>
      outcome.ok
        ? io.stdout(`formletter preview: catalog reloaded (version ${outcome.version})\n`)
        : io.stderr(`formletter preview: ${outcome.problem}\n`),
  }).catch((error: unknown) => {
    if (error instanceof CliError) throw error;
    const code = (error as { code?: unknown }).code;
    throw new CliError(
      `cannot listen on 127.0.0.1:${settings.port} (${typeof code === "string" ? code : String(error)})`,
    );
  });
  if (settings.tickets.skipped > 0)
    io.stderr(`formletter preview: ${settings.tickets.skipped} history lines were not tickets, skipped\n`);
  io.stdout(`formletter preview: ${server.url}/ (Ctrl-C to stop)\n`);
  await new Promise<void>((done) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      done();
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  await server.close();
}
