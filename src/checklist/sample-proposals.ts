import { slotOptions } from "../capacity/enumerate.js";
import type { Catalog } from "../core/decision/catalog.js";
import type { Decision, SendDecision } from "../core/decision/decision.js";
import type { PreparedTicket } from "../core/decision/ticket.js";
import type { Template } from "../core/definition/template-types.js";

/** A proposal the checklist makes for one template: a handle, key or "none" for each chosen slot. */
export interface SampleProposal {
  readonly template: string;
  readonly slots: Readonly<Record<string, string | null>>;
}

/** What every proposal the model could make for one template does on the sample ticket. */
export interface SampleOutcomes {
  readonly template: Template;
  /** Proposals possible on the sample: the product of each chosen slot's handles, keys and "none". */
  readonly possible: number;
  /** Proposals decided: all of them, or the first `maxTried`. */
  readonly tried: number;
  /** The proposals that send, or wait for a person's approval with a draft, in the order tried. */
  readonly sending: readonly SampleProposal[];
  /** Escalations of the others, by reason and the slot it names ("-" for none), most frequent first. */
  readonly escalations: readonly { readonly reason: string; readonly slot: string; readonly count: number }[];
}

/** The message a decision produces: the one sent, or the draft a person would approve. */
export function producedMessage(decision: Decision): SendDecision | undefined {
  if (decision.outcome === "send") return decision;
  if (decision.reason !== "approval_required" || decision.draft === undefined) return undefined;
  return {
    outcome: "send",
    ticketId: decision.ticketId ?? "",
    template: decision.template ?? "",
    message: decision.draft,
    values: decision.values ?? {},
    choices: decision.choices ?? {},
    key: decision.key ?? "",
  };
}

/**
 * Decides every proposal the model could make for `template` on the sample (each record of each ref
 * slot's collection, each key, "none" for optional slots), up to `maxTried`, and keeps those that produce
 * a message. The recipient is resolved last, so proposals that differ only in it are tried one after the
 * other. Run once per template and shared by the checks that need it.
 */
export function sampleOutcomes(
  catalog: Catalog,
  ticket: PreparedTicket,
  template: Template,
  maxTried = 5000,
): SampleOutcomes {
  const options = slotOptions(template, ticket);
  const possible = options.reduce((product, option) => product * option.values.length, 1);
  const sending: SampleProposal[] = [];
  const escalated = new Map<string, { reason: string; slot: string; count: number }>();
  let tried = 0;
  const slots: Record<string, string | null> = {};
  const visit = (index: number): void => {
    if (tried >= maxTried) return;
    const option = options[index];
    if (option === undefined) {
      tried += 1;
      const proposal = { template: template.id, slots: { ...slots } };
      const decision = catalog.decide(proposal, ticket);
      if (producedMessage(decision) !== undefined) {
        sending.push(proposal);
        return;
      }
      // Only the reason code and the slot's name: the checklist never shows a value of the records.
      const reason = decision.outcome === "escalate" ? decision.reason : "?";
      const named = (decision as { slot?: unknown }).slot;
      const slot = typeof named === "string" ? named : "-";
      const key = `${reason} ${slot}`;
      const entry = escalated.get(key) ?? { reason, slot, count: 0 };
      entry.count += 1;
      escalated.set(key, entry);
      return;
    }
    for (const value of option.values) {
      slots[option.name] = value;
      visit(index + 1);
    }
  };
  if (possible > 0) visit(0);
  return {
    template,
    possible,
    tried,
    sending,
    escalations: [...escalated.values()].sort((a, b) => b.count - a.count),
  };
}

/** Up to `count` of the sending proposals, evenly spread over them. */
export function spreadProposals(outcomes: SampleOutcomes, count: number): SampleProposal[] {
  const { sending } = outcomes;
  if (sending.length <= count) return [...sending];
  const step = sending.length / count;
  return Array.from({ length: count }, (_, index) => sending[Math.floor(index * step)] as SampleProposal);
}
