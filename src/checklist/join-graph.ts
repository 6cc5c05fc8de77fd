import type { PreparedTicket } from "../core/decision/ticket.js";
import type { Template } from "../core/definition/template-types.js";
import type { SampleOutcomes } from "./sample-proposals.js";
import { whereJoins } from "./where-joins.js";

/** How a template's ref slots are joined to one another, and which are not joined to the recipient. */
export interface JoinGraph {
  /** Per ref slot, the earlier slots it is joined to and how: `match` first, else a recognised `where`. */
  readonly joins: ReadonlyMap<string, { readonly to: readonly string[]; readonly by: "match" | "where" }>;
  /** Ref slots the model chooses that no chain of joins links to the recipient, in resolve order. */
  readonly apart: readonly string[];
}

/**
 * Joins link a ref slot to an earlier one: a `match`, or (without one, on a sample) a `where` that
 * compares the two records (`whereJoins`). A chosen record that no chain of joins links to the
 * recipient can be paired with any recipient the recipient's own joins allow: with an order slot and a
 * seller slot both chosen freely and the recipient joined to the seller, the model picks which seller's
 * contact receives the order. So the recipient is decided by the other choices only when every other
 * ref slot is linked to it.
 */
export function joinGraph(
  template: Template,
  ticket: PreparedTicket | undefined,
  outcomes: SampleOutcomes | undefined,
): JoinGraph {
  const joins = new Map<string, { to: string[]; by: "match" | "where" }>();
  const links = new Map<string, Set<string>>();
  const link = (a: string, b: string) => {
    for (const [from, to] of [
      [a, b],
      [b, a],
    ] as const) {
      const set = links.get(from) ?? new Set<string>();
      set.add(to);
      links.set(from, set);
    }
  };
  const refs = template.resolveOrder.filter((compiled) => compiled.slot.kind === "ref");
  for (const compiled of refs) {
    const matched = [...new Set(compiled.joins.map((join) => join.slot))];
    const to =
      matched.length > 0 || ticket === undefined || outcomes === undefined
        ? matched
        : whereJoins(template, ticket, outcomes.sending, compiled);
    if (to.length > 0) joins.set(compiled.name, { to, by: matched.length > 0 ? "match" : "where" });
    for (const other of to) link(compiled.name, other);
  }
  const reached = new Set<string>([template.recipient.name]);
  const queue = [template.recipient.name];
  for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
    for (const next of links.get(name) ?? []) {
      if (reached.has(next)) continue;
      reached.add(next);
      queue.push(next);
    }
  }
  return { joins, apart: refs.map((compiled) => compiled.name).filter((name) => !reached.has(name)) };
}
