import { isChatId } from "../definition/channels.js";
import type { AnyRecord } from "../definition/define-records.js";
import { derivedValue, passes, whereContext } from "../definition/slot-rules.js";
import type { SlotContext } from "../definition/slots.js";
import type { CompiledField, CompiledSlot, Template } from "../definition/template-types.js";
import { recipientLocale } from "../locale/locale.js";
import { merged } from "../merged.js";
import { describeType, fieldsRead } from "../message/format.js";
import { readableText, renderMessage } from "../message/render.js";
import { clip, sanitizeValue } from "../message/sanitize.js";
import { scanMessage } from "../scan/scan.js";
import { measureCeilings } from "./ceiling-check.js";
import {
  type CeilingExceeded,
  type Decision,
  type Escalation,
  type EscalationInput,
  type Expected,
  escalate,
} from "./decision.js";
import { keyOf } from "./idempotency.js";
import { type Proposal, parseProposal, proposalLimits } from "./proposal.js";
import type { PreparedCollection, PreparedTicket } from "./ticket.js";

/** What `decide` needs from the catalog. */
export interface DecideContext {
  readonly templates: ReadonlyMap<string, Template>;
  readonly templateIds: readonly string[];
  readonly escalationCodes: readonly string[];
}

/** An escalation found while resolving a slot; the caller adds the ticket and template. */
type Problem = EscalationInput;

/**
 * The decision pipeline: parse (unless `output` is already a parsed output), look up, resolve each slot from this ticket's records, format,
 * render, check channel limits, scan. Pure and synchronous; every failure is an escalation.
 */
export function decideProposal(context: DecideContext, output: unknown, ticket: PreparedTicket): Decision {
  const parsed = parseProposal(output);
  const { ticketId } = ticket;
  if (!parsed.ok)
    return escalate({ reason: parsed.reason, detail: parsed.detail, ticketId, ...hintOf(parsed.hint) });
  const proposal = parsed.proposal;
  if (proposal.kind === "escalate") return escalation(context, proposal, ticketId);

  // Names are looked up in Maps only: inherited names such as `__proto__` are just not found.
  const template = context.templates.get(proposal.template.trim().toLowerCase());
  if (template === undefined) {
    return escalate({
      reason: "unknown_template",
      detail: `"${clip(proposal.template)}" is not a template of this catalog`,
      hint: `choose one of: ${context.templateIds.join(", ")}, or escalate`,
      expected: { kind: "templates", ids: context.templateIds },
      ticketId,
    });
  }
  return decideTemplate(template, proposal.slots, ticket);
}

function escalation(
  context: DecideContext,
  proposal: Extract<Proposal, { kind: "escalate" }>,
  ticketId: string,
): Decision {
  const note =
    proposal.note === undefined
      ? undefined
      : sanitizeValue(proposal.note.slice(0, proposalLimits.maxNote * 2), { multiline: true }).slice(
          0,
          proposalLimits.maxNote,
        );
  const known = context.escalationCodes.find((code) => code === proposal.code.trim().toLowerCase());
  if (known === undefined) {
    return escalate({
      reason: "invalid_proposal",
      detail: `escalation code "${clip(proposal.code)}" is not in the catalog's list`,
      hint: `escalate with one of: ${context.escalationCodes.join(", ")}`,
      expected: { kind: "codes", codes: context.escalationCodes },
      ticketId,
      ...(note ? { note } : {}),
    });
  }
  return escalate({
    reason: "model_escalated",
    detail: `the model escalated: ${known}`,
    code: known,
    ticketId,
    ...(note ? { note } : {}),
  });
}

function decideTemplate(
  template: Template,
  given: ReadonlyMap<string, string | null>,
  ticket: PreparedTicket,
): Decision {
  const { ticketId } = ticket;
  const base = { ticketId, template: template.id };
  for (const name of given.keys()) {
    if (!template.chosenSlots.has(name)) {
      return escalate(
        merged(base, {
          reason: "invalid_proposal",
          detail: `"${clip(name)}" is not a slot the model fills in ${template.id}`,
          hint: `slots of ${template.id}: ${[...template.chosenSlots].join(", ")}`,
          expected: { kind: "slots", names: [...template.chosenSlots] },
        }),
      );
    }
  }

  // Every declared slot is assigned below (undefined when absent), so sections never read an inherited name.
  const earlier: Record<string, AnyRecord | string | undefined> = {};
  const choices: Record<string, string> = {};
  const values = new Map<string, string>();
  const allowance = { formatted: [] as string[], whole: [] as string[] };
  const slotContext: SlotContext = { ticketId, records: ticket.view, slots: earlier };

  for (const compiled of template.resolveOrder) {
    const resolved = resolveSlot(compiled, given, ticket, slotContext, template);
    if ("reason" in resolved) return escalate(Object.assign({}, base, resolved));
    earlier[compiled.name] = resolved.value;
    if (resolved.choice !== undefined) choices[compiled.name] = resolved.choice;
  }
  // The recipient's locale, read from the resolved records: its variant holds the texts, labels and formats.
  const localised = template.locales && recipientLocale(template, template.locales, ticket, slotContext);
  const written = localised?.variant ?? template;
  for (const compiled of written.resolveOrder) {
    const value = earlier[compiled.name];
    if (value === undefined) continue;
    if (compiled.slot.kind === "choice") {
      const key = value as string;
      const label = compiled.slot.choices[key] as string;
      values.set(compiled.name, label);
      allowance.formatted.push(label);
      continue;
    }
    // The recipient is resolved to an address below, where a bad one is `recipient_unresolved`.
    if (compiled === written.recipient) continue;
    const record = (compiled.slot.kind === "ref" ? value : { [compiled.name]: value }) as AnyRecord;
    for (const field of compiled.fields) {
      const formatted = formatField(field, record, template, compiled.name);
      if (typeof formatted !== "string") return escalate(Object.assign({}, base, formatted));
      values.set(field.tag, formatted);
      (field.format.kind === "text" ? allowance.whole : allowance.formatted).push(formatted);
    }
  }

  const recipientRecord = earlier.to as AnyRecord;
  const recipientField = written.recipient.fields[0] as CompiledField;
  const to = recipientOf(template, recipientField, recipientRecord);
  if (typeof to !== "string") return escalate(Object.assign({}, base, to));
  allowance.formatted.push(to);
  if (template.recipientShown) {
    const shown =
      recipientField.format.address === recipientField.format.apply
        ? to
        : formatField(recipientField, recipientRecord, template, "to");
    if (typeof shown !== "string") return escalate(Object.assign({}, base, shown));
    values.set("to", shown);
    allowance.formatted.push(shown);
  }

  const rendered = renderMessage(written, values, earlier, to);
  if ("problem" in rendered)
    return escalate(merged(base, { reason: "slot_rejected", detail: rendered.problem }));
  // One scan over every part (subject, text, HTML as a reader sees it), a line break between parts.
  const finding = scanMessage(readableText(written, rendered, values, earlier), {
    literal: written.literal,
    formatted: allowance.formatted,
    whole: allowance.whole,
  });
  if (finding !== undefined) {
    return escalate(
      merged(base, {
        reason: "content_flagged",
        detail: `the rendered message holds ${article(finding.kind)} that is neither template text nor a resolved value`,
        found: finding.kind,
      }),
    );
  }

  const key = keyOf(ticket, template, choices);
  const valueObject = Object.fromEntries(values);
  const locale = localised === undefined ? {} : { locale: localised.choice };
  // Value ceilings: the message's own amounts (the windows are the outbox's, in its store).
  // Measured on the variant the message is written in: the amounts its text shows.
  const measured = written.ceilings.length === 0 ? undefined : measureCeilings(written, earlier);
  if (measured !== undefined && "rejected" in measured)
    return escalate(merged(base, { reason: "slot_rejected", ...measured.rejected }));
  const spend = measured === undefined ? {} : { spend: measured.spend };
  const trip = measured?.trip;
  if (trip?.action === "refuse") {
    // No draft: a person cannot approve past a ceiling that refuses; `over: "approval"` is for that.
    return escalate(merged(base, { reason: "limit_exceeded", detail: trip.detail, ...trip.exceeded }));
  }
  if (template.approval === "human" || trip !== undefined) {
    const { limit: _, ...ceiling } = trip?.exceeded ?? { limit: undefined };
    return escalate(
      merged(base, {
        reason: "approval_required",
        detail: trip?.detail ?? `${template.id} needs a human to approve the draft before it is sent`,
        draft: rendered,
        values: valueObject,
        choices,
        key,
        ...locale,
        ...spend,
        ...(trip === undefined ? {} : { ceiling: ceiling as Omit<CeilingExceeded, "limit"> }),
      }),
    );
  }
  return {
    outcome: "send",
    ticketId,
    template: template.id,
    message: rendered,
    values: valueObject,
    choices,
    key,
    ...locale,
    ...spend,
  };
}

type Resolved = { value: AnyRecord | string | undefined; choice: string | undefined };

function resolveSlot(
  compiled: CompiledSlot,
  given: ReadonlyMap<string, string | null>,
  ticket: PreparedTicket,
  context: SlotContext,
  template: Template,
): Resolved | Problem {
  const { slot, name } = compiled;
  const templateId = template.id;
  const choice = given.get(name);
  if (slot.kind === "derived") {
    const derived = derivedValue(slot, template, ticket, context);
    if (derived === "threw")
      return rejected(name, `derived slot "${name}" of ${templateId} threw while computing its value`);
    if (derived === "missing")
      return rejected(name, `derived slot "${name}" of ${templateId} has no value for this ticket`);
    return { value: derived.value, choice: undefined };
  }
  if (slot.kind === "choice") {
    const keys = () => [...compiled.keys.keys()];
    const keysHint = () => `slot "${name}" takes one of: ${keys().join(", ")}`;
    if (choice === undefined || choice === null) {
      if (slot.optional) return { value: undefined, choice: undefined };
      return {
        reason: "invalid_proposal",
        detail: `slot "${name}" is missing`,
        hint: keysHint(),
        slot: name,
        expected: { kind: "keys", keys: keys() },
      };
    }
    const key = compiled.keys.get(choice.trim().toLowerCase());
    if (key === undefined) {
      return {
        reason: "slot_rejected",
        detail: `slot "${name}" was given a value that is not one of its keys`,
        hint: keysHint(),
        slot: name,
        expected: { kind: "keys", keys: keys() },
      };
    }
    return { value: key, choice: key };
  }

  const collection = ticket.collections.get(slot.collection);
  const view = whereContext(compiled, template, ticket, context);
  if (choice === undefined || choice === null) {
    // null says "none" for an optional ref; left out, any ref is filled when exactly one record fits.
    if (slot.optional && choice === null) return { value: undefined, choice: undefined };
    const fits = candidates(compiled, collection, context, view);
    if (fits.length === 1) {
      const only = fits[0] as AnyRecord;
      return { value: only, choice: collection?.handleOf.get(only) };
    }
    if (slot.optional) return { value: undefined, choice: undefined };
    if (fits.length === 0) {
      return merged(
        rejected(name, `no ${slot.collection} record of this ticket fits slot "${name}" of ${templateId}`),
        fitting(compiled, collection, context, view),
      );
    }
    return {
      reason: "invalid_proposal",
      detail: `slot "${name}" is missing and ${fits.length} records fit it`,
      slot: name,
      ...fitting(compiled, collection, context, view),
    };
  }
  const handle = choice.trim().toLowerCase();
  const record = collection === undefined ? undefined : collection.byHandle.get(handle);
  if (record === undefined) {
    return {
      reason: "record_not_found",
      detail: `slot "${name}": no ${slot.collection} record of this ticket has that handle`,
      slot: name,
      ...fitting(compiled, collection, context, view),
    };
  }
  if (!passes(compiled, record, context, view)) {
    return merged(
      rejected(
        name,
        `slot "${name}": the chosen ${slot.collection} record does not meet the slot's condition in ${templateId}`,
      ),
      fitting(compiled, collection, context, view),
    );
  }
  return { value: record, choice: handle };
}

function candidates(
  compiled: CompiledSlot,
  collection: PreparedCollection | undefined,
  context: SlotContext,
  view: SlotContext | undefined,
): AnyRecord[] {
  return (collection?.records ?? []).filter((record) => passes(compiled, record, context, view));
}

/**
 * How many records fit the slot, and as the hint the handles that would be accepted: the model has seen
 * them in `describe()`, so they are safe to repeat.
 */
function fitting(
  compiled: CompiledSlot,
  collection: PreparedCollection | undefined,
  context: SlotContext,
  view: SlotContext | undefined,
): { hint: string; expected: Extract<Expected, { kind: "records" }> } {
  const fits = candidates(compiled, collection, context, view);
  const handles = fits.map((record) => collection?.handleOf.get(record));
  return {
    hint:
      handles.length === 0
        ? `no record of this ticket fits slot "${compiled.name}"; escalate`
        : `slot "${compiled.name}" takes one of: ${handles.join(", ")}`,
    expected: {
      kind: "records",
      collection: compiled.slot.kind === "ref" ? compiled.slot.collection : "",
      fitting: fits.length,
    },
  };
}

function rejected(
  slot: string,
  detail: string,
  field?: string,
): Omit<Escalation<"slot_rejected">, "outcome"> {
  return { reason: "slot_rejected", detail, slot, ...(field === undefined ? {} : { field }) };
}

function formatField(
  field: CompiledField,
  record: AnyRecord,
  template: Template,
  slot: string,
): string | Problem {
  const raw = Object.hasOwn(record, field.field) ? record[field.field] : undefined;
  const rejected = (detail: string) => rejectedValue(slot, field.field, detail);
  // Named only when something is wrong: the success path builds no strings.
  const where = () => (slot === field.field ? `slot "${slot}"` : `slot "${slot}" (field ${field.field})`);
  if (raw === undefined || raw === null || raw === "") {
    return rejected(`${where()} of ${template.id} has no value on the chosen record`);
  }
  const result = field.format.apply(raw, fieldsRead(record, field.reads));
  if (!result.ok) return rejected(`${where()} of ${template.id}: the value ${result.problem}`);
  const value = sanitizeValue(result.value, {
    multiline: field.format.multiline,
    neutralize: field.format.neutralize,
  });
  if (value === "") return rejected(`${where()} of ${template.id} is empty once cleaned`);
  if (value.length > field.maxLength) {
    return rejected(
      `${where()} of ${template.id} is ${value.length} characters, over its maxLength ${field.maxLength}`,
    );
  }
  return value;
}

function rejectedValue(slot: string, field: string, detail: string): Problem {
  return rejected(slot, detail, slot === field ? undefined : field);
}

function recipientOf(template: Template, field: CompiledField, record: AnyRecord): string | Problem {
  const raw = Object.hasOwn(record, field.field) ? record[field.field] : undefined;
  const fail = (problem: string): Problem => ({
    reason: "recipient_unresolved",
    detail: `the recipient of ${template.id} (field ${field.field}) ${problem}`,
    field: field.field,
  });
  if (raw === undefined || raw === null || raw === "") return fail("is empty");
  if (field.format.address !== undefined) {
    const address = field.format.address(raw);
    return address.ok ? address.value : fail(address.problem);
  }
  if (typeof raw !== "string" || !isChatId(raw))
    return fail(`is ${typeof raw === "string" ? "not a chat id" : describeType(raw)}`);
  return raw;
}

function hintOf(hint: string | undefined): { hint?: string } {
  return hint === undefined ? {} : { hint };
}

function article(kind: "email" | "phone" | "url" | "id"): string {
  return { email: "an e-mail address", phone: "a phone number", url: "a URL", id: "an id-shaped token" }[
    kind
  ];
}
