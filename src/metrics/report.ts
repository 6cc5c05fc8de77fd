import { type DeliveryOutcomes, noDeliveryOutcomes } from "./delivery-outcomes.js";
import { observedDays, type Projection, projectHumanDecisions } from "./projection.js";
import { wilsonInterval } from "./wilson.js";

/** Decisions and escalations of one group (a template, a tag value, a day, or all), with the rate. */
export interface RateRow {
  /** The group: a template id, a tag value, a UTC day "YYYY-MM-DD", or "all". */
  readonly key: string;
  readonly decided: number;
  readonly sent: number;
  readonly escalated: number;
  /** escalated / decided, from 0 to 1; 0 when nothing was decided. */
  readonly rate: number;
  /** The 95% Wilson interval of the rate. */
  readonly low: number;
  readonly high: number;
  /**
   * On a version's row only: what providers reported of the messages sent under that version (delivery
   * events matched to an outbound row that records it). Absent when none came in. A version whose
   * messages were decided before the period has a row with no decisions, to hold them.
   */
  readonly deliveryOutcomes?: DeliveryOutcomes;
}

/** The rows of one tag: one per value the tag took. */
export interface TagRows {
  readonly tag: string;
  readonly rows: readonly RateRow[];
}

/** How many decisions escalated for one reason, as a share of all decisions. */
export interface ReasonRow {
  readonly reason: string;
  readonly count: number;
  /** count / decided, from 0 to 1. */
  readonly share: number;
  readonly low: number;
  readonly high: number;
  /**
   * The first escalations for this reason, with their history line and what the decision said: where
   * to look. Only in a replay's report (audit events are found with `queue list --reason`).
   */
  readonly examples?: readonly ReasonExample[];
}

/** One escalation of a replay, for a person to find: its line in the history file and its detail. */
export interface ReasonExample {
  readonly line: number;
  readonly detail: string;
}

/** A line of a history file that could not be replayed. */
export interface MalformedLine {
  readonly line: number;
  readonly problem: string;
}

/** The escalation report: what the design costs in human decisions, overall and by group. */
export interface EscalationReport {
  /** Where the decisions came from: a replayed history file, or an outbox's audit log. */
  readonly source: "replay" | "audit";
  /** What was counted, in sentences: the definitions the numbers rest on. */
  readonly definition: readonly string[];
  readonly overall: RateRow;
  /** Escalations by reason, most frequent first. */
  readonly byReason: readonly ReasonRow[];
  /** By the template the decision named; "(none)" for escalations before a template was known. */
  readonly byTemplate: readonly RateRow[];
  /**
   * By tag name (in the order first seen), then tag value; "(none)" for decisions without that tag. A
   * list, not an object keyed by name: a tag named `__proto__` or `constructor` is an ordinary tag.
   */
  readonly byTag: readonly TagRows[];
  /** By UTC day, oldest first; decisions without a time are counted in `period.undated` only. */
  readonly byDay: readonly RateRow[];
  /**
   * By the catalog version that decided, most decisions first: the rate before and after a deploy.
   * "(none)" for decisions recorded without one (written by an older version, or a version of the wrong shape).
   */
  readonly byCatalogVersion: readonly RateRow[];
  /** By template and its version, as `template@version`; decisions that named no template are left out. */
  readonly byTemplateVersion: readonly RateRow[];
  readonly period: {
    /** The first and last decision's time, ISO 8601. */
    readonly first: string | undefined;
    readonly last: string | undefined;
    /** Calendar days (UTC) from the first to the last decision, both included. */
    readonly days: number | undefined;
    readonly undated: number;
  };
  /** Identical proposals handled again: returned the first result, decided nothing new. */
  readonly duplicates: number;
  /** Sends whose delivery failed after the last retry: a person handles them, but they were decided as sends. */
  readonly deliveryFailures: number;
  /**
   * First contact: of the sends, how many were the first to their destination, with the 95% Wilson
   * interval of that rate — what holding first contacts (`firstContact: "hold"`) would send to people.
   */
  readonly firstContact: {
    readonly sends: number;
    readonly firstContacts: number;
    readonly rate: number;
    readonly low: number;
    readonly high: number;
  };
  /** What the providers reported after the sends (`delivery_status` events); all zero in a replay. */
  readonly deliveryOutcomes: DeliveryOutcomes;
  readonly malformed: { readonly count: number; readonly lines: readonly MalformedLine[] };
  /** Human decisions a day at the observed (or given) volume; absent when no decision has a time. */
  readonly projection: Projection | undefined;
  /** Groupings that reached the group cap: further keys were counted under "(other)". */
  readonly truncated: readonly string[];
}

/** What the accumulator hands over: plain counts, no events. */
export interface ReportCounts {
  readonly source: "replay" | "audit";
  readonly decided: number;
  readonly escalated: number;
  readonly reasons: ReadonlyMap<string, number>;
  readonly templates: ReadonlyMap<string, GroupCounts>;
  readonly tags: ReadonlyMap<string, ReadonlyMap<string, GroupCounts>>;
  readonly days: ReadonlyMap<string, GroupCounts>;
  readonly catalogVersions?: ReadonlyMap<string, GroupCounts>;
  readonly templateVersions?: ReadonlyMap<string, GroupCounts>;
  readonly first: number | undefined;
  readonly last: number | undefined;
  readonly undated: number;
  readonly duplicates: number;
  readonly deliveryFailures: number;
  /** Sends that were the first to their destination (at most the sends). */
  readonly firstContacts?: number;
  readonly deliveryOutcomes?: DeliveryOutcomes;
  /** Delivery outcomes by the catalog version and the `template@version` of the message's outbound row. */
  readonly deliveryByCatalogVersion?: ReadonlyMap<string, DeliveryOutcomes>;
  readonly deliveryByTemplateVersion?: ReadonlyMap<string, DeliveryOutcomes>;
  readonly malformedCount: number;
  readonly malformed: readonly MalformedLine[];
  /** The first escalations of each reason that came with a line number (a replay's). */
  readonly examples?: ReadonlyMap<string, readonly ReasonExample[]>;
  readonly truncated: readonly string[];
}

/** Counts of one group. */
export interface GroupCounts {
  readonly decided: number;
  readonly escalated: number;
}

/** Options of a report. */
export interface ReportOptions {
  /** Project human decisions at this many tickets a day instead of the observed volume. */
  readonly ticketsPerDay?: number;
}

/** The counting rules every report states, so a number is never read without its definition. */
export const countingRules: readonly string[] = [
  "decided: one decision per handled ticket; a duplicate (an identical proposal handled again) is not a new decision",
  "escalated: every decision that ends with a person, whatever the reason — approval_required counts (a person decides whether the draft goes) and so does limit_exceeded",
  "escalation rate = escalated / decided, with a 95% Wilson score interval",
  "delivery failures are counted apart: the decision was a send; a person handles the failure",
];

const replayRule =
  "replay runs decide() only: no limits and no idempotency, so limit_exceeded and duplicates appear only in an outbox's audit log";

/** Builds the report from the accumulator's counts. */
export function buildReport(counts: ReportCounts, options: ReportOptions = {}): EscalationReport {
  const overall = rateRow("all", counts);
  const days =
    counts.first === undefined || counts.last === undefined
      ? undefined
      : observedDays(counts.first, counts.last);
  const dated = counts.decided - counts.undated;
  let projection: Projection | undefined;
  if (options.ticketsPerDay !== undefined) {
    projection = projectHumanDecisions(counts, options.ticketsPerDay);
  } else if (days !== undefined && dated > 0) {
    projection = projectHumanDecisions(counts, dated / days, { basis: "observed", days });
  }
  const byTag: TagRows[] = [];
  for (const [name, values] of counts.tags) {
    const rows = sortByVolume(values);
    // Decisions without the tag make up the rest, so each grouping adds up to the whole.
    const tagged = rows.reduce(
      (sum, row) => ({ decided: sum.decided + row.decided, escalated: sum.escalated + row.escalated }),
      { decided: 0, escalated: 0 },
    );
    const rest = { decided: counts.decided - tagged.decided, escalated: counts.escalated - tagged.escalated };
    if (rest.decided > 0) rows.push(rateRow("(none)", rest));
    byTag.push({ tag: name, rows });
  }
  return {
    source: counts.source,
    definition: counts.source === "replay" ? [...countingRules, replayRule] : countingRules,
    overall,
    byReason: [...counts.reasons]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([reason, count]) => {
        const { low, high } = wilsonInterval(count, counts.decided);
        const examples = counts.examples?.get(reason);
        return {
          reason,
          count,
          share: counts.decided === 0 ? 0 : count / counts.decided,
          low,
          high,
          ...(examples === undefined || examples.length === 0 ? {} : { examples }),
        };
      }),
    byTemplate: sortByVolume(counts.templates),
    byTag,
    byDay: [...counts.days]
      .sort((a, b) => a[0].localeCompare(b[0]))
      .map(([key, group]) => rateRow(key, group)),
    byCatalogVersion: versionRows(counts.catalogVersions, counts.deliveryByCatalogVersion),
    byTemplateVersion: versionRows(counts.templateVersions, counts.deliveryByTemplateVersion),
    period: {
      first: counts.first === undefined ? undefined : new Date(counts.first).toISOString(),
      last: counts.last === undefined ? undefined : new Date(counts.last).toISOString(),
      days,
      undated: counts.undated,
    },
    duplicates: counts.duplicates,
    deliveryFailures: counts.deliveryFailures,
    firstContact: firstContactOf(counts),
    deliveryOutcomes: counts.deliveryOutcomes ?? noDeliveryOutcomes,
    malformed: { count: counts.malformedCount, lines: counts.malformed },
    projection,
    truncated: counts.truncated,
  };
}

function firstContactOf(counts: ReportCounts): EscalationReport["firstContact"] {
  const sends = counts.decided - counts.escalated;
  // A log holding more first-contact events than sends (an edited log, approvals counted twice) is
  // capped rather than failing the report.
  const firstContacts = Math.min(counts.firstContacts ?? 0, sends);
  const { low, high } = wilsonInterval(firstContacts, sends);
  return { sends, firstContacts, rate: sends === 0 ? 0 : firstContacts / sends, low, high };
}

function rateRow(key: string, group: GroupCounts): RateRow {
  const { low, high } = wilsonInterval(group.escalated, group.decided);
  return {
    key,
    decided: group.decided,
    sent: group.decided - group.escalated,
    escalated: group.escalated,
    rate: group.decided === 0 ? 0 : group.escalated / group.decided,
    low,
    high,
  };
}

/**
 * A version grouping's rows, most decisions first, each with the delivery outcomes of its messages; then
 * versions that decided nothing in the period but whose messages' outcomes came in, by key.
 */
function versionRows(
  groups: ReadonlyMap<string, GroupCounts> = new Map(),
  outcomes: ReadonlyMap<string, DeliveryOutcomes> = new Map(),
): RateRow[] {
  const withOutcomes = (row: RateRow): RateRow => {
    const delivered = outcomes.get(row.key);
    return delivered === undefined ? row : Object.assign(row, { deliveryOutcomes: delivered });
  };
  const rows = sortByVolume(groups).map(withOutcomes);
  const undecided = [...outcomes.keys()].filter((key) => !groups.has(key)).sort();
  for (const key of undecided) rows.push(withOutcomes(rateRow(key, { decided: 0, escalated: 0 })));
  return rows;
}

function sortByVolume(groups: ReadonlyMap<string, GroupCounts>): RateRow[] {
  return [...groups]
    .sort((a, b) => b[1].decided - a[1].decided || a[0].localeCompare(b[0]))
    .map(([key, group]) => rateRow(key, group));
}
