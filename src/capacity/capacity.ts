import type { Catalog } from "../core/decision/catalog.js";
import type { PreparedTicket } from "../core/decision/ticket.js";
import type { Channel } from "../core/definition/channels.js";
import type { RecordsDefinition } from "../core/definition/define-records.js";
import type { Template, TemplateEffect, TemplateLimits } from "../core/definition/template-types.js";
import { FormletterError } from "../core/errors.js";
import { type SampleMessages, sampleMessages } from "./enumerate.js";
import { type FieldExposure, fieldExposure } from "./exposure.js";
import { log2, type SlotCapacity, slotCapacity } from "./slots.js";

/**
 * What {@link catalogCapacity} reads of a catalog. Only `maxPerCollection` of the records definition:
 * its label function is typed by the collections, which would make a catalog of specific collections
 * unassignable to the general type.
 */
export type CapacityCatalog = Pick<Catalog, "templates" | "prepare" | "decide"> & {
  readonly records: Pick<RecordsDefinition, "maxPerCollection">;
};

/** Options of {@link catalogCapacity}. */
export interface CapacityOptions {
  /**
   * A sample ticket's records, as your loader returns them: each ref slot's candidates are that ticket's
   * records of its collection, and every proposal is decided on it to count distinct messages.
   */
  readonly sample?: unknown;
  /**
   * Without a sample: how many records each ref slot may choose from.
   * @default the records definition's maxPerCollection (the most a ticket may hold)
   */
  readonly recordsPerCollection?: number;
  /** Most proposals decided per template on the sample. @default 20000 */
  readonly maxProposals?: number;
}

/** Worst case over a period: messages and the bits they can carry. */
export interface WorstCase {
  readonly messages: number;
  readonly bits: number;
}

/** What a steered model controls in one template, and the worst case its limits allow. */
export interface TemplateCapacity {
  readonly id: string;
  readonly channel: Channel;
  readonly audience: string;
  /** What a message of the template does: informational, reversible or irreversible. */
  readonly effect: TemplateEffect;
  readonly approval: "human" | undefined;
  readonly limits: TemplateLimits;
  /** The locales the template is written in, the default first; empty for a template without locales. */
  readonly locales: readonly string[];
  /** The model-chosen slots, the recipient ("to") last, and derived slots (0 bits). */
  readonly slots: readonly SlotCapacity[];
  /** log2(templates in the catalog): the choice of this template among them. */
  readonly templateBits: number;
  /** templateBits + the bits of every slot: the most one message can encode. */
  readonly bitsPerMessage: number;
  /** False when a required slot has no candidate on the sample: no message of this template is possible there. */
  readonly canSend: boolean;
  /** With a sample: the distinct messages deciding every proposal gives (exact for that ticket). */
  readonly sample: SampleMessages | undefined;
  /** perTicket × bitsPerMessage. */
  readonly perTicket: WorstCase;
  /** perDay × bitsPerMessage. */
  readonly perDay: WorstCase;
  readonly fields: readonly FieldExposure[];
}

/** How the candidates of ref slots were counted: on a sample ticket, or by a stated assumption. */
export type CandidateBasis =
  | { readonly kind: "sample"; readonly ticketId: string; readonly records: Readonly<Record<string, number>> }
  | {
      readonly kind: "assumed";
      readonly recordsPerCollection: number;
      readonly from: "maxPerCollection" | "given";
    };

/** The capacity of a catalog: per template and in total, with the basis of every figure. */
export interface CatalogCapacity {
  readonly templates: readonly TemplateCapacity[];
  /** How many templates the model chooses between. */
  readonly templateChoices: number;
  readonly basis: CandidateBasis;
  /** Sums over templates: every template at its limit. */
  readonly totals: { readonly perTicket: WorstCase; readonly perDay: WorstCase };
  /** Records of other tickets a proposal can reach: none, since handles resolve only within the ticket. */
  readonly otherTicketsReachable: 0;
  /** The assumptions, in sentences. */
  readonly notes: readonly string[];
}

/**
 * Computes how much a steered model could encode through the catalog: per message, log2 of the template
 * choice plus log2 of each slot's candidates; per ticket and per day, multiplied out by each template's
 * limits. Also lists which fields each template shows, and which of them are untrusted or private.
 *
 * @example
 * import { catalogCapacity } from "formletter/metrics";
 * const capacity = catalogCapacity(catalog, { sample: ticketRecords });
 * capacity.totals.perDay; // { messages, bits }: every template at its perDay limit
 */
export function catalogCapacity(catalog: CapacityCatalog, options: CapacityOptions = {}): CatalogCapacity {
  const templates = catalog.templates;
  const maxProposals = options.maxProposals ?? 20_000;
  let ticket: PreparedTicket | undefined;
  let basis: CandidateBasis;
  if (options.sample !== undefined) {
    const prepared = catalog.prepare(options.sample);
    if (!prepared.ok) {
      throw new FormletterError(
        "records_invalid",
        `the sample ticket's records are invalid: ${prepared.problem}`,
      );
    }
    ticket = prepared.ticket;
    const counts: Record<string, number> = {};
    for (const [name, collection] of ticket.collections) counts[name] = collection.records.length;
    basis = { kind: "sample", ticketId: ticket.ticketId, records: counts };
  } else {
    const given = options.recordsPerCollection;
    if (given !== undefined && (!Number.isInteger(given) || given < 0)) {
      throw new RangeError("catalogCapacity: recordsPerCollection must be a whole number ≥ 0");
    }
    basis = {
      kind: "assumed",
      recordsPerCollection: given ?? catalog.records.maxPerCollection,
      from: given === undefined ? "maxPerCollection" : "given",
    };
  }
  const recordsOf = (collection: string): number =>
    basis.kind === "sample" ? (basis.records[collection] ?? 0) : basis.recordsPerCollection;
  const templateBits = log2(templates.length);

  const perTemplate = templates.map((template): TemplateCapacity => {
    const slots = template.resolveOrder.map((compiled) => slotCapacity(compiled, recordsOf));
    const canSend = slots.every((slot) => slot.candidates > 0);
    const bitsPerMessage = canSend ? templateBits + slots.reduce((sum, slot) => sum + slot.bits, 0) : 0;
    const worst = (messages: number): WorstCase =>
      canSend ? { messages, bits: messages * bitsPerMessage } : { messages: 0, bits: 0 };
    return {
      id: template.id,
      channel: template.channel,
      audience: template.audience,
      effect: template.effect,
      approval: template.approval,
      limits: template.limits,
      locales: template.locales?.tags ?? [],
      slots,
      templateBits,
      bitsPerMessage,
      canSend,
      sample: ticket === undefined ? undefined : sampleMessages(catalog, template, ticket, maxProposals),
      perTicket: worst(template.limits.perTicket),
      perDay: worst(template.limits.perDay),
      fields: fieldExposure(template),
    };
  });
  const sum = (pick: (template: TemplateCapacity) => WorstCase): WorstCase =>
    perTemplate.reduce(
      (total, template) => ({
        messages: total.messages + pick(template).messages,
        bits: total.bits + pick(template).bits,
      }),
      { messages: 0, bits: 0 },
    );
  return {
    templates: perTemplate,
    templateChoices: templates.length,
    basis,
    totals: { perTicket: sum((template) => template.perTicket), perDay: sum((template) => template.perDay) },
    otherTicketsReachable: 0,
    notes: notesOf(basis, templates),
  };
}

function notesOf(basis: CandidateBasis, templates: readonly Template[]): string[] {
  const notes = [
    basis.kind === "sample"
      ? `candidates per ref slot: the records of sample ticket ${basis.ticketId} in the slot's collection (an upper bound: where and match only narrow them); distinct messages: every proposal decided on that ticket`
      : `candidates per ref slot: assumed ${basis.recordsPerCollection} records per collection (${basis.from === "maxPerCollection" ? "records.maxPerCollection, the most a ticket may hold" : "as given"}); pass a sample ticket to count real ones`,
    "bits per message = log2(templates) + Σ log2(candidates per slot); an optional slot left out is one more candidate; derived slots are computed in code and carry nothing the model chose",
    "per ticket = perTicket × bits per message; per day = perDay × bits per message, summed over templates: every template at its limit. An agent run is further capped by the outbox's maxPerRun",
    "records of other tickets reachable: 0 — a handle resolves only among the ticket's own records",
    "escalation codes and notes go to a person, never out",
  ];
  if (templates.some((template) => template.locales !== undefined)) {
    notes.push(
      "localised templates: the locale is read from the recipient's records, never chosen by the model, so it adds no bits; the same choices in two locales are one message (one idempotency key)",
    );
  }
  if (templates.some((template) => template.approval === "human")) {
    notes.push("templates with approval: a person approves each draft before it leaves");
  }
  return notes;
}
