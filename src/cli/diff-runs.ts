import { escapeHtml } from "../core/definition/channels.js";
import { printable, printableLine } from "../core/message/sanitize.js";
import { percent } from "../metrics/summary.js";
import type { DiffReview } from "../review/diff-review.js";
import type { MessageChange, MessageOutcome } from "../review/message-pairs.js";
import { placeOf } from "../review/message-review.js";
import type { WordRun } from "../review/word-diff.js";

/** A word diff for a terminal, as `git diff --word-diff` writes it: `[-removed-]{+added+}`. */
export function runsText(runs: readonly WordRun[]): string {
  return runs
    .map((run) =>
      run.op === "same"
        ? printable(run.text)
        : run.op === "removed"
          ? `[-${printable(run.text)}-]`
          : `{+${printable(run.text)}+}`,
    )
    .join("");
}

/**
 * A word diff as HTML, `<del>` and `<ins>` around the changed words, every text escaped: message text
 * holds record values, which must not become markup in a pull-request comment or a page.
 */
export function runsHtml(runs: readonly WordRun[]): string {
  return runs
    .map((run) => {
      const text = escapeHtml(printable(run.text));
      return run.op === "same" ? text : run.op === "removed" ? `<del>${text}</del>` : `<ins>${text}</ins>`;
    })
    .join("");
}

/** "escalates: slot_rejected (detail)", "sends", "waits for approval": one side of a change, one line. */
export function outcomeText(outcome: MessageOutcome): string {
  if (outcome.kind === "escalate") return `escalates: ${outcome.reason} (${printableLine(outcome.detail)})`;
  return outcome.kind === "send" ? "sends" : "waits for approval";
}

/**
 * The parts of a change to show, each as a label and word runs: the diff of two messages, or the one
 * message of a change that sends on one side only (all added, or all removed). A change between two
 * equal texts (a draft that no longer waits for approval) shows none: its heading says it.
 */
export function changeParts(change: MessageChange): { part: string; runs: readonly WordRun[] }[] {
  const parts = Object.entries(change.diff).map(([part, runs]) => ({
    part,
    runs: runs as readonly WordRun[],
  }));
  if (change.kind !== "newly-sent" && change.kind !== "newly-escalated") return parts;
  const side = change.kind === "newly-sent" ? change.head : change.base;
  if (side.kind === "escalate") return [];
  const op = change.kind === "newly-sent" ? "added" : "removed";
  return (["to", "subject", "text"] as const)
    .filter((part) => side.message[part] !== undefined)
    .map((part) => ({ part, runs: [{ op, text: side.message[part] as string }] }));
}

/** One line naming a change: kind, place, template, and how each side decides. */
export function changeHeading(change: MessageChange): string {
  const template = change.template === undefined ? "" : ` · ${printableLine(change.template)}`;
  return `${change.kind}  ${placeOf(change)}${template}: base ${outcomeText(change.base)}, head ${outcomeText(change.head)}`;
}

/** "205 proposals: 200 unchanged, 3 changed, …". */
export function messageCounts(review: NonNullable<DiffReview["messages"]>): string {
  const { counts } = review;
  return `${review.pairs} proposal${review.pairs === 1 ? "" : "s"}: ${review.unchanged} unchanged, ${counts.changed} changed, ${counts["recipient-changed"]} recipient changed, ${counts["newly-sent"]} newly sent, ${counts["newly-escalated"]} newly escalated`;
}

/** "base 12.2% (95% CI 8.4–17.4%, 25 of 205) → head …, +1.5 points". */
export function ratesLine(rates: NonNullable<DiffReview["rates"]>): string {
  const side = (rate: typeof rates.base) =>
    `${percent(rate.rate)} (95% CI ${percent(rate.low)}–${percent(rate.high)}, ${rate.escalated} of ${rate.decided})`;
  return `escalation rate: base ${side(rates.base)} → head ${side(rates.head)}, ${pointsText(rates.points)}`;
}

/** "+1.5 points", "−0.3 points", "no change". */
export function pointsText(points: number): string {
  const rounded = Math.round(points * 10) / 10;
  if (rounded === 0) return points === 0 ? "no change" : `${points > 0 ? "+" : "−"}0.0 points`;
  return `${rounded > 0 ? "+" : "−"}${Math.abs(rounded).toFixed(1)} points`;
}

/** Templates whose bits per message changed (or that are on one side only), as "id 3.2 → 4.2 bits". */
export function capacityLines(review: DiffReview): string[] {
  const bits = (value: number | undefined) => (value === undefined ? "—" : value.toFixed(1));
  return review.capacity
    .filter((entry) => entry.base !== entry.head)
    .map((entry) => `${printableLine(entry.id)} ${bits(entry.base)} → ${bits(entry.head)} bits`);
}

/** "order_note de: body, choices.reason": each translation that may be outdated, one line. */
export function translationLines(review: DiffReview): string[] {
  return review.translations.map(
    (entry) => `${printableLine(entry.template)} ${printableLine(entry.locale)}: ${entry.parts.join(", ")}`,
  );
}
