import type { Channel } from "./channels.js";
import type { LocaleChoice } from "./locale.js";
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
}

/** The decision to hand the ticket to a human, with the reason. */
export interface EscalateDecision {
  readonly outcome: "escalate";
  readonly reason: EscalationReason;
  /** For humans: what went wrong, naming template, slot and field. Never sent. */
  readonly detail: string;
  /** For the model, where a retry could succeed: valid template ids, handles or keys. Holds no record content. */
  readonly hint?: string;
  readonly ticketId?: string;
  readonly template?: string;
  /** `model_escalated`: the model's escalation code. */
  readonly code?: string;
  /** `model_escalated`: the model's note, sanitised and capped, for humans only. */
  readonly note?: string;
  /** `approval_required`: the rendered message a human approves as it is. */
  readonly draft?: Message;
  readonly values?: Readonly<Record<string, string>>;
  readonly choices?: Choices;
  readonly key?: string;
  /** `approval_required` of a localised template: the locale of the draft, and why. */
  readonly locale?: LocaleChoice;
}

/** The result of `catalog.decide()`: send this exact message, or escalate with a reason. */
export type Decision = SendDecision | EscalateDecision;
