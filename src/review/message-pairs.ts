import type { Choices, Decision, Message } from "../core/decision/decision.js";
import type { EscalationReason } from "../core/decision/reasons.js";
import { hasChange, type WordRun, wordDiff } from "./word-diff.js";

/** How one proposal's message differs between the two catalogs. */
export type MessageChangeKind = "changed" | "recipient-changed" | "newly-sent" | "newly-escalated";

/** Every message change kind, in the order a review lists them. */
export const messageChangeKinds: readonly MessageChangeKind[] = [
  "recipient-changed",
  "newly-escalated",
  "newly-sent",
  "changed",
];

/** What one catalog does with a proposal: a message (sent, or waiting for approval), or an escalation. */
export type MessageOutcome =
  | { readonly kind: "send" | "approval"; readonly message: Message }
  | { readonly kind: "escalate"; readonly reason: EscalationReason; readonly detail: string };

/** A proposal whose outcome differs, with both outcomes and, for two messages, a word diff of each part. */
export interface MessageChange {
  readonly kind: MessageChangeKind;
  readonly ticketId: string;
  /** The history line of the proposal; undefined for a proposal enumerated on a ticket. */
  readonly line: number | undefined;
  /** The template the proposal named (as the head, else the base, resolved it). */
  readonly template: string | undefined;
  /** What the model chose, handles and keys only; empty when neither side got that far. */
  readonly choices: Choices;
  readonly base: MessageOutcome;
  readonly head: MessageOutcome;
  /** Two messages: each part that differs, as word runs. Subject, text, HTML and the recipient. */
  readonly diff: Readonly<Partial<Record<"to" | "subject" | "text" | "html", readonly WordRun[]>>>;
}

/** A proposal decided by both catalogs, and where it came from. */
export interface DecidedPair {
  readonly ticketId: string;
  readonly line: number | undefined;
  readonly base: Decision;
  readonly head: Decision;
}

/**
 * Pairs one proposal's two decisions: undefined when both send the same message (or both escalate, so
 * neither sends anything), else the change. A draft waiting for approval counts as its message: a
 * person approving it sends exactly that text.
 */
export function compareDecisions(pair: DecidedPair): MessageChange | undefined {
  const base = outcomeOf(pair.base);
  const head = outcomeOf(pair.head);
  const change = (kind: MessageChangeKind, diff: MessageChange["diff"] = {}): MessageChange => ({
    kind,
    ticketId: pair.ticketId,
    line: pair.line,
    template: pair.head.template ?? pair.base.template,
    choices: choicesOf(pair.head) ?? choicesOf(pair.base) ?? {},
    base,
    head,
    diff,
  });
  if (base.kind === "escalate" && head.kind === "escalate") return undefined;
  if (base.kind === "escalate") return change("newly-sent");
  if (head.kind === "escalate") return change("newly-escalated");
  const diff = messageDiff(base.message, head.message);
  if (diff.to !== undefined || base.message.channel !== head.message.channel)
    return change("recipient-changed", diff);
  if (Object.keys(diff).length > 0 || base.kind !== head.kind || base.message.locale !== head.message.locale)
    return change("changed", diff);
  return undefined;
}

function outcomeOf(decision: Decision): MessageOutcome {
  if (decision.outcome === "send") return { kind: "send", message: decision.message };
  if (decision.reason === "approval_required" && decision.draft !== undefined)
    return { kind: "approval", message: decision.draft };
  return { kind: "escalate", reason: decision.reason, detail: decision.detail };
}

function choicesOf(decision: Decision): Choices | undefined {
  return decision.choices;
}

function messageDiff(before: Message, after: Message): MessageChange["diff"] {
  const diff: Partial<Record<"to" | "subject" | "text" | "html", readonly WordRun[]>> = {};
  for (const part of ["to", "subject", "text", "html"] as const) {
    const a = before[part] ?? "";
    const b = after[part] ?? "";
    if (a === b) continue;
    const runs = wordDiff(a, b);
    if (hasChange(runs)) diff[part] = runs;
  }
  return diff;
}
