import type { PreparedTicket } from "../decision/ticket.js";
import { merged } from "../merged.js";
import { type ObjectSchema, objectSchema, type ToolSpec } from "./json-schema.js";
import { toolNames } from "./names.js";
import type { OmittedTemplate } from "./offer.js";
import { decisionKey, readArgs } from "./parse-tool-call.js";
import type { PreflightProblem } from "./preflight.js";
import {
  checkProvider,
  defaultRules,
  type LlmProvider,
  type ProviderFormats,
  shapeFormat,
} from "./providers.js";
import {
  buildStages,
  type Degradation,
  type ToolSource,
  type ToolsCache,
  type ToolsStage,
} from "./stages.js";
import { estimateTokens } from "./tokens.js";
import { checkCache, type ToolsOptions } from "./tools.js";

/**
 * Options of `catalog.proposalSchema()`: the same as the tools'.
 *
 * @example
 * import type { ProposalSchemaOptions } from "formletter/llm";
 * const options: ProposalSchemaOptions<"openai"> = { provider: "openai", limits: "openai" };
 */
export type ProposalSchemaOptions<P extends LlmProvider = LlmProvider> = ToolsOptions<P>;

/**
 * A ticket's structured-output schema, shaped for one provider. The output is
 * `{ "decision": { "<template id>": { <slots> } } }` or `{ "decision": { "escalate_to_human": { code, note } } }`:
 * parse it with `catalog.parseToolCall(result.name, output)`.
 *
 * @example
 * import { sellerCatalog } from "./templates/seller.js";
 * const { name, format } = sellerCatalog.proposalSchema(ticketRecords, { provider: "openai" });
 * const response = await openai.chat.completions.create({ model, messages, response_format: format });
 * const output = response.choices[0].message.content;
 * const decision = sellerCatalog.decide(sellerCatalog.parseToolCall(name, output), ticketRecords);
 */
export interface ProposalSchemaResult<P extends LlmProvider = LlmProvider> {
  readonly provider: P;
  /** The schema's name ("formletter_proposal"): what `parseToolCall` recognises the output by. */
  readonly name: string;
  /** The JSON Schema: a root object whose one property holds an `anyOf` of one object per choice. */
  readonly schema: ObjectSchema;
  /** The schema as the provider's structured-output parameter takes it; for "ai-sdk", the schema itself. */
  readonly format: ProviderFormats[P];
  /** Whether the schema is this ticket's ("ticket") or shared by every ticket ("prefix"). */
  readonly cache: ToolsCache;
  /** The input tokens the format costs, estimated without a tokenizer (see `estimateTokens`). */
  readonly tokens: number;
  readonly stage: ToolsStage;
  readonly templates: readonly string[];
  readonly omitted: readonly OmittedTemplate[];
  readonly widened: readonly string[];
  readonly degraded?: Degradation;
  readonly problems: readonly PreflightProblem[];
  /** The stage-two schema for one template: its slots, or escalate. */
  forTemplate(templateId: string): ProposalSchemaResult<P> | undefined;
  /** The stage-two schema for a stage-one output that chose a template; undefined for any other output. */
  next(output: unknown): ProposalSchemaResult<P> | undefined;
}

/** Builds one ticket's structured-output schema; `catalog.proposalSchema()` calls this. */
export function createProposalSchema<P extends LlmProvider>(
  source: ToolSource,
  ticket: PreparedTicket,
  options: ProposalSchemaOptions<P>,
): ProposalSchemaResult<P> {
  const provider = checkProvider("catalog.proposalSchema", options?.provider) as P;
  const rules = options.limits ?? defaultRules(provider);
  const cache = checkCache("catalog.proposalSchema", options.cache);
  return buildStages<ProposalSchemaResult<P>>(
    source,
    ticket,
    rules,
    cache,
    (specs) => [combine(specs)],
    ({ stage, specs, templates, omitted, widened, degraded, problems }, forTemplate) => {
      const combined = combine(specs);
      const format = shapeFormat(provider, combined);
      return {
        provider,
        name: combined.name,
        schema: combined.parameters,
        format,
        cache,
        tokens: estimateTokens(JSON.stringify(format)),
        stage,
        templates,
        omitted,
        widened,
        ...(degraded === undefined ? {} : { degraded }),
        problems,
        forTemplate,
        next(output) {
          const read = readArgs(output);
          const decision = read.ok ? read.value?.[decisionKey] : undefined;
          if (typeof decision !== "object" || decision === null) return undefined;
          const chosen = readArgs((decision as Record<string, unknown>)[toolNames.choose]);
          const template = chosen.ok ? chosen.value?.template : undefined;
          return typeof template === "string" ? forTemplate(template) : undefined;
        },
      };
    },
  );
}

/**
 * One schema for a set of choices: the root is an object (providers reject anything else at the root),
 * and its one property is an `anyOf` (never `oneOf`, which strict modes reject) of objects whose only
 * property is the choice's name, so no two branches start with the same key.
 */
function combine(specs: readonly ToolSpec[]): ToolSpec {
  const branches = specs.map((spec) =>
    objectSchema({ [spec.name]: merged(spec.parameters, { description: spec.description }) }),
  );
  const choices = specs.map((spec) => spec.name).join(", ");
  return {
    name: toolNames.proposal,
    description: `The one action for this ticket: ${choices}.`,
    parameters: objectSchema(
      { [decisionKey]: { description: "Exactly one of the actions, by name.", anyOf: branches } },
      "Choose what happens with this ticket. Every value is a handle or key from the lists given.",
    ),
  };
}
