import { BodyError, compileBody, type Part } from "./body.js";
import { type Ceiling, type CeilingConfig, checkCeilings } from "./ceilings.js";
import { type Channel, channels } from "./channels.js";
import { templateError } from "./errors.js";
import { type Format, format } from "./format.js";
import { checkHtml } from "./html-template.js";
import { checkNotUntrusted, checkReadable, type Reader, readersOf } from "./label-checks.js";
import type { PlacedLabel } from "./label-tree.js";
import type { CompiledLocales, TemplateLocaleConfig } from "./locale.js";
import { localiseTemplate } from "./locale-checks.js";
import type { CollectionSchemas, RecordsDefinition } from "./records.js";
import type { RefSlot, ShownField, Slot } from "./slots.js";
import { checkChannel, checkEffect, checkLimits, checkRecipient, checkTags } from "./template-checks.js";

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

/** `record[field] === earlier[slot][otherField]`, from a ref slot's `match`. */
export interface Join {
  readonly field: string;
  readonly slot: string;
  readonly otherField: string;
}

/** A template checked and compiled at definition time. */
export interface Template {
  readonly id: string;
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

const idPattern = /^[a-z][a-z0-9_]{0,63}$/;
const slotName = /^[a-z][a-z0-9_]{0,39}$/;
const choiceKey = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/**
 * Defines a message template in code. Every mistake throws here, at start-up, naming the template,
 * the slot and the fix — never later, on a ticket.
 *
 * @example
 * import { defineTemplate } from "formletter";
 * const { slot } = records;
 * export const tracking = defineTemplate(records, {
 *   id: "tracking_request", description: "Ask the seller for a tracking number", audience: "seller",
 *   channel: "email", to: slot.ref("sellers", { show: "email" }), subject: "Order {{order}}",
 *   body: "Please send the tracking number for order {{order}}.",
 *   slots: { order: slot.ref("orders", { show: "number" }) }, limits: { perTicket: 1, perDay: 500 },
 * });
 */
export function defineTemplate<S extends CollectionSchemas>(
  records: RecordsDefinition<S>,
  config: TemplateConfig,
): Template {
  const id = typeof config?.id === "string" ? config.id : String(config?.id);
  if (!idPattern.test(id)) {
    templateError(
      id,
      'id must be lower-case letters, digits and "_", starting with a letter, at most 64 characters',
    );
  }
  if (
    typeof config.description !== "string" ||
    config.description.trim() === "" ||
    config.description.length > 1000
  ) {
    templateError(
      id,
      "description must be a non-empty string of at most 1,000 characters: it tells the model when to choose the template",
    );
  }
  if (typeof config.audience !== "string" || !slotName.test(config.audience)) {
    templateError(id, 'audience must be a lower-case role name such as "seller" or "customer"');
  }
  if (!channels.includes(config.channel)) {
    templateError(id, `channel must be one of ${channels.join(", ")}`);
  }
  const limits = checkLimits(id, config.limits);
  if (config.approval !== undefined && config.approval !== "human") {
    templateError(id, 'approval must be "human" or left out');
  }
  const effect = checkEffect(id, config.effect, config.approval);

  const readers = readersOf(records as unknown as RecordsDefinition, config.audience);
  const declared = config.slots ?? {};
  const slots: CompiledSlot[] = [];
  for (const name of Object.keys(declared)) {
    if (!slotName.test(name) || name === "to") {
      templateError(
        id,
        'slot names are lower-case letters, digits and "_", starting with a letter; "to" is the recipient',
        name,
      );
    }
    slots.push(compileSlot(records, id, config, name, declared[name] as Slot, slots, readers.audience));
  }
  if (config.to?.kind !== "ref") {
    templateError(
      id,
      'to must be a ref slot into a contact collection, e.g. slot.ref("contacts", { show: "email" })',
      "to",
    );
  }
  const recipient = compileSlot(records, id, config, "to", config.to, slots, readers.recipient);
  checkRecipient(id, config.channel, recipient);

  const subject = config.subject === undefined ? undefined : compile(id, config.subject, "subject");
  const body = compile(id, config.body, "body");
  const html = config.html === undefined ? undefined : compile(id, config.html, "html");
  checkTags(id, [...slots, recipient], [subject, body, html]);
  const htmlReading = html === undefined ? undefined : checkHtml(id, html.parts);

  const maxSegments = config.maxSegments ?? 3;
  checkChannel(id, config, slots, { subject, body, html }, maxSegments);
  const ceilings = checkCeilings(id, config.ceilings, slots);
  if (config.firstContact !== undefined && config.firstContact !== "hold" && config.firstContact !== "send")
    templateError(id, 'firstContact must be "hold", "send" or left out (the outbox\'s default)');

  const written: Template = {
    id,
    records: records as unknown as RecordsDefinition,
    description: config.description.trim(),
    audience: config.audience,
    channel: config.channel,
    limits,
    effect,
    approval: config.approval,
    ceilings,
    ceilingTags: new Set(ceilings.flatMap((ceiling) => ceiling.values)),
    firstContact: config.firstContact,
    maxSegments,
    slots,
    recipient,
    resolveOrder: [...slots, recipient],
    readers,
    recipientShown: [subject, body, html].some((text) => text?.tags.some((use) => use.tag === "to")),
    keyOrder: [...slots, recipient]
      .filter((slot) => slot.slot.kind !== "derived")
      .map((slot) => slot.name)
      .sort(),
    chosenSlots: new Set(
      [...slots, recipient].filter((slot) => slot.slot.kind !== "derived").map((slot) => slot.name),
    ),
    subject: subject?.parts,
    body: body.parts,
    html: html?.parts,
    htmlText: htmlReading?.parts,
    literal: [subject?.literal, body.literal, htmlReading?.literal].filter((x) => x !== undefined).join("\n"),
    source: { subject: config.subject, body: config.body, html: config.html },
    locale: undefined,
    locales: undefined,
  };
  if (config.locale !== undefined) {
    return localiseTemplate(records as unknown as RecordsDefinition, config, written);
  }
  return Object.freeze(written);
}

type Compiled = ReturnType<typeof compileBody>;

function compile(id: string, source: unknown, field: string): Compiled {
  if (typeof source !== "string" || source.trim() === "")
    templateError(id, `${field} must be a non-empty string`);
  try {
    return compileBody(source, field);
  } catch (error) {
    if (error instanceof BodyError) templateError(id, error.message);
    throw error;
  }
}

function compileSlot<S extends CollectionSchemas>(
  records: RecordsDefinition<S>,
  id: string,
  config: TemplateConfig,
  name: string,
  slot: Slot,
  earlier: readonly CompiledSlot[],
  reader: Reader,
): CompiledSlot {
  const noKeys = new Map<string, string>();
  switch (slot?.kind) {
    case "ref":
      return {
        name,
        slot,
        fields: compileRefFields(records, id, config, name, slot),
        keys: noKeys,
        joins: compileJoins(records, id, config, name, slot, earlier),
        reader,
      };
    case "choice": {
      const keys = new Map<string, string>();
      const entries = Object.entries(slot.choices ?? {});
      if (entries.length === 0) templateError(id, "a choice slot needs at least one key", name);
      for (const [key, label] of entries) {
        if (!choiceKey.test(key)) {
          templateError(id, `choice key "${key}" must be lower-case letters, digits, "_" or "-"`, name);
        }
        if (typeof label !== "string" || label.trim() === "" || /[\r\n]/.test(label)) {
          templateError(id, `choice "${key}" needs a non-empty, single-line label`, name);
        }
        keys.set(key, key);
      }
      return { name, slot, fields: [], keys, joins: [], reader };
    }
    case "derived": {
      if (typeof slot.compute !== "function") templateError(id, "slot.derived needs a function", name);
      const as = slot.as ?? format.text();
      const maxLength = maxLengthOf(id, name, as, slot.maxLength);
      if ((as.reads ?? []).length > 0) {
        templateError(
          id,
          `its format reads ${as.reads?.join(", ")} of a record, and a derived value has none; give the format fixed options (e.g. format.money({ currency: "EUR" }))`,
          name,
        );
      }
      return {
        name,
        slot,
        fields: [{ tag: name, field: name, format: as, maxLength, reads: [], labels: [] }],
        keys: noKeys,
        joins: [],
        reader,
      };
    }
    default:
      return templateError(
        id,
        "is not a slot: build it with slot.ref, slot.choice or slot.derived (there is no free-text slot)",
        name,
      );
  }
}

function compileRefFields<S extends CollectionSchemas>(
  records: RecordsDefinition<S>,
  id: string,
  config: TemplateConfig,
  name: string,
  slot: RefSlot,
): CompiledField[] {
  const schema = records.collections[slot.collection];
  if (schema === undefined || !Object.hasOwn(records.collections, slot.collection)) {
    templateError(
      id,
      `collection "${slot.collection}" is not declared; declared: ${records.names.join(", ")}`,
      name,
    );
  }
  const shape = schema.shape as Record<string, unknown>;
  const shown: [tag: string, spec: ShownField][] =
    typeof slot.show === "string"
      ? [
          [
            name,
            {
              field: slot.show,
              ...(slot.as ? { as: slot.as } : {}),
              ...(slot.maxLength !== undefined ? { maxLength: slot.maxLength } : {}),
            },
          ],
        ]
      : Object.entries(slot.show ?? {}).map(([alias, spec]) => [
          `${name}.${alias}`,
          typeof spec === "string" ? { field: spec } : spec,
        ]);
  if (shown.length === 0) templateError(id, "show must name at least one field", name);
  return shown.map(([tag, spec]) => {
    if (typeof spec.field !== "string" || !Object.hasOwn(shape, spec.field)) {
      templateError(
        id,
        `shows "${String(spec.field)}", which is not a field of "${slot.collection}"; fields: ${Object.keys(shape).join(", ")}`,
        name,
      );
    }
    const as = spec.as ?? (stringFormat(shape[spec.field]) === "email" ? format.email() : format.text());
    const maxLength = maxLengthOf(id, name, as, spec.maxLength);
    const { audience } = config;
    const definition = records as unknown as RecordsDefinition;
    const labels = checkReadable(id, name, definition, audience, slot.collection, spec.field, "shows");
    if (name === "to") checkNotUntrusted(id, name, definition, slot.collection, spec.field, "sends to");
    const reads = [...(as.reads ?? [])];
    for (const read of reads) {
      if (!Object.hasOwn(shape, read)) {
        templateError(
          id,
          `the format of ${slot.collection}.${spec.field} reads "${read}", which is not a field of "${slot.collection}"; fields: ${Object.keys(shape).join(", ")}`,
          name,
        );
      }
      labels.push(...checkReadable(id, name, definition, audience, slot.collection, read, "formats with"));
      if (name === "to")
        checkNotUntrusted(id, name, definition, slot.collection, read, "formats the address with");
    }
    return { tag, field: spec.field, format: as, maxLength, reads, labels };
  });
}

function compileJoins<S extends CollectionSchemas>(
  records: RecordsDefinition<S>,
  id: string,
  config: TemplateConfig,
  name: string,
  slot: RefSlot,
  earlier: readonly CompiledSlot[],
): Join[] {
  const joins: Join[] = [];
  const shape = records.collections[slot.collection]?.shape as Record<string, unknown>;
  for (const [field, path] of Object.entries(slot.match ?? {})) {
    const [other = "", otherField = "", ...rest] = typeof path === "string" ? path.split(".") : [];
    const source = earlier.find((candidate) => candidate.name === other);
    if (!Object.hasOwn(shape, field)) {
      templateError(id, `match names "${field}", which is not a field of "${slot.collection}"`, name);
    }
    if (source === undefined || source.slot.kind !== "ref" || otherField === "" || rest.length > 0) {
      templateError(
        id,
        `match.${field} must be "<earlier ref slot>.<field>", e.g. "order.${field}"; "${String(path)}" is not`,
        name,
      );
    }
    const otherShape = records.collections[source.slot.collection]?.shape as Record<string, unknown>;
    if (!Object.hasOwn(otherShape, otherField)) {
      templateError(
        id,
        `match.${field}: "${otherField}" is not a field of "${source.slot.collection}"`,
        name,
      );
    }
    // Which record fills the slot depends on both fields: each is read for the audience, and neither may
    // be outsider's text where the join picks the recipient.
    const definition = records as unknown as RecordsDefinition;
    const sides = [
      [slot.collection, field],
      [source.slot.collection, otherField],
    ] as const;
    for (const [collection, joined] of sides) {
      checkReadable(id, name, definition, config.audience, collection, joined, "joins on");
      if (name === "to")
        checkNotUntrusted(id, name, definition, collection, joined, "picks the recipient by");
    }
    joins.push({ field, slot: other, otherField });
  }
  return joins;
}

function maxLengthOf(id: string, name: string, as: Format, maxLength: number | undefined): number {
  if (as?.apply === undefined)
    templateError(id, "as must be a format built with format.text(), format.date(), …", name);
  if (as.problem !== undefined) templateError(id, `${as.problem}`, name);
  if (maxLength === undefined) return as.multiline ? 2000 : 200;
  if (!Number.isInteger(maxLength) || maxLength < 1 || maxLength > 100_000) {
    templateError(id, "maxLength must be a whole number from 1 to 100,000", name);
  }
  return maxLength;
}

function stringFormat(schema: unknown): string | undefined {
  let current = schema as { format?: unknown; _zod?: { def?: { innerType?: unknown } } } | undefined;
  for (let depth = 0; depth < 8 && current !== undefined; depth++) {
    if (typeof current.format === "string") return current.format;
    current = current._zod?.def?.innerType as typeof current;
  }
  return undefined;
}
