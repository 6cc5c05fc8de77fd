import { checkCeilingGroups } from "../definition/ceilings.js";
import type { CollectionSchemas, RecordsDefinition } from "../definition/define-records.js";
import { isDefinedTemplate } from "../definition/defined-templates.js";
import { catalogVersionOf } from "../definition/template-content.js";
import type { Template } from "../definition/template-types.js";
import { DefinitionError, FormletterError } from "../errors.js";
import { parseToolCall, type ToolCallProposal } from "../llm/parse-tool-call.js";
import {
  createProposalSchema,
  type ProposalSchemaOptions,
  type ProposalSchemaResult,
} from "../llm/proposal-schema.js";
import type { LlmProvider } from "../llm/providers.js";
import { createTools, type ToolsOptions, type ToolsResult } from "../llm/tools.js";
import { merged } from "../merged.js";
import { clip } from "../message/sanitize.js";
import { type PreviewOptions, previewTicket, type TicketPreview } from "../preview/preview.js";
import { decisionAttributes, spanNames, tracer, tracing } from "../telemetry.js";
import { type DecideContext, decideProposal } from "./decide.js";
import { type Decision, escalate } from "./decision.js";
import { type DescribeOptions, describeTicket } from "./describe.js";
import { createHandleMaker } from "./handles.js";
import { type ParsedOutput, parseOutput } from "./proposal.js";
import { isPreparedWith, type PreparedTicket, type PrepareResult, prepareTicket } from "./ticket.js";

/** Options of {@link createCatalog}. */
export interface CatalogOptions {
  /** The closed list of codes the model may escalate with. @default ["no_template_fits", "needs_human", "suspicious_request"] */
  readonly escalationCodes?: readonly string[];
  /**
   * Secret keying the handle hash (docs/reference.md, "Handle secret"). What it is for: a record gets the
   * same handle in every process with the same secret, so recorded outputs replay and one instance can
   * decide what another's tools offered; keep it the same everywhere, as changing it changes every handle.
   * What it does not protect: with the default, the same in every installation, anyone who knows or
   * guesses a record's id can compute its handle, so a handle in a provider's logs or cached schemas can
   * be matched to its record. No secret lets a handle reach another ticket's records: handles resolve
   * against this ticket's records only. Set one (32 random bytes or more, from your secret store) when
   * schemas, transcripts or logs leave your systems and your ids are guessable or say something.
   *
   * @default "formletter"
   */
  readonly handleSecret?: string | Uint8Array;
}

/** One record's handle, for your own UI and tests. */
export interface HandleEntry {
  readonly collection: string;
  readonly id: string;
  readonly handle: string;
  readonly label: string;
}

/** The handles of one ticket's records. */
export interface HandleTable {
  readonly ticketId: string;
  readonly entries: readonly HandleEntry[];
  /** The handle of the record `id` of `collection`, if the ticket holds it. */
  get(collection: string, id: string): string | undefined;
}

/** The closed set of templates, and the pure decision function over it. */
export interface Catalog<S extends CollectionSchemas = CollectionSchemas> {
  readonly records: RecordsDefinition<S>;
  readonly templates: readonly Template[];
  readonly escalationCodes: readonly string[];
  /**
   * A hash of the templates' versions in id order and of the escalation codes: which catalog made a
   * decision, in the audit log.
   */
  readonly version: string;
  /** The template with this id, if any. */
  template(id: string): Template | undefined;
  /** Validates a ticket's records and assigns handles once; pass the result to `decide` many times. */
  prepare(ticketRecords: unknown): PrepareResult<S>;
  /**
   * Decides what the model's output means for this ticket: send an exact message, or escalate with a reason.
   * `output` is an object, a JSON string, or what `parse()` made of one (then it is not parsed again); `ticket` is the ticket's records as your loader returned them
   * (`TicketRecords`, validated here) or a prepared ticket. Pure, synchronous, never throws on either.
   */
  decide(output: unknown, ticket: unknown): Decision;
  /**
   * Reads the model's output once (an object or a JSON string), strictly; never throws. Pass the result
   * to `decide()` in place of the output and it is not parsed again.
   */
  parse(output: unknown): ParsedOutput;
  /** Each record's handle and label. Throws a `records_invalid` error when the records are invalid. */
  handles(ticketRecords: unknown): HandleTable;
  /**
   * Compact prompt text: each choosable record of the ticket as `handle: label` (labels never enter a
   * schema), and nothing the tools already say. With `{ cache: "prefix" }`, also the templates the
   * ticket can fill; send it after the shared tools, so the tools stay a cached prefix.
   */
  describe(ticketRecords: unknown, options?: DescribeOptions): string;
  /**
   * This ticket's tools for an LLM API: one per template the ticket can fill (enums of its handles and
   * keys, every slot required, `strict`), plus `escalate_to_human`; two stages when they would exceed
   * the provider's published limits. With `cache: "prefix"`, tools identical for every ticket instead
   * (handles constrained by pattern, checked by `decide()`). Schemas hold handles and keys, never
   * record text: labels are in `describe()`. Throws a `records_invalid` error when the records are invalid.
   */
  tools<P extends LlmProvider>(ticketRecords: unknown, options: ToolsOptions<P>): ToolsResult<P>;
  /** One JSON Schema for structured output instead of tools; parse its output with `parseToolCall(name, output)`. */
  proposalSchema<P extends LlmProvider>(
    ticketRecords: unknown,
    options: ProposalSchemaOptions<P>,
  ): ProposalSchemaResult<P>;
  /** A tool call (name, arguments as an object or JSON text) as a proposal for `decide`. Never throws. */
  parseToolCall(name: unknown, args: unknown): ToolCallProposal;
  /**
   * Every message the model could cause on this ticket, decided through `decide` one combination of
   * handles and keys at a time (at most `limit` per template): the messages by idempotency key, the
   * escalating combinations by reason, and the bits. Never throws on the records.
   */
  preview(ticketRecords: unknown, options?: PreviewOptions): TicketPreview;
}

const codePattern = /^[a-z][a-z0-9_]{0,63}$/;

/**
 * Builds the catalog: the closed set of templates the model chooses from. Checks, at start-up, that ids
 * are unique and every template was defined against these records.
 *
 * @example
 * import { createCatalog } from "formletter";
 * const catalog = createCatalog(records, [trackingRequest, damageReport]);
 * const decision = catalog.decide(modelOutput, ticketRecords);
 */
export function createCatalog<S extends CollectionSchemas>(
  records: RecordsDefinition<S>,
  templates: readonly Template[],
  options: CatalogOptions = {},
): Catalog<S> {
  if (!Array.isArray(templates) || templates.length === 0) {
    throw new DefinitionError(
      "catalog_invalid",
      "createCatalog: pass at least one template built with defineTemplate",
    );
  }
  const byId = new Map<string, Template>();
  for (const template of templates) {
    if (!isDefinedTemplate(template)) {
      const given = (template as { id?: unknown } | null)?.id;
      const id = typeof given === "string" ? clip(given, 64) : undefined;
      throw new DefinitionError(
        "catalog_invalid",
        `createCatalog: ${id === undefined ? "every template" : `template "${id}"`} must be the object defineTemplate returned; a copy or an object built elsewhere skipped its checks (change the definition and call defineTemplate again)`,
        id === undefined ? {} : { template: id },
      );
    }
    if (byId.has(template.id)) {
      throw new DefinitionError(
        "catalog_invalid",
        `createCatalog: template id "${template.id}" is used twice; ids must be unique`,
        {
          template: template.id,
        },
      );
    }
    if (template.records !== (records as unknown)) {
      throw new DefinitionError(
        "catalog_invalid",
        `createCatalog: template "${template.id}" was defined against another records definition; define it with the catalog's records`,
        { template: template.id },
      );
    }
    byId.set(template.id, template);
  }
  const escalationCodes = [
    ...(options.escalationCodes ?? ["no_template_fits", "needs_human", "suspicious_request"]),
  ];
  if (escalationCodes.length === 0)
    throw new DefinitionError("catalog_invalid", "createCatalog: escalationCodes needs at least one code");
  for (const code of escalationCodes) {
    if (typeof code !== "string" || !codePattern.test(code)) {
      throw new DefinitionError(
        "catalog_invalid",
        `createCatalog: escalation code "${String(code)}" must be lower-case letters, digits and "_"`,
      );
    }
  }
  if (new Set(escalationCodes).size !== escalationCodes.length) {
    throw new DefinitionError("catalog_invalid", "createCatalog: escalationCodes repeats a code");
  }

  const makeHandles = createHandleMaker(options.handleSecret ?? "formletter", records.names);
  checkCeilingGroups([...byId.values()]);
  const context: DecideContext = { templates: byId, templateIds: [...byId.keys()], escalationCodes };
  const prepare = (input: unknown): PrepareResult<S> => {
    try {
      if (isPreparedWith(input, records as unknown as RecordsDefinition))
        return { ok: true, ticket: input as PreparedTicket<S> };
      return prepareTicket(records, makeHandles, input);
    } catch {
      // Records can be hostile objects (throwing getters, proxies): that is invalid input, not a crash.
      return { ok: false, problem: "reading the ticket records threw" };
    }
  };
  const prepareOrThrow = (input: unknown): PreparedTicket<S> => {
    const prepared = prepare(input);
    if (!prepared.ok)
      throw new FormletterError("records_invalid", `ticket records are invalid: ${prepared.problem}`);
    return prepared.ticket;
  };

  const version = catalogVersionOf([...byId.values()], escalationCodes);
  // Every decision says which catalog made it, and one naming a template which version of it: the audit
  // log, outbound rows and queue items keep both, so a message is traceable to the text that produced it.
  const stamped = (decision: Decision): Decision => {
    const template = decision.template === undefined ? undefined : byId.get(decision.template);
    const versions = merged(template === undefined ? {} : { templateVersion: template.version }, {
      catalogVersion: version,
    });
    return Object.assign(decision, versions);
  };
  const decideOnce = (output: unknown, ticketRecords: unknown): Decision =>
    stamped(decideUnstamped(output, ticketRecords));
  const decideUnstamped = (output: unknown, ticketRecords: unknown): Decision => {
    const prepared = prepare(ticketRecords);
    if (!prepared.ok) {
      return escalate({
        reason: "records_invalid",
        detail: `ticket records are invalid: ${prepared.problem}`,
      });
    }
    try {
      return decideProposal(context, output, prepared.ticket);
    } catch {
      // Only user code (a `where`, `derived` or label callback) or a hostile record can get here.
      return escalate({
        reason: "records_invalid",
        detail: "deciding threw on this ticket's records",
        ticketId: prepared.ticket.ticketId,
      });
    }
  };

  const catalog: Catalog<S> = {
    records,
    templates: [...byId.values()],
    escalationCodes,
    version,
    template: (id) => byId.get(id),
    prepare,
    parse: parseOutput,
    decide(output, ticketRecords) {
      // A plain span, not an active one: decide() is synchronous and starts no spans of its own. With no
      // tracer provider registered there is none to start.
      if (!tracing()) return decideOnce(output, ticketRecords);
      const span = tracer().startSpan(spanNames.decide);
      const decision = decideOnce(output, ticketRecords);
      if (span.isRecording()) span.setAttributes(decisionAttributes(decision));
      span.end();
      return decision;
    },
    handles(ticketRecords) {
      const ticket = prepareOrThrow(ticketRecords);
      const entries: HandleEntry[] = [];
      for (const [collection, prepared] of ticket.collections) {
        prepared.records.forEach((record, index) => {
          entries.push({
            collection,
            id: record.id,
            handle: prepared.handles[index] as string,
            label: records.label(collection, record, index),
          });
        });
      }
      return {
        ticketId: ticket.ticketId,
        entries,
        get: (collection, id) =>
          entries.find((entry) => entry.collection === collection && entry.id === id)?.handle,
      };
    },
    describe(ticketRecords, describeOptions) {
      return describeTicket(catalog, prepareOrThrow(ticketRecords), describeOptions);
    },
    tools: (ticketRecords, toolOptions) => createTools(catalog, prepareOrThrow(ticketRecords), toolOptions),
    proposalSchema: (ticketRecords, schemaOptions) =>
      createProposalSchema(catalog, prepareOrThrow(ticketRecords), schemaOptions),
    parseToolCall,
    preview: (ticketRecords, previewOptions) => previewTicket(catalog, ticketRecords, previewOptions),
  };
  return Object.freeze(catalog);
}
