import type { Choices, Decision, EscalateDecision, Message } from "../decision/decision.js";
import type { EscalationReason } from "../decision/reasons.js";
import type { PreparedTicket } from "../decision/ticket.js";
import type { Channel } from "../definition/channels.js";
import type { Template, TemplateEffect, TemplateLimits } from "../definition/template-types.js";
import { merged } from "../merged.js";
import {
  countCombinations,
  dimensionsOf,
  type PreviewDimension,
  type PreviewProposal,
  proposalAt,
} from "./combinations.js";

/** Options of `catalog.preview`. */
export interface PreviewOptions {
  /** Most combinations decided per template; the rest are counted, not decided. @default 1000 */
  readonly limit?: number;
  /** The position of the first combination decided, per template: to page through a large product. @default 0 */
  readonly offset?: number;
  /** Only these template ids. @default every template of the catalog */
  readonly templates?: readonly string[];
}

/** A message the model could cause, as decide() renders it, with how many combinations lead to it. */
export interface PreviewMessage {
  /** Its idempotency key: messages are de-duplicated by it. */
  readonly key: string;
  /** "send": decide() sends it; "approval": it waits in the queue until a person approves exactly this draft. */
  readonly outcome: "send" | "approval";
  readonly message: Message;
  readonly values: Readonly<Record<string, string>>;
  readonly choices: Choices;
  /** The first proposal found that gives it. */
  readonly proposal: PreviewProposal;
  /** How many of the decided combinations give it (a left-out slot and its only record give the same). */
  readonly combinations: number;
}

/** The combinations that escalate for one reason. */
export interface PreviewEscalations {
  readonly reason: EscalationReason;
  readonly count: number;
  /** Up to three examples: the proposal and decide()'s detail. */
  readonly examples: readonly { readonly proposal: PreviewProposal; readonly detail: string }[];
}

/** Everything one template can cause on the ticket. */
export interface TemplatePreview {
  readonly template: string;
  readonly channel: Channel;
  readonly audience: string;
  /** What a message of the template does: informational, reversible or irreversible. */
  readonly effect: TemplateEffect;
  readonly approval: "human" | undefined;
  readonly limits: TemplateLimits;
  /** The slots the model fills, each with every value it may give. */
  readonly dimensions: readonly PreviewDimension[];
  /** Every combination: the product of each slot's option count. */
  readonly combinations: number;
  /** How many were decided (at most `limit`, from `offset`). */
  readonly decided: number;
  /** Combinations after the decided window: "N more". */
  readonly more: number;
  /** Distinct messages (sent or for approval), by idempotency key, in the order first found. */
  readonly messages: readonly PreviewMessage[];
  /** Escalating combinations by reason, most frequent first. */
  readonly escalations: readonly PreviewEscalations[];
  /** log2(distinct messages): what a steered model can encode with this template on this ticket. */
  readonly bits: number;
  /** True when every combination was decided, so `messages` and `bits` are the whole truth. */
  readonly exact: boolean;
  /**
   * A localised template's distinct messages by the locale they are written in (read from this ticket's
   * records, so one locale unless the recipient varies); undefined for a template without locales.
   */
  readonly byLocale: Readonly<Record<string, number>> | undefined;
}

/** The preview of one ticket, or why its records cannot be previewed. */
export type TicketPreview =
  | {
      readonly ok: true;
      readonly ticketId: string;
      readonly templates: readonly TemplatePreview[];
      readonly combinations: number;
      readonly decided: number;
      readonly more: number;
      /** Distinct messages over every template (keys differ between templates). */
      readonly messages: number;
      /** log2 of `messages`: what a steered model can encode with one message on this ticket. */
      readonly bits: number;
      readonly exact: boolean;
    }
  | { readonly ok: false; readonly reason: "records_invalid"; readonly problem: string };

/** What preview reads of a catalog. */
export interface PreviewCatalog {
  readonly templates: readonly Template[];
  prepare(ticketRecords: unknown): { ok: true; ticket: PreparedTicket } | { ok: false; problem: string };
  decide(output: unknown, ticket: unknown): Decision;
}

const defaultLimit = 1000;

/**
 * Every message the model could cause on one ticket. Per template, the combinations of values the model
 * may give each slot are counted first, then decided one at a time through `catalog.decide` (the very
 * path a proposal takes), up to `limit` per template: messages are grouped by idempotency key and
 * escalations by reason. Never throws on the ticket: invalid records are a result.
 *
 * @example
 * import { createCatalog } from "formletter";
 * const catalog = createCatalog(records, templates);
 * const preview = catalog.preview(ticketRecords, { limit: 500 });
 * if (preview.ok) for (const t of preview.templates) console.log(t.template, t.messages.length, t.bits);
 */
export function previewTicket(
  catalog: PreviewCatalog,
  ticketRecords: unknown,
  options: PreviewOptions = {},
): TicketPreview {
  const limit = wholeNumber(options.limit, defaultLimit, "limit");
  const offset = wholeNumber(options.offset, 0, "offset");
  const prepared = catalog.prepare(ticketRecords);
  if (!prepared.ok) return { ok: false, reason: "records_invalid", problem: prepared.problem };
  const wanted = options.templates === undefined ? undefined : new Set(options.templates);
  const templates = catalog.templates
    .filter((template) => wanted === undefined || wanted.has(template.id))
    .map((template) => previewTemplate(catalog, template, prepared.ticket, limit, offset));
  const messages = templates.reduce((sum, template) => sum + template.messages.length, 0);
  const total = (pick: (template: TemplatePreview) => number) =>
    templates.reduce((sum, template) => sum + pick(template), 0);
  return {
    ok: true,
    ticketId: prepared.ticket.ticketId,
    templates,
    combinations: total((template) => template.combinations),
    decided: total((template) => template.decided),
    more: total((template) => template.more),
    messages,
    bits: log2(messages),
    exact: templates.every((template) => template.exact),
  };
}

function previewTemplate(
  catalog: PreviewCatalog,
  template: Template,
  ticket: PreparedTicket,
  limit: number,
  offset: number,
): TemplatePreview {
  const dimensions = dimensionsOf(template, ticket);
  const combinations = countCombinations(dimensions);
  const start = Math.min(offset, combinations);
  const end = Math.min(combinations, start + limit);
  const messages = new Map<string, PreviewMessage & { combinations: number }>();
  const escalations = new Map<
    EscalationReason,
    { count: number; examples: PreviewEscalations["examples"][number][] }
  >();
  for (let index = start; index < end; index++) {
    const proposal = proposalAt(template.id, dimensions, index);
    const decision = catalog.decide(proposal, ticket);
    if (decision.outcome === "send") {
      add(messages, decision.key, () => ({
        key: decision.key,
        outcome: "send",
        message: decision.message,
        values: decision.values,
        choices: decision.choices,
        proposal,
        combinations: 0,
      }));
      continue;
    }
    const draft = approvalDraft(decision);
    if (draft !== undefined) {
      add(messages, draft.key, () => merged(draft, { outcome: "approval", proposal, combinations: 0 }));
      continue;
    }
    let group = escalations.get(decision.reason);
    if (group === undefined) {
      group = { count: 0, examples: [] };
      escalations.set(decision.reason, group);
    }
    group.count += 1;
    if (group.examples.length < 3) group.examples.push({ proposal, detail: decision.detail });
  }
  const exact = start === 0 && end === combinations;
  return {
    template: template.id,
    channel: template.channel,
    audience: template.audience,
    effect: template.effect,
    approval: template.approval,
    limits: template.limits,
    dimensions,
    combinations,
    decided: end - start,
    more: combinations - end,
    messages: [...messages.values()],
    escalations: [...escalations]
      .map(([reason, group]) => ({ reason, ...group }))
      .sort((a, b) => b.count - a.count),
    bits: log2(messages.size),
    exact,
    byLocale: template.locales === undefined ? undefined : countByLocale(messages.values()),
  };
}

function countByLocale(messages: Iterable<PreviewMessage>): Record<string, number> {
  const counts = new Map<string, number>();
  for (const { message } of messages) {
    const locale = message.locale ?? "";
    counts.set(locale, (counts.get(locale) ?? 0) + 1);
  }
  return Object.fromEntries(counts);
}

function add(
  messages: Map<string, PreviewMessage & { combinations: number }>,
  key: string,
  make: () => PreviewMessage & { combinations: number },
): void {
  let entry = messages.get(key);
  if (entry === undefined) {
    entry = make();
    messages.set(key, entry);
  }
  entry.combinations += 1;
}

/** An `approval_required` escalation carries the whole rendered draft: the message a person would approve. */
function approvalDraft(
  decision: EscalateDecision,
): { key: string; message: Message; values: Readonly<Record<string, string>>; choices: Choices } | undefined {
  if (decision.reason !== "approval_required") return undefined;
  const { draft, key, values, choices } = decision;
  if (draft === undefined || key === undefined || values === undefined || choices === undefined)
    return undefined;
  return { key, message: draft, values, choices };
}

function wholeNumber(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 0)
    throw new RangeError(`catalog.preview: ${name} must be a whole number ≥ 0`);
  return value;
}

/** log2 of a count of messages; one message (or none) carries no information. */
function log2(count: number): number {
  return count <= 1 ? 0 : Math.log2(count);
}
