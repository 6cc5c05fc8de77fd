import type { LimitRules, PreflightProblem } from "./preflight.js";
import type { LlmProvider } from "./providers.js";
import type { ToolsCache, ToolsStage } from "./stages.js";
import { estimateTokens } from "./tokens.js";

/** What `promptCost` reads from a catalog: its tools and its prompt text, for any records definition. */
export interface CostCatalog {
  prepare(ticketRecords: unknown): { readonly ok: boolean };
  tools(
    ticketRecords: unknown,
    options: { provider: LlmProvider; cache?: ToolsCache; limits?: LimitRules },
  ): { readonly tools: unknown; readonly stage: ToolsStage; readonly problems: readonly PreflightProblem[] };
  describe(ticketRecords: unknown, options?: { cache?: ToolsCache }): string;
}

/**
 * Options of {@link promptCost}.
 *
 * @example
 * import type { PromptCostOptions } from "formletter/llm";
 * const options: PromptCostOptions = { provider: "anthropic", cache: "prefix", instructions, ticketsPerDay: 5_000 };
 */
export interface PromptCostOptions {
  readonly provider: LlmProvider;
  /** @default "ticket" */
  readonly cache?: ToolsCache;
  /** The fixed instructions sent with every ticket, after the tools and before `describe()`. @default "" */
  readonly instructions?: string;
  /** Whose limits the tools are checked against. @default the provider's own */
  readonly limits?: LimitRules;
  /** Tickets a day, for the daily figures. @default 1000 */
  readonly ticketsPerDay?: number;
}

/** One ticket's first request, in estimated input tokens, with the stage and the limits it is over. */
export interface TicketTokens {
  readonly ticketId: string;
  readonly tools: number;
  readonly instructions: number;
  readonly describe: number;
  readonly total: number;
  readonly stage: ToolsStage;
  readonly problems: readonly PreflightProblem[];
}

/** The input tokens of a catalog's first request per ticket, over a set of tickets, and per day. */
export interface PromptCost {
  readonly provider: LlmProvider;
  readonly cache: ToolsCache;
  /** Tickets counted; `invalid` tickets (records that do not validate, or that throw) are left out. */
  readonly tickets: number;
  readonly invalid: number;
  readonly median: number;
  readonly p95: number;
  readonly max: number;
  /**
   * Tokens at the start of the prompt that are the same for every ticket counted (tools, then
   * instructions, then `describe()`): what a provider's prompt cache can hold.
   */
  readonly sharedPrefix: number;
  /** `sharedPrefix` as a share of the median ticket's tokens, 0 to 1; 0 with fewer than two tickets. */
  readonly sharedShare: number;
  readonly ticketsPerDay: number;
  /** Input tokens a day at the median: all of them, and the part a warm prompt cache serves. */
  readonly perDay: { readonly input: number; readonly cached: number; readonly uncached: number };
  /** Each ticket's figures, in the order given. */
  readonly perTicket: readonly TicketTokens[];
}

/**
 * Estimates, without a tokenizer, the input tokens an agent sends per ticket: the tools, fixed
 * instructions and `describe()` text of the first request, as the tools' JSON and the prompt text
 * (see `estimateTokens`). Reports the median, p95 and the prefix every ticket shares, and the tokens a
 * day at a ticket rate. Never throws on a ticket: invalid records are counted apart.
 *
 * @example
 * import { promptCost } from "formletter/llm";
 * const cost = promptCost(catalog, tickets.map((t) => t.records), { provider: "openai", cache: "prefix", instructions });
 * console.log(cost.median, cost.sharedShare, cost.perDay.uncached);
 */
export function promptCost(
  catalog: CostCatalog,
  tickets: Iterable<unknown>,
  options: PromptCostOptions,
): PromptCost {
  const cache = options.cache ?? "ticket";
  const instructions = options.instructions ?? "";
  const ticketsPerDay = options.ticketsPerDay ?? 1000;
  if (!Number.isFinite(ticketsPerDay) || ticketsPerDay < 0)
    throw new RangeError(
      `promptCost: ticketsPerDay must be a number of tickets, 0 or more; got ${ticketsPerDay}`,
    );
  const instructionTokens = estimateTokens(instructions);
  const perTicket: TicketTokens[] = [];
  let invalid = 0;
  let common: string | undefined;
  for (const records of tickets) {
    const measured = measureTicket(catalog, records, options, cache, instructions, instructionTokens);
    if (measured === undefined) {
      invalid += 1;
      continue;
    }
    common = common === undefined ? measured.text : commonPrefix(common, measured.text);
    perTicket.push(measured.tokens);
  }
  const totals = perTicket.map((ticket) => ticket.total).sort((a, b) => a - b);
  const median = quantile(totals, 0.5);
  const sharedPrefix = perTicket.length < 2 ? 0 : Math.min(estimateTokens(common ?? ""), median);
  const cached = Math.round(sharedPrefix * ticketsPerDay);
  const input = Math.round(median * ticketsPerDay);
  return {
    provider: options.provider,
    cache,
    tickets: perTicket.length,
    invalid,
    median,
    p95: quantile(totals, 0.95),
    max: totals.at(-1) ?? 0,
    sharedPrefix,
    sharedShare: median === 0 ? 0 : sharedPrefix / median,
    ticketsPerDay,
    perDay: { input, cached, uncached: input - cached },
    perTicket,
  };
}

/** One ticket's texts and tokens; undefined for records that are invalid or that user code throws on. */
function measureTicket(
  catalog: CostCatalog,
  records: unknown,
  options: PromptCostOptions,
  cache: ToolsCache,
  instructions: string,
  instructionTokens: number,
): { text: string; tokens: TicketTokens } | undefined {
  try {
    if (!catalog.prepare(records).ok) return undefined;
    const offer = catalog.tools(records, {
      provider: options.provider,
      cache,
      ...(options.limits === undefined ? {} : { limits: options.limits }),
    });
    const toolsText = JSON.stringify(offer.tools);
    const describeText = catalog.describe(records, { cache });
    const tools = estimateTokens(toolsText);
    const describe = estimateTokens(describeText);
    return {
      text: `${toolsText}\n${instructions}\n${describeText}`,
      tokens: {
        ticketId: ticketIdOf(records),
        tools,
        instructions: instructionTokens,
        describe,
        total: tools + instructionTokens + describe,
        stage: offer.stage,
        problems: offer.problems,
      },
    };
  } catch {
    // A `where` or label callback that throws on these records: the ticket cannot be measured.
    return undefined;
  }
}

/** The nearest-rank quantile of sorted values; 0 for none. */
function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;
}

function commonPrefix(a: string, b: string): string {
  const length = Math.min(a.length, b.length);
  let at = 0;
  while (at < length && a.charCodeAt(at) === b.charCodeAt(at)) at += 1;
  return a.slice(0, at);
}

function ticketIdOf(records: unknown): string {
  const id = (records as { ticketId?: unknown } | null)?.ticketId;
  return typeof id === "string" ? id : "";
}
