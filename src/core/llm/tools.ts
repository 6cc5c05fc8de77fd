import type { PreparedTicket } from "../decision/ticket.js";
import { toolNames } from "./names.js";
import type { OmittedTemplate } from "./offer.js";
import { readArgs } from "./parse-tool-call.js";
import type { LimitRules, PreflightProblem } from "./preflight.js";
import {
  checkProvider,
  defaultRules,
  type LlmProvider,
  type ProviderTools,
  shapeTools,
} from "./providers.js";
import {
  buildStages,
  type Degradation,
  type ToolSource,
  type ToolsCache,
  type ToolsStage,
} from "./stages.js";
import { estimateTokens } from "./tokens.js";

/**
 * Options of `catalog.tools()`.
 *
 * @example
 * import type { ToolsOptions } from "formletter/llm";
 * const options: ToolsOptions<"anthropic"> = { provider: "anthropic" };
 */
export interface ToolsOptions<P extends LlmProvider = LlmProvider> {
  /** The API the tools are shaped for. */
  readonly provider: P;
  /**
   * Whose published limits the tools must fit; over them, the tools degrade to two stages.
   * @default the provider's own; "both" for "ai-sdk", which may forward to either
   */
  readonly limits?: LimitRules;
  /**
   * "prefix": tools identical for every ticket (every template; ref slots take any handle of the
   * collection's shape, checked by decide()), so a provider's prompt cache holds them; send
   * `describe(ticket, { cache: "prefix" })` after them. Strict decoding then no longer refuses a
   * handle of no record of this ticket: decide() does, with a hint for a retry. The limits apply to
   * the catalog, not the ticket. "ticket": enums of this ticket's handles and only the templates it
   * can fill.
   * @default "ticket"
   */
  readonly cache?: ToolsCache;
}

/**
 * A ticket's tools, shaped for one provider, with what was left out and why.
 *
 * @example
 * import { sellerCatalog } from "./templates/seller.js";
 * let offer = sellerCatalog.tools(ticketRecords, { provider: "openai" });
 * let call = await callModel(prompt, offer.tools);
 * if (offer.stage === "choose_template") {
 *   offer = offer.next(call.name, call.arguments) ?? offer;
 *   call = await callModel(prompt, offer.tools);
 * }
 * const decision = sellerCatalog.decide(sellerCatalog.parseToolCall(call.name, call.arguments), ticketRecords);
 */
export interface ToolsResult<P extends LlmProvider = LlmProvider> {
  readonly provider: P;
  readonly stage: ToolsStage;
  /** Whether the tools are this ticket's ("ticket") or shared by every ticket ("prefix"). */
  readonly cache: ToolsCache;
  /** The tools, as the provider's API takes them (a fresh value on every call: safe to change). */
  readonly tools: ProviderTools[P];
  /**
   * The input tokens the tools cost, estimated from their JSON text without a tokenizer (see
   * `estimateTokens`); add `estimateTokens(describe(...))` and your instructions for the prompt.
   */
  readonly tokens: number;
  /** The template ids offered: as tools ("single"), in `choose_template` ("choose_template"), or the one ("slots"). */
  readonly templates: readonly string[];
  /**
   * Templates this ticket cannot fill, with the reason: left out of the tools, or, with
   * `cache: "prefix"`, offered all the same (decide() escalates them).
   */
  readonly omitted: readonly OmittedTemplate[];
  /**
   * Templates whose combinations of records were too many to check one by one: their ref slots list
   * every record of the collection (decide() still checks each choice).
   */
  readonly widened: readonly string[];
  /** Set when the tools are not the single-stage set with full lists: why, and what was done instead. */
  readonly degraded?: Degradation;
  /** Limits still exceeded after degrading (empty unless the catalog itself is over them). */
  readonly problems: readonly PreflightProblem[];
  /** The stage-two tools for one template (from any stage): its tool and `escalate_to_human`. */
  forTemplate(templateId: string): ToolsResult<P> | undefined;
  /**
   * The stage-two tools for a `choose_template` call (name and arguments as the model gave them);
   * undefined for any other call, or a template that is not offered.
   */
  next(name: unknown, args: unknown): ToolsResult<P> | undefined;
}

/** Builds one ticket's tools for a provider; `catalog.tools()` calls this with the prepared ticket. */
export function createTools<P extends LlmProvider>(
  source: ToolSource,
  ticket: PreparedTicket,
  options: ToolsOptions<P>,
): ToolsResult<P> {
  const provider = checkProvider("catalog.tools", options?.provider) as P;
  const rules = options.limits ?? defaultRules(provider);
  const cache = checkCache("catalog.tools", options.cache);
  return buildStages<ToolsResult<P>>(
    source,
    ticket,
    rules,
    cache,
    (specs) => [...specs],
    ({ stage, specs, templates, omitted, widened, degraded, problems }, forTemplate) => {
      const tools = shapeTools(provider, specs);
      return {
        provider,
        stage,
        cache,
        tools,
        tokens: estimateTokens(JSON.stringify(tools)),
        templates,
        omitted,
        widened,
        ...(degraded === undefined ? {} : { degraded }),
        problems,
        forTemplate,
        next(name, args) {
          if (typeof name !== "string" || name.trim().toLowerCase() !== toolNames.choose) return undefined;
          const chosen = readArgs(args);
          const template = chosen.ok ? chosen.value?.template : undefined;
          return typeof template === "string" ? forTemplate(template) : undefined;
        },
      };
    },
  );
}

/** The cache mode, checked: a wrong value is a programming error, reported at the call. */
export function checkCache(method: string, cache: unknown): ToolsCache {
  if (cache === undefined || cache === "ticket" || cache === "prefix") return cache ?? "ticket";
  throw new TypeError(
    `${method}: cache must be "ticket" or "prefix"; got ${JSON.stringify(cache) ?? String(cache)}`,
  );
}
