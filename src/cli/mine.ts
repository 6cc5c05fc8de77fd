import { existsSync, statSync, writeFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import type { Command } from "commander";
import { type CatalogDraft, draftTemplates } from "../mine/draft.js";
import { countryCode } from "../mine/draft-formats.js";
import { historyLines } from "../mine/history-lines.js";
import { type MiningReport, mineHistory } from "../mine/mine-history.js";
import { localeTag } from "../mine/record-locales.js";
import { auditReplyLines } from "./mine-audit.js";
import { emitCatalog } from "./mine-emit.js";
import { renderMiningHtml } from "./mine-html.js";
import { loadRecords } from "./mine-records.js";
import { formatMining } from "./mine-text.js";
import { openStore } from "./open-store.js";
import type { CliIo } from "./output.js";
import { CliError } from "./output.js";
import { progressBar } from "./progress.js";

/**
 * `formletter mine --records MODULE (HISTORY.jsonl | --audit DB) [--json] [--html FILE] [--emit FILE] [--top K]`:
 * mines a history of free-text messages, or the replies people wrote in the workspace as an outbox's audit
 * log keeps them, for the templates that would replace them.
 */
export function registerMineCommand(program: Command, io: CliIo): void {
  program
    .command("mine [history]")
    .description(
      "mine a history of free-text messages (JSON Lines of { ticketId, records, message: { to, subject?, text }, at? }), or with --audit the replies people wrote in the workspace: clusters as candidate templates, the coverage curve and the predicted escalation rate of a catalog of the k biggest",
    )
    .requiredOption("--records <module>", "the module exporting the defineRecords(...) definition")
    .option(
      "--audit <db>",
      "instead of a history file: an outbox's SQLite file, whose audit log holds the replies people wrote (workspace humanReplies)",
    )
    .option("--json", "machine-readable output")
    .option("--html <file>", "also write the report as a self-contained HTML page")
    .option("--emit <file>", "write a starting catalog in code (TypeScript) from the biggest clusters")
    .option("--top <k>", "most templates on the coverage curve and in --emit", "10")
    .option("--time-zone <zone>", "the zone dates were written in", "UTC")
    .option(
      "--locale <tags>",
      "languages the history also writes dates in, comma-separated (e.g. it,pl-PL); the history's own language is read from its month names without it",
    )
    .option(
      "--country <code>",
      "with --emit: the country of phone numbers written without a + (ISO 3166-1 alpha-2, e.g. DE); inferred from the records without it",
    )
    .action(async (history: string | undefined, options) => {
      const top = Number(options.top);
      if (!Number.isInteger(top) || top < 1 || top > 200)
        throw new CliError("--top: give a whole number from 1 to 200");
      if ((history === undefined) === (options.audit === undefined))
        throw new CliError(
          "give either a history file or --audit DB (the outbox's SQLite file), not both and not neither",
        );
      if (history !== undefined && (!existsSync(history) || !statSync(history).isFile()))
        throw new CliError(`no history file at ${history}`);
      if (!isTimeZone(options.timeZone))
        throw new CliError(`--time-zone ${options.timeZone}: give an IANA zone such as UTC or Europe/Berlin`);
      const country = options.country === undefined ? undefined : countryCode(String(options.country));
      if (options.country !== undefined && country === undefined)
        throw new CliError(
          `--country ${String(options.country).slice(0, 40)}: give a two-letter ISO 3166-1 country code such as DE, US or FR`,
        );
      const locales = options.locale === undefined ? [] : localeTags(String(options.locale));
      const loaded = await loadRecords(options.records);
      const store = options.audit === undefined ? undefined : openStore(options.audit);
      const bar = store === undefined ? progressBar(io, "mine") : undefined;
      const counts = { replies: 0, withoutRecords: 0 };
      let report: MiningReport;
      try {
        report = await mineHistory(
          loaded.records,
          store !== undefined
            ? auditReplyLines(store, counts)
            : historyLines(
                history as string,
                bar === undefined ? {} : { onProgress: (progress) => bar.update(progress) },
              ),
          {
            maxTemplates: top,
            timeZone: options.timeZone,
            locales,
          },
        );
      } finally {
        bar?.stop();
        await store?.close();
      }
      if (store !== undefined && counts.withoutRecords > 0)
        io.stderr(
          `${counts.withoutRecords} of ${counts.replies} replies hold no ticket records (larger than 64 KB, or the loader failed): their values are not masked\n`,
        );
      const source =
        history === undefined ? `the replies people wrote in ${basename(options.audit)}` : basename(history);
      const subtitle = `${source} with records from ${basename(loaded.file)} (export ${loaded.exportName})`;
      let draft: CatalogDraft | undefined;
      if (options.emit !== undefined) {
        draft = draftTemplates(loaded.records, report, {
          top,
          timeZone: options.timeZone,
          ...(country === undefined ? {} : { country }),
        });
        if (draft.templates.length === 0) {
          throw new CliError(
            `--emit: no cluster could become a template (${report.coverage.length} templatable); nothing written`,
          );
        }
        const file = resolve(options.emit);
        writeOut(options.emit, emitCatalog(draft, loaded, file, { history: source }));
        io.stderr(`catalog of ${draft.templates.length} template(s) written to ${options.emit}\n`);
      }
      if (options.html !== undefined) {
        writeOut(
          options.html,
          renderMiningHtml(report, { title: "Mining report", subtitle, generatedAt: new Date() }, draft),
        );
        io.stderr(`HTML report written to ${options.html}\n`);
      }
      io.stdout(
        options.json === true
          ? `${JSON.stringify(miningJson(report, draft), null, 2)}\n`
          : formatMining(report, `Mining report: ${subtitle}`, draft),
      );
    });
}

/**
 * The report as `--json` prints it: the `MiningReport` with every absent figure as `null` (not left out),
 * so the shape is the same whether or not the history has times; with `--emit`, `emitted` says which
 * cluster became which template, which were left out and why, and the identifiers left out of the
 * drafted texts (`null` without `--emit`).
 */
export function miningJson(report: MiningReport, draft?: CatalogDraft) {
  return {
    ...report,
    messagesPerDay: report.messagesPerDay ?? null,
    language: report.language ?? null,
    coverage: report.coverage.map((point) => ({ ...point, humanPerDay: point.humanPerDay ?? null })),
    candidates: report.candidates.map((candidate) => ({
      ...candidate,
      recipient: candidate.recipient ?? null,
      notTemplatable: candidate.notTemplatable ?? null,
    })),
    emitted:
      draft === undefined
        ? null
        : {
            templates: draft.templates.map((template) => ({
              cluster: template.cluster,
              template: template.id,
            })),
            leftOut: draft.leftOut,
            identifiersLeftOut: draft.identifiersLeftOut,
          },
  };
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Writes an output file; a path that cannot be written is a one-line error. */
function writeOut(path: string, text: string): void {
  try {
    writeFileSync(path, text);
  } catch (error) {
    throw new CliError(
      `cannot write ${path}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`,
    );
  }
}

/** The locales of `--locale`, each one Intl formats dates in; else a CliError naming the one that is not. */
function localeTags(list: string): string[] {
  const tags = list
    .split(",")
    .map((tag) => tag.trim())
    .filter((tag) => tag !== "");
  if (tags.length === 0 || tags.length > 16)
    throw new CliError(
      "--locale: give one to sixteen language tags, comma-separated, such as it or pl-PL,cs",
    );
  return tags.map((tag) => {
    const locale = localeTag(tag);
    if (locale === undefined)
      throw new CliError(
        `--locale ${tag.slice(0, 40)}: not a language tag dates can be written in; give one such as it, pl-PL or pt-BR`,
      );
    return locale;
  });
}
