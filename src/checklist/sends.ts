import type { SampleOutcomes } from "./sample-proposals.js";
import type { ChecklistItem } from "./types.js";

/** Escalation groups named in the evidence of a template that sends nothing. */
const shownReasons = 5;

/**
 * Whether the template can send anything on the sample: ✗ when every proposal the model could make
 * escalates. A template that never sends on a ticket shaped like the sample is either broken (a `where`
 * or a `match` nothing passes, a format every value fails) or untested: its injection, scan and
 * recipient checks ran on nothing, so nothing about it was shown to hold.
 */
export function sendsItem(outcomes: SampleOutcomes): ChecklistItem {
  const { template, possible, tried, sending, escalations } = outcomes;
  // Past `maxTried` only the first proposals were decided: the counts say so.
  const of = tried === possible ? `${tried}` : `${tried} (the first of ${possible})`;
  const base = { section: "live", template: template.id, check: "sends" } as const;
  if (sending.length > 0) {
    return {
      ...base,
      status: "pass",
      summary: `${sending.length} of ${of} proposals produce a message on the sample (sent, or a draft for approval)`,
      evidence: [],
    };
  }
  const reasons = escalations
    .slice(0, shownReasons)
    .map(({ reason, slot, count }) => `${reason}${slot === "-" ? "" : ` on slot "${slot}"`}: ${count}`);
  return {
    ...base,
    status: "fail",
    summary:
      possible === 0
        ? "sends nothing on the sample: a slot has no record or key to choose"
        : `sends nothing on the sample: all ${of} proposals the model could make escalate`,
    evidence: [
      ...(reasons.length > 0 ? [`escalations: ${reasons.join("; ")}`] : []),
      "its scan, injection and recipient checks ran on no message; make the sample hold a ticket it is for, or fix the slot that refuses every record",
    ],
  };
}
