import { readFileSync } from "node:fs";
import { basename } from "node:path";
import type { Command } from "commander";
import { type PromptCost, promptCost } from "../core/llm/cost.js";
import { checkProvider, type LlmProvider } from "../core/llm/providers.js";
import type { ToolsCache } from "../core/llm/stages.js";
import { loadCatalog } from "./load-catalog.js";
import type { CliIo } from "./output.js";
import { CliError, table } from "./output.js";

const count = (value: number) => Math.round(value).toLocaleString("en-US");

/**
 * `formletter cost CATALOG --tickets FILE.jsonl [--provider P] [--cache ticket|prefix]
 * [--instructions FILE] [--per-day N] [--export NAME] [--json]`: estimated input tokens per ticket and
 * per day, in each cache mode unless one is given.
 */
export function registerCostCommand(program: Command, io: CliIo): void {
  program
    .command("cost <catalog>")
    .description(
      "prompt tokens per ticket (tools, instructions, describe()) and per day, with the prefix every ticket shares, for each cache mode",
    )
    .requiredOption(
      "--tickets <file>",
      "tickets as JSONL: one ticket's records a line, or history lines { ticketId, records, ... }",
    )
    .option("--provider <provider>", "openai, openai-responses, anthropic or ai-sdk", "openai")
    .option("--cache <mode>", "ticket or prefix (default: both)")
    .option("--instructions <file>", "the fixed instructions your agent sends with every ticket")
    .option("--per-day <n>", "tickets a day", "1000")
    .option("--export <name>", "the export of the catalog module to use")
    .option("--json", "machine-readable output")
    .action(async (catalogFile: string, options) => {
      let provider: LlmProvider;
      try {
        provider = checkProvider("--provider", options.provider);
      } catch (error) {
        throw new CliError((error as Error).message);
      }
      if (options.cache !== undefined && options.cache !== "ticket" && options.cache !== "prefix")
        throw new CliError(`--cache ${options.cache}: give ticket or prefix`);
      const perDay = Number(options.perDay);
      if (!Number.isFinite(perDay) || perDay < 0)
        throw new CliError(`--per-day ${options.perDay}: give a number of tickets, 0 or more`);
      const { catalog, exportName } = await loadCatalog(catalogFile, options.export);
      const tickets = readTickets(options.tickets);
      const instructions = options.instructions === undefined ? "" : readText(options.instructions);
      const modes: ToolsCache[] = options.cache === undefined ? ["ticket", "prefix"] : [options.cache];
      const costs = modes.map((cache) =>
        promptCost(catalog, tickets, { provider, cache, instructions, ticketsPerDay: perDay }),
      );
      if (options.json) {
        const summary = costs.map(({ perTicket: _, ...cost }) => cost);
        io.stdout(
          `${JSON.stringify({ catalog: { file: catalogFile, export: exportName }, costs: summary }, null, 2)}\n`,
        );
        return;
      }
      io.stdout(formatCosts(costs, `${basename(catalogFile)} (export ${exportName}), ${provider}`));
    });
}

function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    throw new CliError(`cannot read ${file}`);
  }
}

/** Each line's records: the line itself, or its `records` when it is a history line. */
function readTickets(file: string): unknown[] {
  const tickets: unknown[] = [];
  readText(file)
    .split("\n")
    .forEach((line, index) => {
      if (line.trim() === "") return;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        throw new CliError(`${file}:${index + 1} is not JSON: give one ticket a line`);
      }
      const records = (value as { records?: unknown } | null)?.records;
      tickets.push(typeof records === "object" && records !== null ? records : value);
    });
  if (tickets.length === 0) throw new CliError(`${file} holds no tickets`);
  return tickets;
}

function formatCosts(costs: readonly PromptCost[], title: string): string {
  const [first] = costs;
  const rows = costs.map((cost) => [
    cost.cache,
    count(cost.median),
    count(cost.p95),
    `${count(cost.sharedPrefix)} (${(cost.sharedShare * 100).toFixed(0)}%)`,
    count(cost.perDay.input),
    count(cost.perDay.uncached),
    String(cost.perTicket.filter((ticket) => ticket.stage !== "single").length),
  ]);
  return [
    `${title}: ${first?.tickets ?? 0} tickets${first?.invalid ? `, ${first.invalid} with invalid records left out` : ""}`,
    `estimated input tokens of the first request per ticket, and per day at ${count(first?.ticketsPerDay ?? 0)} tickets`,
    "",
    table(
      ["cache", "median", "p95", "shared prefix", "per day", "per day uncached", "two stages"],
      rows,
    ).trimEnd(),
    "",
    'cache "prefix": tools identical for every ticket, cached by the provider; decide() checks each handle.',
    "",
  ].join("\n");
}
