import { existsSync, writeFileSync } from "node:fs";
import type { Command } from "commander";
import { compareCatalogs } from "../review/compare-catalogs.js";
import { type DiffReview, diffReview } from "../review/diff-review.js";
import { type FailOn, failedKinds, parseFailOn } from "../review/fail-on.js";
import { outdatedTranslations } from "../review/outdated-translations.js";
import { compareCapacity } from "../review/rate-comparison.js";
import { reviewHistory } from "../review/review-history.js";
import { reviewItemKinds } from "../review/review-items.js";
import { reviewTickets } from "../review/review-tickets.js";
import { reviewHtml } from "./diff-html.js";
import { reviewMarkdown } from "./diff-markdown.js";
import { pointsText } from "./diff-runs.js";
import { reviewText } from "./diff-text.js";
import { type GitModule, isGitModule, materialiseGitModule } from "./git-module.js";
import { loadCatalog } from "./load-catalog.js";
import type { CliIo } from "./output.js";
import { CliError } from "./output.js";
import { progressBar } from "./progress.js";

/**
 * `formletter diff --base MODULE --head MODULE [--history FILE | --tickets FILE] [--md | --json]
 * [--fail-on KINDS] [--max-messages N] [--export NAME]`.
 */
export function registerDiffCommand(program: Command, io: CliIo): void {
  program
    .command("diff")
    .description(
      "compare two catalogs: templates added, removed and changed, the review items (widened reading, recipient changed, effect lowered, approval removed, limit raised), capacity per message, and over --history or --tickets the messages each would send, paired, and both escalation rates",
    )
    .requiredOption("--base <module>", "the catalog module before the change")
    .requiredOption("--head <module>", "the catalog module after the change")
    .option("--export <name>", "the export of both catalog modules to use")
    .option(
      "--history <file>",
      "JSON Lines of { ticketId, records, output }: replay each recorded proposal on both",
    )
    .option(
      "--tickets <file>",
      "JSON Lines of { ticketId, records }: every proposal either catalog allows, on both",
    )
    .option("--max-messages <n>", "changed messages listed (all are counted)", "20")
    .option("--md", "markdown for a pull-request comment")
    .option("--json", "machine-readable output")
    .option("--html <file>", "also write the review as a self-contained HTML page")
    .option(
      "--fail-on <kinds>",
      `exit 1 when any of these happened: ${reviewItemKinds.join(",")},rate-up:N (N percentage points, needs --history)`,
    )
    .action(async (options) => {
      if (options.md && options.json) throw new CliError("pass --md or --json, not both");
      if (options.history !== undefined && options.tickets !== undefined)
        throw new CliError("pass --history or --tickets, not both");
      const failOn = options.failOn === undefined ? undefined : parseFailOn(options.failOn);
      if (failOn !== undefined && !failOn.ok) throw new CliError(failOn.problem);
      if (failOn?.rateUp !== undefined && options.history === undefined)
        throw new CliError(
          "--fail-on rate-up needs --history: the rates are those of the recorded proposals",
        );
      const maxListed = wholeNumber(options.maxMessages);
      const over: string | undefined = options.history ?? options.tickets;
      if (over !== undefined && !existsSync(over))
        throw new CliError(`no ${options.history !== undefined ? "history" : "tickets"} file at ${over}`);
      const materialised: GitModule[] = [];
      try {
        await runReview(options, failOn, over, maxListed, materialised, io);
      } finally {
        for (const module of materialised) module.dispose();
      }
    });
}

/** Loads a catalog from a module path, or from `git:REF:path` through a materialised tree. */
async function loadSide(spec: string, exportName: string | undefined, materialised: GitModule[]) {
  if (!isGitModule(spec)) return loadCatalog(spec, exportName);
  const module = await materialiseGitModule(spec);
  materialised.push(module);
  return loadCatalog(module.file, exportName, { alias: module.alias, tsconfig: module.tsconfig });
}

async function runReview(
  // biome-ignore lint/suspicious/noExplicitAny: commander's parsed options
  options: any,
  failOn: FailOn | undefined,
  over: string | undefined,
  maxListed: number,
  materialised: GitModule[],
  io: CliIo,
): Promise<void> {
  const base = await loadSide(options.base, options.export, materialised);
  const head = await loadSide(options.head, options.export, materialised);
  const bar = over === undefined ? undefined : progressBar(io, "diff");
  const read = { maxListed, ...(bar !== undefined ? { onProgress: bar.update.bind(bar) } : {}) };
  let run: Awaited<ReturnType<typeof reviewHistory | typeof reviewTickets>> | undefined;
  try {
    if (options.history !== undefined)
      run = await reviewHistory(base.catalog, head.catalog, options.history, read);
    else if (options.tickets !== undefined)
      run = await reviewTickets(base.catalog, head.catalog, options.tickets, read);
  } finally {
    bar?.stop();
  }
  const review = diffReview(
    compareCatalogs(base.catalog, head.catalog),
    compareCapacity(base.catalog, head.catalog),
    outdatedTranslations(base.catalog.templates, head.catalog.templates),
    run,
  );
  const sources = {
    base: options.base as string,
    head: options.head as string,
    ...(over !== undefined ? { over } : {}),
  };
  if (options.json) io.stdout(`${JSON.stringify({ sources, ...review }, null, 2)}\n`);
  else if (options.md) io.stdout(reviewMarkdown(review, sources));
  else io.stdout(reviewText(review, sources));
  if (options.html !== undefined) {
    writeHtml(options.html, reviewHtml(review, sources, new Date()));
    io.stderr(`HTML review written to ${options.html}\n`);
  }
  if (failOn !== undefined) failIfNamed(review, failOn);
}

function failIfNamed(review: DiffReview, failOn: FailOn): void {
  const failed = failedKinds(review.items, failOn.kinds).map((entry) => `${entry.kind} (${entry.count})`);
  if (failOn.rateUp !== undefined && review.rates !== null && review.rates.points > failOn.rateUp)
    failed.push(`rate-up (${pointsText(review.rates.points)}, more than ${failOn.rateUp})`);
  if (failed.length > 0) throw new CliError(`review items named by --fail-on: ${failed.join(", ")}`);
}

function writeHtml(file: string, page: string): void {
  try {
    writeFileSync(file, page);
  } catch (error) {
    throw new CliError(`cannot write ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function wholeNumber(text: string): number {
  const value = /^\d{1,6}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value))
    throw new CliError(`--max-messages takes a whole number from 0 to 999999, not "${text.slice(0, 40)}"`);
  return value;
}
