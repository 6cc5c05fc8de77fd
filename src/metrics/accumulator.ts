import type { EscalationReason } from "../core/decision/reasons.js";
import { isContentVersion, recordedVersions } from "../core/definition/template-content.js";
import {
  createDeliveryOutcomeCounter,
  createDeliveryOutcomeGroups,
  isSentMessageOutcome,
} from "./delivery-outcomes.js";
import { isReportableTime } from "./history.js";
import {
  buildReport,
  type EscalationReport,
  type GroupCounts,
  type MalformedLine,
  type ReasonExample,
  type ReportOptions,
} from "./report.js";

/** One decision, as the metrics count it: from an audit event or a replayed `decide()`. */
export interface DecisionObservation {
  /** Epoch milliseconds; undefined when the source has no time (a history line without `at`). */
  readonly at?: number | undefined;
  /** The template the decision named, if it got that far. */
  readonly template?: string | undefined;
  readonly outcome: "send" | "escalate";
  readonly reason?: EscalationReason | undefined;
  /** Labels such as `{ category: "damage" }`; each name is a grouping, each value a group. */
  readonly tags?: Readonly<Record<string, string>> | undefined;
  /** The history line decided (a replay): an escalation with a line is kept as an example of its reason. */
  readonly line?: number | undefined;
  /** What the escalation said (the decision's `detail`), shown with its line among the examples. */
  readonly detail?: string | undefined;
  /** The version of the template the decision named; a value not shaped as a version counts as none. */
  readonly templateVersion?: unknown;
  /** The version of the catalog that decided; a value not shaped as a version counts as none. */
  readonly catalogVersion?: unknown;
}

/** Options of {@link createMetricsAccumulator}. */
export interface AccumulatorOptions {
  /** Where the decisions come from; stated in the report. @default "audit" */
  readonly source?: "replay" | "audit";
  /**
   * Most groups per grouping (templates, each tag name, days) and most tag names; further keys are counted
   * under "(other)", so memory stays bounded whatever the input holds. @default 1000
   */
  readonly maxGroups?: number;
  /** Most malformed lines kept with their number and problem; all are counted. @default 100 */
  readonly maxMalformed?: number;
  /** Most escalations kept per reason as examples (line and detail), the first ones met. @default 3 */
  readonly maxExamples?: number;
}

/** Counts decisions in one pass; memory grows with the number of groups, never with the number of decisions. */
export interface MetricsAccumulator {
  /** Counts one decision. */
  add(observation: DecisionObservation): void;
  /** Counts an identical proposal handled again: not a new decision. */
  addDuplicate(): void;
  /** Counts a send whose delivery failed for good: a person handles it, but it was decided as a send. */
  addDeliveryFailure(): void;
  /** Counts a send that was the first to its destination (first contact), out of the sends counted. */
  addFirstContact(): void;
  /**
   * Counts one provider delivery event (a `delivery_status` audit event's data, and the template of its
   * message): overall, and under the catalog version and `template@version` the data records, if any.
   */
  addDeliveryStatus(data: Readonly<Record<string, unknown>> | undefined, template?: string): void;
  /** Counts an input line that could not be read; the first `maxMalformed` keep their number and problem. */
  addMalformed(line: number, problem: string): void;
  /** The report of everything counted so far; counting may go on afterwards. */
  report(options?: ReportOptions): EscalationReport;
}

interface Counts {
  decided: number;
  escalated: number;
}

const other = "(other)";
const dayMs = 86_400_000;

/** A capped map of counts: once full, new keys share the "(other)" group. */
class Groups {
  readonly map = new Map<string, Counts>();
  truncated = false;

  constructor(private readonly cap: number) {}

  add(key: string, escalated: boolean): void {
    let counts = this.map.get(key);
    if (counts === undefined) {
      if (this.map.size >= this.cap) {
        this.truncated = true;
        key = other;
        counts = this.map.get(key);
      }
      if (counts === undefined) {
        counts = { decided: 0, escalated: 0 };
        this.map.set(key, counts);
      }
    }
    counts.decided += 1;
    if (escalated) counts.escalated += 1;
  }
}

/**
 * Creates the streaming counter behind every escalation report: feed it decisions one at a time (from
 * an audit log, a replay, your own loop), then ask for the report.
 *
 * @example
 * import { createMetricsAccumulator } from "formletter/metrics";
 * const metrics = createMetricsAccumulator();
 * metrics.add({ at: Date.now(), template: "tracking_request", outcome: "send", tags: { category: "delay" } });
 * metrics.report().overall; // { decided: 1, escalated: 0, rate: 0, low: 0, high: 0.79, … }
 */
export function createMetricsAccumulator(options: AccumulatorOptions = {}): MetricsAccumulator {
  const maxGroups = options.maxGroups ?? 1000;
  const maxMalformed = options.maxMalformed ?? 100;
  const maxExamples = options.maxExamples ?? 3;
  if (!Number.isInteger(maxGroups) || maxGroups < 1)
    throw new RangeError("maxGroups must be a whole number ≥ 1");
  let decided = 0;
  let escalated = 0;
  let undated = 0;
  let duplicates = 0;
  let deliveryFailures = 0;
  let firstContacts = 0;
  const deliveryOutcomes = createDeliveryOutcomeCounter();
  const deliveryByCatalogVersion = createDeliveryOutcomeGroups(maxGroups);
  const deliveryByTemplateVersion = createDeliveryOutcomeGroups(maxGroups);
  let malformedCount = 0;
  let first: number | undefined;
  let last: number | undefined;
  let tagNamesTruncated = false;
  const reasons = new Map<string, number>();
  const templates = new Groups(maxGroups);
  const tags = new Map<string, Groups>();
  const days = new Groups(maxGroups);
  const catalogVersions = new Groups(maxGroups);
  const templateVersions = new Groups(maxGroups);
  const malformed: MalformedLine[] = [];
  const examples = new Map<string, ReasonExample[]>();
  // Decisions arrive mostly in time order: the last day's key is reused instead of formatting a date each time.
  let lastDay = Number.NaN;
  let lastDayKey = "";

  return {
    add(observation) {
      const isEscalation = observation.outcome === "escalate";
      decided += 1;
      if (isEscalation) {
        escalated += 1;
        const reason = observation.reason ?? "unknown";
        reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
        if (observation.line !== undefined) {
          let kept = examples.get(reason);
          if (kept === undefined) {
            kept = [];
            examples.set(reason, kept);
          }
          if (kept.length < maxExamples)
            kept.push({ line: observation.line, detail: exampleDetail(observation.detail) });
        }
      }
      templates.add(observation.template ?? "(none)", isEscalation);
      const { catalogVersion, templateVersion } = observation;
      catalogVersions.add(isContentVersion(catalogVersion) ? catalogVersion : "(none)", isEscalation);
      if (observation.template !== undefined) {
        const version = isContentVersion(templateVersion) ? templateVersion : "(none)";
        templateVersions.add(`${observation.template}@${version}`, isEscalation);
      }
      const at = observation.at;
      // A time no Date can hold has no day: counted as undated rather than failing the whole report.
      if (at === undefined || !isReportableTime(at)) {
        undated += 1;
      } else {
        if (first === undefined || at < first) first = at;
        if (last === undefined || at > last) last = at;
        const day = Math.floor(at / dayMs);
        if (day !== lastDay) {
          lastDay = day;
          lastDayKey = new Date(day * dayMs).toISOString().slice(0, 10);
        }
        days.add(lastDayKey, isEscalation);
      }
      if (observation.tags !== undefined) {
        for (const name in observation.tags) {
          if (!Object.hasOwn(observation.tags, name)) continue;
          const value = observation.tags[name];
          if (typeof value !== "string") continue;
          let groups = tags.get(name);
          if (groups === undefined) {
            if (tags.size >= maxGroups) {
              tagNamesTruncated = true;
              continue;
            }
            groups = new Groups(maxGroups);
            tags.set(name, groups);
          }
          groups.add(value, isEscalation);
        }
      }
    },
    addDuplicate() {
      duplicates += 1;
    },
    addDeliveryFailure() {
      deliveryFailures += 1;
    },
    addFirstContact() {
      firstContacts += 1;
    },
    addDeliveryStatus(data, template) {
      deliveryOutcomes.add(data);
      if (data === undefined || !isSentMessageOutcome(data)) return;
      // Only versions the event records: a message written by an older version, or a person's own
      // reply, is counted overall and in no version's group.
      const { catalogVersion, templateVersion } = recordedVersions(data);
      if (catalogVersion !== undefined) deliveryByCatalogVersion.add(catalogVersion, data);
      if (templateVersion !== undefined && typeof template === "string")
        deliveryByTemplateVersion.add(`${template}@${templateVersion}`, data);
    },
    addMalformed(line, problem) {
      malformedCount += 1;
      if (malformed.length < maxMalformed) malformed.push({ line, problem });
    },
    report(reportOptions) {
      const truncated = [
        ...(templates.truncated ? ["template"] : []),
        ...(days.truncated ? ["day"] : []),
        ...(catalogVersions.truncated || deliveryByCatalogVersion.truncated ? ["catalog version"] : []),
        ...(templateVersions.truncated || deliveryByTemplateVersion.truncated ? ["template version"] : []),
        ...(tagNamesTruncated ? ["tag names"] : []),
        ...[...tags].filter(([, groups]) => groups.truncated).map(([name]) => `tag:${name}`),
      ];
      return buildReport(
        {
          source: options.source ?? "audit",
          decided,
          escalated,
          reasons,
          templates: snapshot(templates),
          tags: new Map([...tags].map(([name, groups]) => [name, snapshot(groups)])),
          days: snapshot(days),
          catalogVersions: snapshot(catalogVersions),
          templateVersions: snapshot(templateVersions),
          first,
          last,
          undated,
          duplicates,
          deliveryFailures,
          firstContacts,
          deliveryOutcomes: deliveryOutcomes.snapshot(),
          deliveryByCatalogVersion: deliveryByCatalogVersion.snapshot(),
          deliveryByTemplateVersion: deliveryByTemplateVersion.snapshot(),
          malformedCount,
          malformed: [...malformed],
          examples: new Map([...examples].map(([reason, kept]) => [reason, [...kept]])),
          truncated,
        },
        reportOptions,
      );
    },
  };
}

// An example is a pointer to the line, not a copy of it: a detail is cut to one short line.
const maxDetailLength = 240;

function exampleDetail(detail: string | undefined): string {
  if (detail === undefined) return "";
  const flat = detail.replace(/\s+/g, " ").trim();
  return flat.length > maxDetailLength ? `${flat.slice(0, maxDetailLength - 1)}…` : flat;
}

function snapshot(groups: Groups): ReadonlyMap<string, GroupCounts> {
  return new Map([...groups.map].map(([key, counts]) => [key, { ...counts }]));
}
