import type { Command } from "commander";
import { compareCatalogs } from "../review/compare-catalogs.js";
import { failedKinds, parseFailOn } from "../review/fail-on.js";
import { reviewItemKinds } from "../review/review-items.js";
import { reviewMarkdown } from "./diff-markdown.js";
import { reviewText } from "./diff-text.js";
import { loadCatalog } from "./load-catalog.js";
import type { CliIo } from "./output.js";
import { CliError } from "./output.js";

/** `formletter diff --base MODULE --head MODULE [--md | --json] [--fail-on KINDS] [--export NAME]`. */
export function registerDiffCommand(program: Command, io: CliIo): void {
  program
    .command("diff")
    .description(
      "compare two catalogs by definition: templates added, removed and changed, the parts that changed, and the review items (widened reading, recipient changed, effect lowered, approval removed, limit raised)",
    )
    .requiredOption("--base <module>", "the catalog module before the change")
    .requiredOption("--head <module>", "the catalog module after the change")
    .option("--export <name>", "the export of both catalog modules to use")
    .option("--md", "markdown for a pull-request comment")
    .option("--json", "machine-readable output")
    .option(
      "--fail-on <kinds>",
      `exit 1 when any of these review items happened: ${reviewItemKinds.join(",")}`,
    )
    .action(async (options) => {
      if (options.md && options.json) throw new CliError("pass --md or --json, not both");
      const failOn = options.failOn === undefined ? undefined : parseFailOn(options.failOn);
      if (failOn !== undefined && !failOn.ok) throw new CliError(failOn.problem);
      const base = await loadCatalog(options.base, options.export);
      const head = await loadCatalog(options.head, options.export);
      const comparison = compareCatalogs(base.catalog, head.catalog);
      const sources = { base: options.base as string, head: options.head as string };
      if (options.json) io.stdout(`${JSON.stringify({ ...sources, ...comparison }, null, 2)}\n`);
      else if (options.md) io.stdout(reviewMarkdown(comparison, sources));
      else io.stdout(reviewText(comparison, sources));
      const failed = failOn === undefined ? [] : failedKinds(comparison.items, failOn.kinds);
      if (failed.length > 0) {
        throw new CliError(
          `review items named by --fail-on: ${failed.map((entry) => `${entry.kind} (${entry.count})`).join(", ")}`,
        );
      }
    });
}
