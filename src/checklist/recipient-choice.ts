import type { PreparedTicket } from "../core/decision/ticket.js";
import type { Join, Template } from "../core/definition/template-types.js";
import { joinGraph } from "./join-graph.js";
import type { SampleOutcomes } from "./sample-proposals.js";
import type { ChecklistItem } from "./types.js";

type ItemFields = Omit<ChecklistItem, "section" | "template">;

/** What the sample shows of the recipient: the most records that fit one choice of the other slots. */
interface Spread {
  readonly most: number;
  /** Every proposal was decided; otherwise the count is of the first ones only. */
  readonly complete: boolean;
}

/**
 * Among the proposals that produce a message, the most distinct recipients one choice of the other
 * slots leaves: 1 when the other choices decide the recipient, more when the model picks it.
 */
function spreadOf(outcomes: SampleOutcomes): Spread | undefined {
  if (outcomes.sending.length === 0) return undefined;
  const recipients = new Map<string, Set<string>>();
  for (const proposal of outcomes.sending) {
    const { to, ...others } = proposal.slots;
    const key = JSON.stringify(Object.entries(others));
    const seen = recipients.get(key) ?? new Set<string>();
    seen.add(String(to).toLowerCase());
    recipients.set(key, seen);
  }
  const most = Math.max(...[...recipients.values()].map((seen) => seen.size));
  return { most, complete: outcomes.tried === outcomes.possible };
}

/** What a steered model can do with a recipient it chooses, for the item's evidence. */
function attack(collection: string): string {
  return `an instruction hidden in a ticket's text can make the model send this message, with every record value it shows, to any ${collection} record of the ticket: a party the chosen records do not concern (another seller, a former contact) or one the ticket's writer added or controls; each such message is within the limits and passes the scan`;
}

/**
 * Whether the join alone leaves one record: ids are unique within a ticket's collection, so a `match`
 * on the recipient's `id` does; any other join may leave several records sharing the value, which only
 * a sample holding two or more of them can show.
 */
function uniqueness(
  joins: readonly Join[],
  compared: readonly string[],
  collection: string,
  held: number,
): string {
  if (joins.some((join) => join.field === "id")) {
    return `the join is on ${collection}.id, unique in a ticket: at most one record per choice, whatever the ticket holds`;
  }
  const on =
    joins.length > 0
      ? `${collection}.${joins.map((join) => join.field).join(", ")}`
      : `the where's comparison with ${compared.join(", ")}`;
  return held >= 2
    ? `the join is on ${on}, not ${collection}.id: the sample's ${held} ${collection} records show it tells them apart`
    : `the join is on ${on}, not ${collection}.id: several records may share it, and the sample holds ${plural(held, `${collection} record`)}, too few to show it tells them apart; give it two`;
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;

/**
 * Whether the model chooses who receives the message. The recipient is decided by the other choices
 * when its slot is joined to an earlier ref slot (a `match`, or a `where` that compares the two records:
 * see `whereJoins`), every other chosen ref slot is linked to it by a chain of joins (`joinGraph`), and
 * on the sample every choice of the other slots leaves at most one recipient that produces a message. Otherwise the model picks among the collection's records, which is ✗ unless
 * a ticket can hold only one of them, or the template declares `recipient: "model-chooses"`: then !.
 */
export function recipientChoiceItem(
  template: Template,
  outcomes: SampleOutcomes | undefined,
  ticket: PreparedTicket | undefined,
  maxPerCollection: number,
): ItemFields {
  const { slot, joins } = template.recipient;
  const collection = slot.kind === "ref" ? slot.collection : "?";
  const spread = outcomes === undefined ? undefined : spreadOf(outcomes);
  const graph = joinGraph(template, ticket, outcomes);
  const own = graph.joins.get(template.recipient.name);
  const compared = own?.by === "where" ? own.to : [];
  const joinedBy = [
    ...joins.map((join) => `match ${join.field} = ${join.slot}.${join.otherField}`),
    ...compared.map((name) => `its where compares it with the ${name} chosen`),
  ];
  const joinedTo = [...new Set([...joins.map((join) => join.slot), ...compared])];
  const counted =
    spread === undefined
      ? outcomes === undefined
        ? "not counted: no valid sample ticket"
        : "not counted: no proposal produces a message on the sample"
      : `on the sample: at most ${plural(spread.most, `${collection} record`)} for one choice of the other slots${spread.complete ? "" : ` (of the first ${outcomes?.tried} proposals)`}`;
  const held = ticket?.collections.get(collection)?.records.length ?? 0;
  const apart = graph.apart;
  const evidence = [
    joinedBy.length > 0 ? `joined: ${joinedBy.join("; ")}` : "not joined to any other chosen record",
    counted,
    ...(joinedBy.length > 0 && apart.length > 0
      ? [
          `not linked to the recipient by any chain of joins: ${apart.join(", ")}${ticket === undefined ? " (without a sample only match joins are seen)" : ""}`,
        ]
      : []),
  ];
  if (template.recipientChoice === "model-chooses") {
    return {
      check: "recipient_choice",
      status: "warn",
      summary: `the model chooses which ${collection} record receives this message (declared: recipient "model-chooses")`,
      evidence: [
        ...evidence,
        attack(collection),
        ...(joinedBy.length > 0 && apart.length === 0 && spread !== undefined && spread.most <= 1
          ? ["the joins already decide the recipient on the sample: the declaration may not be needed"]
          : []),
      ],
    };
  }
  const fix = `join the recipient to the record it concerns with match (e.g. match: { id: "order.${collection}Id" }), or declare recipient: "model-chooses" if the model is meant to choose`;
  if (spread !== undefined && spread.most > 1) {
    return {
      check: "recipient_choice",
      status: "fail",
      summary: `the model chooses which ${collection} record receives this message: ${spread.most} fit one choice of the other slots on the sample`,
      evidence: [...evidence, attack(collection), fix],
    };
  }
  if (joinedBy.length === 0 && maxPerCollection > 1) {
    return {
      check: "recipient_choice",
      status: "fail",
      summary: `the model chooses which ${collection} record receives this message: nothing joins it to the other chosen records, and a ticket may hold ${maxPerCollection} ${collection} records`,
      evidence: [...evidence, attack(collection), fix],
    };
  }
  if (joinedBy.length > 0 && apart.length > 0) {
    const them = apart.map((name) => `the ${name}`).join(" and ");
    return {
      check: "recipient_choice",
      status: "fail",
      summary: `the model chooses which ${collection} record receives ${them} chosen: the recipient is joined to the ${joinedTo.join(" and ")} chosen, and nothing joins ${apart.length === 1 ? "it" : "them"} to that`,
      evidence: [
        ...evidence,
        attack(collection),
        `join ${them} to the ${joinedTo.join(" and ")} (or the recipient to ${apart.length === 1 ? "it" : "them"}) with match, or declare recipient: "model-chooses" if the model is meant to choose`,
      ],
    };
  }
  return {
    check: "recipient_choice",
    status: "pass",
    summary:
      joinedBy.length > 0
        ? `decided by the other choices: joined to the ${joinedTo.join(" and ")} chosen`
        : `decided by the records: a ticket holds at most ${maxPerCollection} ${collection} record`,
    evidence: joinedBy.length === 0 ? evidence : [...evidence, uniqueness(joins, compared, collection, held)],
  };
}
