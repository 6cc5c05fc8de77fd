import type { CeilingWindow, Spend } from "../definition/ceilings.js";
import type { Channel } from "../definition/channels.js";
import type { LocaleChoice } from "../definition/template-types.js";
import type { EscalationReason } from "./reasons.js";

/** A rendered message: only template text and formatted record values; one recipient, no cc, bcc or attachments. */
export interface Message {
  readonly template: string;
  readonly channel: Channel;
  /** The recipient, from records: a lower-case e-mail, an E.164 phone number or a chat id. */
  readonly to: string;
  readonly subject?: string;
  /** The plain-text body. */
  readonly text: string;
  /** The HTML body, for email templates that declare one. */
  readonly html?: string;
  /** SMS only: segment count and encoding. */
  readonly sms?: { readonly segments: number; readonly encoding: "GSM-7" | "UCS-2" };
  /** Localised templates: the BCP 47 tag the message is written in (a transport's Content-Language). */
  readonly locale?: string;
}

/** What the model chose: a handle or key per slot (the recipient under "to"), never a value. */
export type Choices = Readonly<Record<string, string>>;

/** The decision to send a message. */
export interface SendDecision {
  readonly outcome: "send";
  readonly ticketId: string;
  readonly template: string;
  readonly message: Message;
  /** Each tag's formatted value, as rendered. */
  readonly values: Readonly<Record<string, string>>;
  readonly choices: Choices;
  /** Idempotency key: the same ticket, template and choices always give the same key. */
  readonly key: string;
  /** Localised templates: the locale the message is written in, and why (read from records). */
  readonly locale?: LocaleChoice;
  /** Templates with ceilings: what the message adds to each, in whole units, per currency. */
  readonly spend?: readonly Spend[];
  /**
   * Set by the outbox when this send was the first the catalog accepted to its destination: a prefix of
   * the destination's keyed hash (never the address).
   */
  readonly firstContact?: { readonly destination: string };
  /** The content version of the template that made the message (set by `catalog.decide`). */
  readonly templateVersion?: string;
  /** The version of the catalog that decided (set by `catalog.decide`). */
  readonly catalogVersion?: string;
}

/**
 * What a proposal fell short of: the template ids, escalation codes, slot names or keys that would be
 * accepted, or how many records of a collection fit a slot. Names and counts only, never record content.
 */
export type Expected =
  | { readonly kind: "templates"; readonly ids: readonly string[] }
  | { readonly kind: "codes"; readonly codes: readonly string[] }
  | { readonly kind: "slots"; readonly names: readonly string[] }
  | { readonly kind: "keys"; readonly keys: readonly string[] }
  | { readonly kind: "records"; readonly collection: string; readonly fitting: number };

/** Which limit of a template (or of the run) a send would have broken; `ceiling` for a value ceiling. */
export type LimitName = "ticket" | "day" | "run" | "ceiling";

/** What a rendered message held that is neither template text nor a resolved value. */
export type Finding = "email" | "phone" | "url" | "id";

/** The typed fields of each escalation reason, beyond the ones every escalation has. */
export interface EscalationFields {
  readonly model_escalated: {
    /** The model's escalation code, one of the catalog's. */
    readonly code: string;
    /** The model's note, sanitised and capped, for humans only. */
    readonly note?: string;
  };
  readonly unparseable_output: object;
  readonly invalid_proposal: {
    /** The slot at fault, when one is. */
    readonly slot?: string;
    readonly expected?: Expected;
    /** An escalation with an unknown code: the model's note, sanitised and capped. */
    readonly note?: string;
  };
  readonly unknown_template: { readonly expected: Extract<Expected, { kind: "templates" }> };
  readonly record_not_found: {
    readonly slot: string;
    readonly expected: Extract<Expected, { kind: "records" }>;
  };
  readonly slot_rejected: {
    /** The slot at fault; absent when the rendered message as a whole broke a channel limit. */
    readonly slot?: string;
    /** The record field whose value was rejected, when it was a value and not the choice. */
    readonly field?: string;
    readonly expected?: Expected;
  };
  readonly recipient_unresolved: {
    /** The recipient record's address field. */
    readonly field: string;
  };
  readonly content_flagged: { readonly found: Finding };
  readonly records_invalid: object;
  readonly limit_exceeded:
    | {
        readonly limit: Exclude<LimitName, "ceiling">;
        /** The limit: at most this many sends. */
        readonly max: number;
        /** The sends already counted against it. */
        readonly count: number;
      }
    | CeilingExceeded;
  readonly approval_required: {
    readonly draft: Message;
    readonly values: Readonly<Record<string, string>>;
    readonly choices: Choices;
    readonly key: string;
    /** Templates with ceilings: what the draft adds to each; it counts while it waits, and once sent. */
    readonly spend?: readonly Spend[];
    /** Set when a ceiling (with `over: "approval"`) sent the draft to a person: which, and by how much. */
    readonly ceiling?: Omit<CeilingExceeded, "limit">;
    /**
     * Set when the draft is the first message to a destination and the template holds first contacts:
     * a prefix of the destination's keyed hash. Approving it sends it and records the destination.
     */
    readonly firstContact?: { readonly destination: string };
  };
  readonly delivery_failed: {
    /** `failed`: the transport said no after its last retry; `in_doubt`: it may have been sent. */
    readonly status: "failed" | "in_doubt";
    readonly attempts: number;
  };
  readonly destination_suppressed: {
    /** Why the destination is suppressed: `hard_bounce` or `complaint`, as its provider reported. */
    readonly cause: "hard_bounce" | "complaint";
    /** A prefix of the destination's keyed hash, never the address. */
    readonly destination: string;
  };
}

/**
 * A value ceiling a message would go over. Amounts are in the currency's major units (what the template's
 * `max` says; sums were made in whole minor units, exactly): `max` of the window, `spent` already
 * counted in it, `amount` this message's. A currency the ceiling does not list has `max` 0.
 */
export interface CeilingExceeded {
  readonly limit: "ceiling";
  readonly ceiling: string;
  /** The windows' group (the template's own unless the ceiling names one). */
  readonly group: string;
  readonly window: CeilingWindow;
  /** The ISO 4217 code, for money. */
  readonly currency?: string;
  readonly max: number;
  readonly spent: number;
  readonly amount: number;
}

/** What every escalation has, whatever its reason. */
interface EscalationBase<R extends EscalationReason> {
  readonly outcome: "escalate";
  readonly reason: R;
  /** For humans: what went wrong, naming template, slot and field. Never sent. */
  readonly detail: string;
  /** For the model, where a retry could succeed: valid template ids, handles or keys. Holds no record content. */
  readonly hint?: string;
  readonly ticketId?: string;
  readonly template?: string;
  /** The rendered message a human approves as it is (approvals, limits reached, failed deliveries). */
  readonly draft?: Message;
  readonly values?: Readonly<Record<string, string>>;
  readonly choices?: Choices;
  /** The idempotency key of the message a human would approve. */
  readonly key?: string;
  /** `approval_required` of a localised template: the locale of the draft, and why. */
  readonly locale?: LocaleChoice;
  /** The content version of the named template, when the escalation names one (set by `catalog.decide`). */
  readonly templateVersion?: string;
  /** The version of the catalog that decided (set by `catalog.decide`). */
  readonly catalogVersion?: string;
}

/**
 * The decision to hand the ticket to a human: one member per reason, each with its typed fields
 * (the slot at fault, what was expected, the limit and its count) besides the human `detail` and the
 * model-safe `hint`. `switch (decision.reason)` narrows to the fields of that reason.
 */
export type EscalateDecision = {
  [R in EscalationReason]: EscalationBase<R> & EscalationFields[R];
}[EscalationReason];

/** The escalation of one reason. */
export type Escalation<R extends EscalationReason = EscalationReason> = Extract<
  EscalateDecision,
  { reason: R }
>;

/** An escalation without its `outcome`: what {@link escalate} takes. */
export type EscalationInput = EscalateDecision extends infer E
  ? E extends EscalateDecision
    ? Omit<E, "outcome">
    : never
  : never;

/**
 * The one way an escalation is made, so every escalation has the same shape wherever it comes from.
 *
 * @example
 * import { escalate } from "formletter";
 * const decision = escalate({ reason: "records_invalid", detail: "the loader returned nothing" });
 */
export function escalate(fields: EscalationInput): EscalateDecision {
  return { outcome: "escalate", ...fields } as EscalateDecision;
}

const common = new Set([
  "outcome",
  "reason",
  "detail",
  "hint",
  "ticketId",
  "template",
  "draft",
  "values",
  "choices",
  "key",
  "templateVersion",
  "catalogVersion",
]);

/**
 * The typed fields of an escalation (slot, expected, field, found, limit, max, count, code, note,
 * status, attempts): what the audit log and the queue keep beside the reason, JSON-safe.
 */
export function escalationFacts(decision: EscalateDecision): Readonly<Record<string, unknown>> {
  const facts: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(decision)) {
    if (!common.has(name) && value !== undefined) facts[name] = value;
  }
  return facts;
}

/** The result of `catalog.decide()`: send this exact message, or escalate with a reason. */
export type Decision = SendDecision | EscalateDecision;
