import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { canonicalTag } from "../core/locale/locale.js";
import { exportWhatsapp, type WhatsappExport } from "../whatsapp/export.js";
import { loadCatalog } from "./load-catalog.js";
import type { CliIo } from "./output.js";
import { CliError } from "./output.js";
import { readSampleTickets } from "./preview-tickets.js";

/**
 * `formletter export whatsapp --catalog MODULE [--twilio] [--out DIR] [--records FILE | --history FILE]`:
 * each WhatsApp template in each locale as Meta's message-template JSON (and Twilio's Content API JSON),
 * with the Twilio transport's `whatsapp` option to paste once the Content SIDs are known.
 */
export function registerExportCommand(program: Command, io: CliIo): void {
  const exportCommand = program
    .command("export")
    .description("write the catalog's templates in the shape a messaging platform approves them");
  exportCommand
    .command("whatsapp")
    .description(
      "each WhatsApp-channel template, in each locale, as Meta's message-template JSON (with --twilio, also Twilio's Content API JSON), variables numbered in order and examples taken from a message decided on a sample ticket. Exit 1 when a template cannot be exported",
    )
    .requiredOption("--catalog <module>", "the module exporting the catalog")
    .option("--export <name>", "the export of the catalog module to use")
    .option("--twilio", "also write Twilio Content API JSON and the transport's whatsapp option")
    .option("--out <dir>", "write one file a template and locale under this folder instead of stdout")
    .option("--records <file>", "sample tickets' records (JSON: one ticket or an array) for the examples")
    .option("--history <file>", "a history file (JSON lines of { ticketId, records }) for the examples")
    .option("--language <tag>", "the language of templates that declare no locales (default en)")
    .action(async (options) => {
      const language = options.language === undefined ? "en" : canonicalTag(options.language);
      if (language === undefined)
        throw new CliError(`--language ${options.language}: give a BCP 47 tag such as en or pt-BR`);
      const tickets = readSampleTickets(options);
      const { catalog } = await loadCatalog(options.catalog, options.export);
      const { exported, skipped } = exportWhatsapp(catalog, { samples: tickets.records, language });
      const twilio = options.twilio === true;
      const transport = transportOption(exported);
      if (options.out === undefined) {
        const meta = exported.map((entry) => entry.meta);
        const content = exported.flatMap((entry) => (entry.twilio === undefined ? [] : [entry.twilio]));
        const out = twilio ? { meta, twilio: content, transport, skipped } : { meta, skipped };
        io.stdout(`${JSON.stringify(out, null, 2)}\n`);
      } else {
        writeFolder(options.out, exported, twilio, transport, io);
      }
      for (const entry of exported) {
        if (entry.samples === "tag names")
          io.stderr(
            `${entry.key}: no sample ticket produced a message, so the examples are the tags' names; pass --records\n`,
          );
        if (twilio && entry.twilio === undefined)
          io.stderr(`${entry.key}: has a header, which twilio/text has not; not written for Twilio\n`);
      }
      for (const entry of skipped) io.stderr(`${entry.template} (${entry.locale}): ${entry.reason}\n`);
      if (skipped.length > 0)
        throw new CliError(`${skipped.length} template text${skipped.length === 1 ? "" : "s"} not exported`);
    });
}

/**
 * The Twilio transport's `whatsapp` option for what was exported: the approved texts exactly as written,
 * and an empty Content SID, which the transport refuses until the SID Twilio returns is filled in.
 */
function transportOption(exported: readonly WhatsappExport[]) {
  return Object.fromEntries(
    exported
      .filter((entry) => entry.twilio !== undefined)
      .map((entry) => [entry.key, { contentSid: "", ...entry.approved }]),
  );
}

function writeFolder(
  dir: string,
  exported: readonly WhatsappExport[],
  twilio: boolean,
  transport: unknown,
  io: CliIo,
): void {
  const write = (folder: string, file: string, value: unknown) => {
    mkdirSync(join(dir, folder), { recursive: true });
    writeFileSync(join(dir, folder, file), `${JSON.stringify(value, null, 2)}\n`);
  };
  for (const entry of exported) {
    // Names are [a-z0-9_] and languages letters, digits and "_": nothing in a file name can climb out.
    const file = `${entry.meta.name}.${entry.meta.language}.json`;
    write("meta", file, entry.meta);
    if (twilio && entry.twilio !== undefined) write("twilio", file, entry.twilio);
  }
  if (twilio) write(".", "twilio-transport.json", { whatsapp: transport });
  io.stdout(`${exported.length} template text${exported.length === 1 ? "" : "s"} written to ${dir}\n`);
}
