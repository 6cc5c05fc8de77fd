import type { Locale as DateLocale } from "date-fns";
import type { Format } from "../message/format.js";
import type { Ceiling, CeilingConfig } from "./ceilings.js";
import type { Channel } from "./channels.js";
import type { RecordsDefinition } from "./define-records.js";
import type { Reader } from "./label-checks.js";
import type { PlacedLabel } from "./label-tree.js";
import type { RefSlot, Slot, SlotContext } from "./slots.js";
import type { Part } from "./text-parts.js";

/**
 * The shapes of a template: what `defineTemplate` takes and what it makes, its locales included. Types
 * (and one list of values) only, importing no code: the checks and locale compilers `defineTemplate`
 * calls read them here without importing back the module that calls them.
 */

/** How many messages a template may send; going over is `limit_exceeded`, never a silent queue. */
export interface TemplateLimits {
  /** Most messages of this template for one ticket, ever. */
  readonly perTicket: number;
  /** Most messages of this template across all tickets in a rolling 24 hours. */
  readonly perDay: number;
}

/**
 * What a message of the template does to the world, declared so that approval sits on what cannot be
 * undone whatever the model's confidence:
 * - `informational`: tells the recipient something; nothing changes because of it;
 * - `reversible`: asks for or starts something that can be called back (a reminder, a request to reply);
 * - `irreversible`: starts something that cannot be taken back (a refund, a cancellation, a payout): it
 *   requires `approval: "human"`.
 */
export type TemplateEffect = "informational" | "reversible" | "irreversible";

/** Every effect, from the mildest. */
export const templateEffects: readonly TemplateEffect[] = ["informational", "reversible", "irreversible"];

/** What `defineTemplate` takes. */
export interface TemplateConfig {
  /** Lower-case id the model names the template by, e.g. "damage_report". */
  readonly id: string;
  /** What the template is for, shown to the model: when to choose it. */
  readonly description: string;
  /** The recipient's role ("seller", "customer", "oncall"), against which field labels are checked. */
  readonly audience: string;
  readonly channel: Channel;
  /** The recipient: a ref slot into a contact collection showing an e-mail (email) or phone (sms, whatsapp) field. */
  readonly to: RefSlot;
  /**
   * `"model-chooses"`: the model picks which record of the `to` collection receives the message, on
   * purpose, where nothing joins the recipient to the other chosen records (`match`). `checklist` fails a
   * recipient the model chooses among several records unless this declares it, and shows it as a warning.
   * Unset: the recipient must be joined to the chosen records, or be the only one a ticket can hold.
   */
  readonly recipient?: RecipientChoice;
  /** Email subject (required for email), WhatsApp header or chat title; single line. */
  readonly subject?: string;
  /** Mustache text: every tag a declared slot, every slot used, only {{x}} and sections. */
  readonly body: string;
  /** Optional HTML body for email, rendered with HTML escaping of every value. */
  readonly html?: string;
  readonly slots?: Readonly<Record<string, Slot>>;
  readonly limits: TemplateLimits;
  /** What a message does: `irreversible` ones must wait for a person (`approval: "human"`). */
  readonly effect: TemplateEffect;
  /** "human": the rendered draft waits in the queue until a person approves exactly it. */
  readonly approval?: "human";
  /**
   * Bounds on the amounts messages show, per message and over rolling windows (see `CeilingConfig`):
   * going over is `limit_exceeded` (or `approval_required` with `over: "approval"`).
   */
  readonly ceilings?: Readonly<Record<string, CeilingConfig>>;
  /**
   * `hold`: the first message to a destination this catalog has never sent to waits for a person
   * (`approval_required` with `firstContact`), once the outbox has a `contactKey`. `send`: sent as
   * usual (and still recorded). Unset: the outbox's `firstContact` option decides.
   */
  readonly firstContact?: "hold" | "send";
  /** SMS only: most segments one message may take. @default 3 */
  readonly maxSegments?: number;
  /**
   * Texts in other locales, and how the recipient's locale is read from records (never from the model).
   * Id, slots, limits and approval are shared: the model's choices do not grow with the languages.
   */
  readonly locale?: TemplateLocaleConfig;
}

/** How the recipient is chosen, as a template declares it: `"model-chooses"` says the model picks it on purpose. */
export type RecipientChoice = "model-chooses";

/** Every accepted value of a template's `recipient` option. */
export const recipientChoices: readonly RecipientChoice[] = ["model-chooses"];

/** One field a compiled ref slot shows, with its tag in the template. */
export interface CompiledField {
  readonly tag: string;
  readonly field: string;
  readonly format: Format;
  readonly maxLength: number;
  /** Fields of the same record the format reads besides this one (money's currency): all it is given. */
  readonly reads: readonly string[];
  /** Every label on what the field shows and its format reads, checked against the audience. */
  readonly labels: readonly PlacedLabel[];
}

/** A slot after definition-time checks. */
export interface CompiledSlot {
  readonly name: string;
  readonly slot: Slot;
  /** Ref: the shown fields. Derived: one pseudo-field with the slot's format. Choice: none. */
  readonly fields: readonly CompiledField[];
  /** Choice: lower-cased key → declared key, for case-insensitive look-up. */
  readonly keys: ReadonlyMap<string, string>;
  /** Ref: the joins of `match`, as this record's field = the field of an earlier slot's record. */
  readonly joins: readonly Join[];
  /** Whose view of the records this slot's `where` runs with. */
  readonly reader: Reader;
}

/** `record[field]` is the key `earlier[slot][otherField]` is (`sameKey`: `===`, or a safe integer and its decimal string), from a ref slot's `match`. */
export interface Join {
  readonly field: string;
  readonly slot: string;
  readonly otherField: string;
}

/** A template checked and compiled at definition time. */
export interface Template {
  readonly id: string;
  /** A hash of everything that decides the template's messages (see `templateContent`): its content version. */
  readonly version: string;
  /** The records definition the template was checked against. */
  readonly records: RecordsDefinition;
  readonly description: string;
  readonly audience: string;
  readonly channel: Channel;
  readonly limits: TemplateLimits;
  readonly effect: TemplateEffect;
  readonly approval: "human" | undefined;
  /** The value ceilings, checked; empty when the template declares none. */
  readonly ceilings: readonly Ceiling[];
  /** The tags the ceilings sum: decide() measures these values as whole units. */
  readonly ceilingTags: ReadonlySet<string>;
  /** What the first message to a new destination does; undefined: the outbox's default. */
  readonly firstContact: "hold" | "send" | undefined;
  readonly maxSegments: number;
  /** The model-chosen and derived slots, in declaration order. */
  readonly slots: readonly CompiledSlot[];
  /** The recipient slot, resolved after the others so its `where` can read them. */
  readonly recipient: CompiledSlot;
  /** `"model-chooses"` when the template declares that the model picks the recipient; undefined otherwise. */
  readonly recipientChoice: RecipientChoice | undefined;
  /** The slots followed by the recipient: the order decide() resolves them in. */
  readonly resolveOrder: readonly CompiledSlot[];
  /**
   * The views code runs with: derived slots and `where` see the audience's (nothing it may not read, at
   * any depth); the recipient's `where` sees that without anything an outsider wrote.
   */
  readonly readers: { readonly audience: Reader; readonly recipient: Reader };
  /** Whether subject or body shows the recipient's address with {{to}}. */
  readonly recipientShown: boolean;
  /** The chosen slots' names, sorted: the order the idempotency key lists choices in. */
  readonly keyOrder: readonly string[];
  /** Names of the slots the model may fill (refs and choices, and "to"). */
  readonly chosenSlots: ReadonlySet<string>;
  readonly subject: readonly Part[] | undefined;
  readonly body: readonly Part[];
  readonly html: readonly Part[] | undefined;
  /** The HTML as its reader sees it (text and attribute values, entities decoded): what the scan reads. */
  readonly htmlText: readonly Part[] | undefined;
  /** All literal template text, joined: what the scanner accepts as written in code. */
  readonly literal: string;
  readonly source: {
    readonly subject: string | undefined;
    readonly body: string;
    readonly html: string | undefined;
  };
  /** The locale its texts are written in: set on localised templates, undefined otherwise. */
  readonly locale: string | undefined;
  /** A localised template's locales: each one's variant and where the recipient's locale comes from. */
  readonly locales: CompiledLocales | undefined;
}

/** The text of a template in one locale: the same slots and sections as the default, in other words. */
export interface LocaleTexts {
  /** Subject in this locale; required when the template has one (unless `missing: "default"`). */
  readonly subject?: string;
  /** Body in this locale; required unless `missing: "default"`. */
  readonly body?: string;
  /** HTML body in this locale; required when the template has one (unless `missing: "default"`). */
  readonly html?: string;
  /** A label per key of each choice slot: `{ reason: { packaging: "…", transit: "…" } }`. */
  readonly choices?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /**
   * A format for a shown value in this locale, by its tag (`"order.placed"`, `"total"`), replacing the
   * one the slot declares. Same kind, and reading no other fields of the record.
   */
  readonly formats?: Readonly<Record<string, Format>>;
}

/**
 * Where the recipient's locale comes from: `"<ref slot>.<field>"` (e.g. `"to.locale"`, a field of the
 * recipient's record), or a function of the ticket's records and resolved slots as the audience may read
 * them. Its value is a BCP 47 tag such as "de-AT"; anything else falls back to the default.
 */
export type LocaleSource = string | ((context: SlotContext) => unknown);

/**
 * The `locale` option of a template: its texts per locale and how the recipient's locale is chosen.
 *
 * @example
 * import type { TemplateLocaleConfig } from "formletter";
 * import { de } from "date-fns/locale";
 * const locale: TemplateLocaleConfig = {
 *   default: "en",
 *   from: "to.locale",
 *   dates: [de],
 *   texts: { de: { subject: "Bestellung {{order}}", body: "Hallo, die Bestellung {{order}} …" } },
 * };
 */
export interface TemplateLocaleConfig {
  /** The locale the template's own subject, body, HTML and choice labels are written in, e.g. "en". */
  readonly default: string;
  /** How the recipient's locale is read from records. Never from the model. */
  readonly from: LocaleSource;
  /** The texts in other locales, by canonical BCP 47 tag ("de", "es", "pt-BR"). */
  readonly texts: Readonly<Record<string, LocaleTexts>>;
  /**
   * date-fns locales for month and day names (`import { de, es } from "date-fns/locale"`), matched to
   * each text's tag by the same fallback chain. A date format that shows names needs one for every
   * locale but English.
   */
  readonly dates?: readonly DateLocale[];
  /**
   * What a locale that leaves out a part or a choice label gets: "error" fails the definition;
   * "default" takes the default locale's (a mixed-language message, chosen explicitly). @default "error"
   */
  readonly missing?: "error" | "default";
}

/** Why a message is written in the locale it is. */
export type LocaleReason =
  /** The recipient's locale has its own text. */
  | "requested"
  /** A less specific locale of its chain has one (de-AT → de, or the default itself). */
  | "fallback"
  /** A valid tag, with no text for it or any locale of its chain: the default. */
  | "unsupported"
  /** The value is not a BCP 47 tag (not a string, garbage, over 64 characters): the default. */
  | "invalid"
  /** The records hold no locale for the recipient: the default. */
  | "missing"
  /** The template's locale function threw: the default. */
  | "failed";

/** Which locale a message was written in, and why: the audit field of a localised decision. */
export interface LocaleChoice {
  /** The locale of the text sent: the default or one of the template's `texts`. */
  readonly used: string;
  /** The recipient's locale as the records give it, in canonical form; absent when there was no valid tag. */
  readonly requested?: string;
  readonly reason: LocaleReason;
}

/** A template's locales after definition-time checks. */
export interface CompiledLocales {
  readonly default: string;
  /** Every locale with a text, the default first. */
  readonly tags: readonly string[];
  /** The template as written in each locale: texts, choice labels and formats of that locale. */
  readonly variants: ReadonlyMap<string, Template>;
  readonly from:
    | { readonly kind: "field"; readonly slot: string; readonly field: string }
    | { readonly kind: "code"; readonly compute: (context: SlotContext) => unknown };
  /** Resolved choices by raw value: a locale value repeats across tickets, its look-up is done once. */
  readonly cache: Map<string, LocaleChoice>;
}
