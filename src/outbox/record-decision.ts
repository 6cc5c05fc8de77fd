import { hash, type KeyObject } from "node:crypto";
import { type CeilingTrip, tripOf } from "../core/decision/ceiling-check.js";
import {
  type Decision,
  type EscalateDecision,
  escalate,
  escalationFacts,
  type Message,
  type SendDecision,
} from "../core/decision/decision.js";
import { type Spend, windowMs } from "../core/definition/ceilings.js";
import type { Template } from "../core/definition/template-types.js";
import { merged } from "../core/merged.js";
import {
  type AuditEvent,
  newOutboundRow,
  numberedOutboundRow,
  type OutboundRow,
  openQueueItem,
  type StoredResult,
  type StoreTransaction,
  type Suppression,
} from "../store/store.js";
import { destinationHash, destinationShown, recordContact } from "./first-contact.js";
import { dayMs, limitProblem } from "./limits.js";

/** One decision to make durable: everything `handle()` knows once `decide` has run. */
export interface Recording {
  readonly decision: Decision;
  readonly template: Template | undefined;
  readonly ticketId: string;
  readonly runId: string;
  readonly at: number;
  readonly mode: "live" | "shadow";
  readonly maxPerRun: number;
  /** How long the caller holds a new outbound row (written `delivering`) while it delivers it inline. */
  readonly leaseUntil: number;
  /** Audit data beyond the decision: tags, raw output, proposal, timings, catalog version. */
  readonly audit: DecisionAudit;
  /**
   * First contact: the key destinations are hashed with, and whether a first message to one waits for
   * a person. Absent (no `contactKey`): destinations are not recorded.
   */
  readonly contacts?: { readonly key: KeyObject; readonly hold: boolean };
  /**
   * The suppression of the destination the decision writes to, read before the transaction: a send (or
   * a draft) to it escalates `destination_suppressed`, unless the key was decided before (a duplicate).
   */
  readonly suppressed?: Suppression | undefined;
}

/**
 * What `handle()` knew beside the decision, for its audit event: the fields come first in the event's
 * data, in this order (the data is built in one piece, see auditData).
 */
export interface DecisionAudit {
  readonly tags: Readonly<Record<string, string>>;
  /** The model's output as it came, capped. */
  readonly output: string;
  /** The proposal without its note, or null when the output is not one. */
  readonly proposal: unknown;
  readonly catalogVersion: string;
  readonly timings: { readonly loadMs: number; readonly decideMs: number };
}

/** What the transaction wrote. */
export interface Recorded extends StoredResult {
  readonly duplicate: boolean;
  /** The outbound row to deliver now (live sends only). */
  readonly outbound: OutboundRow | undefined;
}

// The spend of a message that spends nothing: one array for all of them, kept by every reservation.
const noSpend: readonly Spend[] = Object.freeze([]);

/** SHA-256 of a message's text, as the audit log and outbound rows record it. */
export function bodyHash(message: Message): string {
  return hash("sha256", message.text, "hex");
}

/**
 * The transaction of one `handle()`: idempotency, limits, one audit event, and an outbound row or a
 * queue item. Runs inside `store.transaction`, so it commits whole or not at all.
 */
export async function recordDecision(tx: StoreTransaction, input: Recording): Promise<Recorded> {
  const { ticketId, runId, at } = input;
  let { decision } = input;
  const key =
    decision.outcome === "send" || decision.reason === "approval_required" ? decision.key : undefined;
  if (key === undefined || input.template === undefined)
    return escalateOnly(tx, input, decision as EscalateDecision);

  const prior = await tx.findResult(key);
  if (prior !== undefined) {
    await tx.appendAudit(
      decisionEvent(input, prior.decision, "duplicate", duplicateData(input.audit, prior.auditId)),
    );
    return merged(prior, { duplicate: true, outbound: undefined });
  }

  const template = input.template;
  if (input.suppressed !== undefined) {
    const { cause } = input.suppressed;
    const blocked = escalate({
      reason: "destination_suppressed",
      detail: `${template.id}: the recipient's destination is suppressed (${cause === "complaint" ? "its owner complained" : "it bounced for good"}, reported by ${input.suppressed.provider}); lift the suppression to write to it again`,
      cause,
      destination: destinationShown(input.suppressed.destination),
      ticketId,
      template: template.id,
      ...(decision.values ? { values: decision.values } : {}),
      ...(decision.choices ? { choices: decision.choices } : {}),
    });
    return escalateOnly(tx, input, blocked);
  }
  const counts = await tx.countSends({
    template: template.id,
    ticketId,
    runId,
    since: at - dayMs,
    limits: { ticket: template.limits.perTicket, day: template.limits.perDay, run: input.maxPerRun },
  });
  const problem = limitProblem(template.id, template.limits, counts, input.maxPerRun, { ticketId, runId });
  const message = (decision.outcome === "send" ? decision.message : decision.draft) as Message;
  if (problem !== undefined) {
    const limited = escalate({
      reason: "limit_exceeded",
      ...problem,
      ticketId,
      template: template.id,
      key,
      ...(message ? { draft: message } : {}),
      ...(decision.values ? { values: decision.values } : {}),
      ...(decision.choices ? { choices: decision.choices } : {}),
    });
    return escalateOnly(tx, input, limited);
  }

  const spend = ("spend" in decision ? decision.spend : undefined) ?? noSpend;
  if (spend.length > 0) {
    const trip = await windowTrip(tx, template, spend, at);
    if (trip?.action === "refuse") {
      const limited = escalate({
        reason: "limit_exceeded",
        detail: trip.detail,
        ...trip.exceeded,
        ticketId,
        template: template.id,
        ...(decision.values ? { values: decision.values } : {}),
        ...(decision.choices ? { choices: decision.choices } : {}),
      });
      return escalateOnly(tx, input, limited);
    }
    if (trip !== undefined && decision.outcome === "send") {
      // Over a window of an `over: "approval"` ceiling: the draft waits for a person, and counts meanwhile.
      const { limit: _, ...ceiling } = trip.exceeded;
      decision = heldForPerson(decision, trip.detail, { spend, ceiling });
    }
  }

  const contacts = input.mode === "live" ? input.contacts : undefined;
  if (contacts?.hold === true && decision.outcome === "send") {
    const destination = destinationHash(contacts.key, message);
    if (!(await tx.hasContact(destination))) {
      decision = heldForPerson(
        decision,
        `${template.id}: the first message to this destination waits for a person (firstContact: "hold")`,
        merged(spend.length > 0 ? { spend } : {}, {
          firstContact: { destination: destinationShown(destination) },
        }),
      );
    }
  }
  if (contacts !== undefined && decision.outcome === "send") {
    const first = await recordContact(tx, contacts.key, message, {
      at,
      ticketId,
      runId,
      template: template.id,
      key,
      actor: "outbox",
    });
    if (first !== undefined) decision = merged(decision, { firstContact: { destination: first } });
  }

  decision = withVersions(input, decision);
  const bodySha256 = bodyHash(message);
  const auditId = await tx.appendAudit(
    decisionEvent(input, decision, "decision", auditData(input.audit, decision, bodySha256)),
  );
  let outbound: OutboundRow | undefined;
  let outboundId: string | undefined;
  let queueItemId: string | undefined;
  if (decision.outcome === "send") {
    const row = newOutboundRow({
      key,
      ticketId,
      runId,
      template: template.id,
      message,
      // Written "delivering", held by this call, in the decision's own transaction: the mark that a
      // delivery may start costs no write of its own, and a crash after this commit leaves the row in
      // doubt (flush() never sends it blindly) rather than looking unsent.
      status: input.mode === "shadow" ? "shadow" : "delivering",
      createdAt: at,
      leaseUntil: input.mode === "shadow" ? undefined : input.leaseUntil,
      bodySha256,
      templateVersion: decision.templateVersion,
      catalogVersion: decision.catalogVersion,
    });
    outboundId = await tx.addOutbound(row);
    if (input.mode === "live") outbound = numberedOutboundRow(row, outboundId);
  } else {
    queueItemId = await tx.addQueueItem(queueItemOf(input, decision, auditId));
  }
  const result: StoredResult = { decision, auditId, outboundId, queueItemId };
  await tx.reserve({ key, template: template.id, ticketId, runId, at, result, spend });
  return { decision, auditId, outboundId, queueItemId, duplicate: false, outbound };
}

async function escalateOnly(
  tx: StoreTransaction,
  input: Recording,
  made: EscalateDecision,
): Promise<Recorded> {
  const decision = withVersions(input, made);
  const auditId = await tx.appendAudit(
    decisionEvent(input, decision, "decision", auditData(input.audit, decision, undefined)),
  );
  const queueItemId = await tx.addQueueItem(queueItemOf(input, decision, auditId));
  return { decision, auditId, outboundId: undefined, queueItemId, duplicate: false, outbound: undefined };
}

/**
 * `decision` with the template and catalog versions the catalog stamped on the decision `handle()` made:
 * an escalation written here (a limit, a suppression, a held send) keeps the versions it was decided under.
 */
function withVersions<D extends Decision>(input: Recording, decision: D): D {
  const { templateVersion, catalogVersion } = input.decision;
  if (decision.templateVersion === templateVersion && decision.catalogVersion === catalogVersion)
    return decision;
  return merged(
    decision,
    merged(
      templateVersion === undefined ? {} : { templateVersion },
      catalogVersion === undefined ? {} : { catalogVersion },
    ),
  ) as D;
}

/** A send held for a person instead: the same draft, key, values and choices, with why it waits. */
function heldForPerson(
  decision: SendDecision,
  detail: string,
  why: Pick<Extract<EscalateDecision, { reason: "approval_required" }>, "spend" | "ceiling" | "firstContact">,
): EscalateDecision {
  return escalate({
    reason: "approval_required",
    detail,
    ticketId: decision.ticketId,
    template: decision.template,
    draft: decision.message,
    values: decision.values,
    choices: decision.choices,
    key: decision.key,
    ...why,
    ...(decision.locale === undefined ? {} : { locale: decision.locale }),
  });
}

/** The audit event of a decision (or of a duplicate of one). */
function decisionEvent(
  input: Recording,
  decision: Decision,
  type: "decision" | "duplicate",
  data: Readonly<Record<string, unknown>>,
): Omit<AuditEvent, "id"> {
  return {
    at: input.at,
    type,
    ticketId: input.ticketId,
    runId: input.runId,
    template: decision.template ?? input.template?.id,
    outcome: decision.outcome,
    reason: decision.outcome === "escalate" ? decision.reason : undefined,
    key: decision.key,
    actor: "outbox",
    data,
  };
}

/**
 * The audit data of a decision: what `handle()` knew (`base`), then the parts of the decision the audit
 * log keeps: choices, values and, for an escalation, the detail and the reason's typed fields (slot,
 * expected, limit, code, note…), not the message; then the message's hash, for a send. Built in one
 * literal, not copied from `base` and grown: the audit log keeps one for every decision.
 */
function auditData(
  base: DecisionAudit,
  decision: Decision,
  bodySha256: string | undefined,
): Record<string, unknown> {
  const data: Record<string, unknown> = {
    tags: base.tags,
    output: base.output,
    proposal: base.proposal,
    // Top-level fields, not facts: a report groups every decision by them, whatever its outcome.
    catalogVersion: decision.catalogVersion ?? base.catalogVersion,
    timings: base.timings,
    choices: decision.choices,
    values: decision.values,
  };
  if (decision.locale !== undefined) data.locale = decision.locale;
  if (decision.templateVersion !== undefined) data.templateVersion = decision.templateVersion;
  if (decision.outcome === "escalate") {
    data.detail = decision.detail;
    const facts = escalationFacts(decision);
    if (Object.keys(facts).length > 0) data.facts = facts;
  }
  if (bodySha256 !== undefined) data.bodySha256 = bodySha256;
  return data;
}

/** The audit data of a duplicate: what `handle()` knew, and the audit event of the first decision. */
function duplicateData(base: DecisionAudit, of: string): Record<string, unknown> {
  return {
    tags: base.tags,
    output: base.output,
    proposal: base.proposal,
    catalogVersion: base.catalogVersion,
    timings: base.timings,
    of,
  };
}

function queueItemOf(input: Recording, decision: EscalateDecision, auditId: string) {
  return openQueueItem({
    reason: decision.reason,
    ticketId: input.ticketId,
    runId: input.runId,
    template: decision.template ?? input.template?.id,
    detail: decision.detail,
    key: decision.key,
    draft: decision.draft,
    note: "note" in decision ? decision.note : undefined,
    createdAt: input.at,
    auditId,
  });
}

/**
 * The first rolling window (hour, then day) of a ceiling that this message's spend would take over its
 * maximum, summed exactly in the store, in this transaction.
 */
async function windowTrip(
  tx: StoreTransaction,
  template: Template,
  spend: readonly Spend[],
  at: number,
): Promise<CeilingTrip | undefined> {
  let approval: CeilingTrip | undefined;
  for (const item of spend) {
    const ceiling = template.ceilings.find((candidate) => candidate.name === item.ceiling);
    const max = ceiling?.max.get(item.currency);
    if (ceiling === undefined || max === undefined) continue;
    for (const window of ["hour", "day"] as const) {
      const bound = max[window];
      if (bound === undefined) continue;
      const spent = await tx.sumSpend({
        group: item.group,
        currency: item.currency,
        since: at - windowMs[window],
      });
      if (spent + item.units <= bound) continue;
      const trip = tripOf(template, ceiling, window, item.currency, bound, spent, item.units);
      if (trip.action === "refuse") return trip;
      approval ??= trip;
    }
  }
  return approval;
}
