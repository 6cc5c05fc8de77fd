import type { PreparedTicket } from "../decision/ticket.js";
import type { Template } from "../definition/template-types.js";
import { type OmissionReason, planTemplate, type TemplatePlan } from "./candidates.js";

/** A template left out of a ticket's tools, and why: the caller can see what the model was not offered. */
export interface OmittedTemplate {
  readonly template: string;
  /**
   * "no_candidates": a slot the model fills has no record of this ticket that fits (for any choice of
   * the others); "no_value": a derived slot computes nothing. (A template cannot take the name of a
   * tool formletter adds: defineTemplate refuses the id.)
   */
  readonly reason: OmissionReason;
  /** The slot no record fits, when one slot is at fault. */
  readonly slot?: string;
}

/** A template this ticket can fill, with what each slot may take. */
export type FillablePlan = Extract<TemplatePlan, { fillable: true }>;

/** The templates a ticket can fill, the ones it cannot and why, and the ones whose lists were widened. */
export interface Offer {
  readonly plans: readonly FillablePlan[];
  readonly omitted: readonly OmittedTemplate[];
  readonly widened: readonly string[];
}

/** Plans every template of the catalog on one ticket. */
export function planOffer(templates: readonly Template[], ticket: PreparedTicket): Offer {
  const plans: FillablePlan[] = [];
  const omitted: OmittedTemplate[] = [];
  const widened: string[] = [];
  for (const template of templates) {
    const plan = planTemplate(template, ticket);
    if (!plan.fillable) {
      omitted.push({
        template: template.id,
        reason: plan.reason,
        ...(plan.slot === undefined ? {} : { slot: plan.slot }),
      });
      continue;
    }
    plans.push(plan);
    if (plan.widened) widened.push(template.id);
  }
  return { plans, omitted, widened };
}

/**
 * Plans every template for tools that every ticket shares: each slot the model could fill (the
 * recipient too), keys as declared, ref slots unlisted (decide() checks the handle against the
 * ticket). A recipient takes "none" as well: decide() fills it when the records leave one.
 */
export function planCatalog(templates: readonly Template[]): Offer {
  const plans: FillablePlan[] = [];
  const omitted: OmittedTemplate[] = [];
  for (const template of templates) {
    const slots = template.resolveOrder
      .filter((compiled) => compiled.slot.kind !== "derived")
      .map((compiled) => ({
        slot: compiled,
        values: compiled.slot.kind === "choice" ? [...compiled.keys.values()] : [],
        none: compiled.slot.optional || compiled === template.recipient,
      }));
    plans.push({ fillable: true, template, slots, widened: false });
  }
  return { plans, omitted, widened: [] };
}
