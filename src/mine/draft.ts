import { smsSize } from "../core/definition/channels.js";
import type { CollectionSchemas, RecordsDefinition } from "../core/definition/define-records.js";
import { checkNotUntrusted, checkReadable } from "../core/definition/label-checks.js";
import type { ShownField, Slot } from "../core/definition/slots.js";
import { defineTemplate } from "../core/definition/template.js";
import type { TemplateConfig } from "../core/definition/template-types.js";
import { isFormletterError } from "../core/errors.js";
import { format } from "../core/message/format.js";
import type { CandidateTemplate } from "./candidate.js";
import { type DraftEffect, draftEffect } from "./draft-effect.js";
import { type DraftFormat, draftFormat, formatOf, phoneCountry } from "./draft-formats.js";
import { planJoins } from "./draft-joins.js";
import {
  composeBody,
  readSkeleton,
  subjectLine,
  tidy,
  type VaryingPlace,
  varyingPlaces,
  withValueTags,
} from "./draft-text.js";
import {
  type IdentifierKind,
  kindName,
  replaceIdentifiers,
  scanFinds,
  shownIdentifier,
} from "./literal-identifiers.js";
import type { MiningReport } from "./mine-history.js";
import { collectionOfPrefix, placeholderPrefix } from "./placeholder-prefix.js";
import { singular } from "./singular.js";

export type { DraftEffect } from "./draft-effect.js";
export type { DraftFormat } from "./draft-formats.js";

/** A ref slot of a drafted template: one record of `collection`, showing fields by alias. */
export interface DraftRefSlot {
  readonly kind: "ref";
  readonly name: string;
  readonly collection: string;
  /** Alias in the template (`{{order.number}}`) → field of the collection, and its format if not text. */
  readonly show: Readonly<Record<string, { readonly field: string; readonly as: DraftFormat | undefined }>>;
  /** Joins to earlier slots (`slot.ref`'s `match`): own field → "slot.field"; undefined without one. */
  readonly match: Readonly<Record<string, string>> | undefined;
  /**
   * Nothing in the history's records joins this record to the template's others: the model chooses
   * which of the ticket's records it is (the emitted code says so for review).
   */
  readonly unjoined: boolean;
  /**
   * A record the text does not show, declared only to join two others (a damage's vehicle, between the
   * damage and the garage receiving the message). Optional and used in an empty section: left out, it is
   * the one record the joins allow; given as none, the joins fail and the message escalates.
   */
  readonly link: boolean;
}

/** A choice slot of a drafted template: the words that varied between the cluster's messages. */
export interface DraftChoiceSlot {
  readonly kind: "choice";
  readonly name: string;
  /** Key → label; keys follow the choice-key rules, labels are the words as the history wrote them. */
  readonly choices: Readonly<Record<string, string>>;
}

/** A template drafted from one cluster: every part checked by `defineTemplate` against the records. */
export interface DraftTemplate {
  readonly id: string;
  /** The cluster it was drafted from (`CandidateTemplate.id`) and its size. */
  readonly cluster: number;
  readonly size: number;
  readonly description: string;
  readonly audience: string;
  readonly channel: "email" | "sms";
  /** The recipient: a field of a collection, and the format its address needs when not a z.email() field. */
  readonly to: {
    readonly collection: string;
    readonly field: string;
    readonly as: "email" | "phone" | undefined;
    /** Phone recipients: the country of numbers written without a `+` (inferred, or `--country`). */
    readonly country: string | undefined;
    /** The join to the chosen records; undefined when none exists, so the model chooses the recipient. */
    readonly match: Readonly<Record<string, string>> | undefined;
    /**
     * Why the model chooses the recipient, when it does: no key joins it to the chosen records
     * ("not-joined"), or the join leaves several (it is on a field whose values repeat within a ticket,
     * "several-fit"); undefined when the other choices decide it.
     */
    readonly choice: "not-joined" | "several-fit" | undefined;
  };
  readonly subject: string | undefined;
  readonly body: string;
  readonly slots: readonly (DraftRefSlot | DraftChoiceSlot)[];
  readonly limits: { readonly perTicket: number; readonly perDay: number };
  /** SMS only, when the fixed text needs more than the default 3 segments. */
  readonly maxSegments: number | undefined;
  /**
   * Distinct identifiers seen in the cluster's messages or its drafted text and left out (listed by the
   * mining report): a reviewer may want some of them back, as a record field's slot.
   */
  readonly identifiersLeftOut: number;
  /** Declared effect: `irreversible` (with human approval) when it shows money or names such an action. */
  readonly effect: DraftEffect;
}

/** What {@link draftTemplates} made of a report's candidates. */
export interface CatalogDraft {
  readonly templates: readonly DraftTemplate[];
  /** Candidates that could not become a template, with why (names from the records definition only). */
  readonly leftOut: readonly { readonly cluster: number; readonly reason: string }[];
  /**
   * Identifiers the drafted texts (subject, body, description) would have held, left out of them: pieces
   * of the history that only read as one once drafted (two words joined where a symbol was dropped).
   * Those the history's messages held are already out of the skeletons (`CandidateTemplate.identifiersLeftOut`).
   */
  readonly identifiersLeftOut: readonly DraftIdentifier[];
}

/** An identifier left out of a drafted template's text. */
export interface DraftIdentifier {
  readonly cluster: number;
  readonly template: string;
  readonly kind: IdentifierKind;
  /** Defanged (see `CandidateTemplate.identifiersLeftOut`), never as written. */
  readonly text: string;
  /** Times the drafted texts held it. */
  readonly count: number;
}

/** Options of {@link draftTemplates}. */
export interface DraftOptions {
  /** Most templates drafted: the biggest templatable clusters. @default 10 */
  readonly top?: number;
  /** Country of phone numbers written without a `+` (ISO 3166-1 alpha-2); inferred from the records without it. */
  readonly country?: string;
  /** The zone dates are shown in and offset-less timestamps read in. @default "UTC" */
  readonly timeZone?: string;
}

const slotName = /^[a-z][a-z0-9_]{0,39}$/;

/**
 * Drafts a starting catalog from a mining report: one template per templatable cluster (biggest first),
 * its fixed text the words most of the cluster's messages share, its slots the placeholders found (refs to
 * the declared `collection.field`) and the words that varied (a `slot.choice`). Text from the history is
 * untrusted: only letters, digits, spaces and plain punctuation are kept, never braces, quotes or markup,
 * and a placeholder becomes a slot only when it names a declared field. Each draft is checked with
 * `defineTemplate` against the records; a slot the checks refuse (a field the audience may not read) is
 * left out, and a template that still fails is listed in `leftOut`.
 */
export function draftTemplates<S extends CollectionSchemas>(
  definition: RecordsDefinition<S>,
  report: MiningReport,
  options: DraftOptions = {},
): CatalogDraft {
  const records = definition as unknown as RecordsDefinition;
  const templates: DraftTemplate[] = [];
  const leftOut: { cluster: number; reason: string }[] = [];
  const identifiersLeftOut: DraftIdentifier[] = [];
  const ids = new Set<string>();
  const candidates = report.candidates.filter((candidate) => candidate.templatable);
  for (const candidate of candidates.slice(0, options.top ?? 10)) {
    const drafted = draftOne(records, candidate, report, ids, options);
    if ("reason" in drafted) leftOut.push({ cluster: candidate.id, reason: drafted.reason });
    else {
      ids.add(drafted.template.id);
      templates.push(drafted.template);
      identifiersLeftOut.push(...drafted.identifiers);
    }
  }
  return { templates, leftOut, identifiersLeftOut };
}

/** The collection whose placeholders are written with `prefix` (`order` → `orders`). */
function collectionOf(records: RecordsDefinition, prefix: string): string | undefined {
  return collectionOfPrefix(records.names, prefix);
}

function fieldsOf(records: RecordsDefinition, collection: string): Record<string, unknown> {
  return (records.collections[collection]?.shape ?? {}) as Record<string, unknown>;
}

function draftOne(
  records: RecordsDefinition,
  candidate: CandidateTemplate,
  report: MiningReport,
  taken: ReadonlySet<string>,
  options: DraftOptions,
): { template: DraftTemplate; identifiers: DraftIdentifier[] } | { reason: string } {
  const recipient = candidate.recipient;
  if (recipient === undefined) return { reason: "no recipient of its messages is in the records" };
  const [prefix = "", field = ""] = recipient.source.split(".");
  const toCollection = collectionOf(records, prefix);
  if (toCollection === undefined || !Object.hasOwn(fieldsOf(records, toCollection), field)) {
    return { reason: `recipient field ${recipient.source} is not declared` };
  }
  const audience = sanitizeName(singular(toCollection), "recipient");
  // A field the audience may not read (by its labels) is left out of the text, as a value is.
  const readable = (collection: string, shown: string): boolean => {
    try {
      checkReadable("draft", "slot", records, audience, collection, shown, "shows");
      return true;
    } catch {
      return false;
    }
  };
  try {
    checkNotUntrusted("draft", "to", records, toCollection, field, "sends to");
  } catch {
    return { reason: `recipient field ${recipient.source} is written by an outsider` };
  }

  const profile = report.profile as MiningReport["profile"] | undefined;
  // Fields the history texted messages to hold phone numbers, however they are written.
  const texted = new Set<string>();
  for (const { recipient: sent } of report.candidates) {
    if (sent?.channel !== "sms") continue;
    const [sentPrefix = "", sentField = ""] = sent.source.split(".");
    const sentCollection = collectionOf(records, sentPrefix);
    if (sentCollection !== undefined) texted.add(`${sentCollection}.${sentField}`);
  }
  const formatChoices = {
    ...(options.timeZone === undefined ? {} : { timeZone: options.timeZone }),
    ...(options.country === undefined ? {} : { country: options.country }),
    // The language the history writes, where it is not English.
    ...(report.language === undefined ? {} : { language: report.language }),
  };
  // Money needs its currency from the same record: a field the history filled with currency codes, or
  // one the schema calls `currency`, as long as the audience may read it.
  const currencyFieldOf = (collection: string): string | undefined => {
    const fields = fieldsOf(records, collection);
    const profiled = profile?.fields.find(
      (entry) =>
        entry.collection === collection &&
        entry.kind === "currency" &&
        isStringField(fields[entry.field]) &&
        readable(collection, entry.field),
    );
    if (profiled !== undefined) return profiled.field;
    return isStringField(fields.currency) && readable(collection, "currency") ? "currency" : undefined;
  };
  // A join field must be one the audience may read and no outsider writes: an outsider's field would let
  // its writer pick which record is "the" one.
  const joinable = (collection: string, joined: string): boolean => {
    if (!Object.hasOwn(fieldsOf(records, collection), joined) || !readable(collection, joined)) return false;
    try {
      checkNotUntrusted("draft", "to", records, collection, joined, "joins on");
      return true;
    } catch {
      return false;
    }
  };

  type Shown = { field: string; as: DraftFormat | undefined };
  const refs = new Map<string, { collection: string; show: Record<string, Shown> }>();
  const slotOf = (collection: string): string => {
    for (const [name, ref] of refs) if (ref.collection === collection) return name;
    let name = sanitizeName(placeholderPrefix(records.names, collection), "record");
    if (name === "to" || /^choice(_\d+)?$/.test(name)) name = `${name}_record`;
    while (refs.has(name)) name = `${name}_2`;
    refs.set(name, { collection, show: {} });
    return name;
  };
  const tagOf = (path: string): { slot: string; alias: string } | undefined => {
    const [tagPrefix = "", tagField = "", ...deeper] = path.split(".");
    const collection = collectionOf(records, tagPrefix);
    // Nested values have no field to show: they stay out of the text.
    if (
      collection === undefined ||
      deeper.length > 0 ||
      !Object.hasOwn(fieldsOf(records, collection), tagField) ||
      !readable(collection, tagField)
    )
      return undefined;
    const name = slotOf(collection);
    const ref = refs.get(name) as { show: Record<string, Shown> };
    const fields = fieldsOf(records, collection);
    ref.show[tagField] = {
      field: tagField,
      as: draftFormat(
        {
          collection,
          field: tagField,
          number: isNumberField(fields[tagField]),
          string: isStringField(fields[tagField]),
          currencyField: currencyFieldOf(collection),
          texted: texted.has(`${collection}.${tagField}`),
        },
        profile,
        formatChoices,
      ),
    };
    return { slot: name, alias: tagField };
  };
  const read = readSkeleton(candidate.skeleton, tagOf);
  const varying = varyingPlaces(
    read,
    candidate.examples,
    new Set(candidate.choiceWords.map((choice) => choice.word.toLowerCase())),
  );
  const pieces = withValueTags(read, varying, tagOf);
  const choices = choicesOf(varying.choice);
  const choiceName = choices === undefined ? undefined : "choice";
  // Each other place the examples varied at gets a choice of its own: "choice_2", "choice_3", ….
  const moreChoices = (varying.others ?? []).map(choicesOf);
  const moreNames = moreChoices.map((more, at) => (more === undefined ? undefined : `choice_${at + 2}`));
  let dropped = new Set<string>();
  for (let attempt = 0; attempt <= refs.size + 1; attempt++) {
    // Mining took every identifier out of the skeleton; drafting drops characters and gaps, which may
    // join what is left into one again ("acme.€example" → "acme.example"): the drafted texts are looked
    // through once more, and what is found is left out and listed.
    const found = new Map<string, DraftIdentifier>();
    const withoutIdentifiers = (text: string): string =>
      tidy(
        replaceIdentifiers(text, ({ kind, token, tags }) => {
          const shown = shownIdentifier(kind, token);
          const key = `${kind} ${shown}`;
          const seen = found.get(key);
          found.set(key, {
            cluster: candidate.id,
            template: "",
            kind,
            text: shown,
            count: (seen?.count ?? 0) + 1,
          });
          return ` ${tags.join(" ")} `;
        }),
      );
    const text = withoutIdentifiers(
      composeBody(pieces, { dropped, choice: choiceName, more: moreNames, varying }),
    );
    const literal = text
      .replace(/\{\{[^}]*\}\}/g, " ")
      .replace(/\s+/g, " ")
      .trim();
    const topic = topicWords(text);
    const id = uniqueId(idOf(topic), taken);
    const channel = recipient.channel;
    const size = channel === "sms" ? smsSize(literal).segments : 0;
    const perDay =
      report.messagesPerDay === undefined || report.messages === 0
        ? 100
        : Math.max(10, Math.ceil((2 * report.messagesPerDay * candidate.size) / report.messages));
    const shownRefs = [...refs].filter(
      ([name, ref]) => !dropped.has(name) && Object.keys(ref.show).length > 0,
    );
    const names = new Set([
      ...refs.keys(),
      "to",
      "choice",
      ...moreNames.filter((name) => name !== undefined),
    ]);
    const plan = planJoins(
      shownRefs.map(([name, ref]) => ({ name, collection: ref.collection })),
      toCollection,
      profile?.keys ?? [],
      {
        joinable,
        nameFor: (collection) => {
          let name = sanitizeName(placeholderPrefix(records.names, collection), "record");
          while (names.has(name)) name = `${name}_2`;
          names.add(name);
          return name;
        },
        identity: (collection) => (Object.hasOwn(fieldsOf(records, collection), "id") ? "id" : undefined),
      },
    );
    const slots: (DraftRefSlot | DraftChoiceSlot)[] = shownRefs.map(([name, ref]) => ({
      kind: "ref",
      name,
      collection: ref.collection,
      show: { ...ref.show },
      match: plan.match.get(name),
      unjoined: plan.unjoined.includes(name),
      link: false,
    }));
    for (const link of plan.links) {
      const [shown = "id"] = link.fields;
      slots.push({
        kind: "ref",
        name: link.name,
        collection: link.collection,
        show: { [shown]: { field: shown, as: undefined } },
        match: plan.match.get(link.name),
        unjoined: false,
        link: true,
      });
    }
    if (
      choices !== undefined &&
      choiceName !== undefined &&
      !dropped.has(choiceName) &&
      text.includes(`{{${choiceName}}}`)
    )
      slots.push({ kind: "choice", name: choiceName, choices });
    for (const [at, name] of moreNames.entries()) {
      const more = moreChoices[at];
      if (name !== undefined && more !== undefined && !dropped.has(name) && text.includes(`{{${name}}}`))
        slots.push({ kind: "choice", name, choices: more });
    }
    // A link shows nothing; an empty section is how the body uses it.
    const body = text + plan.links.map((link) => `{{#${link.name}}}{{/${link.name}}}`).join("");
    const recipientField = fieldsOf(records, toCollection)[field];
    const money = slots.some(
      (slot) => slot.kind === "ref" && Object.values(slot.show).some((shown) => shown.as?.kind === "money"),
    );
    const quantities = new Set(
      slots.flatMap((slot) =>
        slot.kind === "ref"
          ? Object.entries(slot.show).flatMap(([alias, shown]) =>
              shown.as !== undefined && shown.as.kind !== "phone" ? [`${slot.name}.${alias}`] : [],
            )
          : [],
      ),
    );
    const subject =
      channel === "email"
        ? withoutIdentifiers(subjectLine(text, (path) => quantities.has(path))) || "Message"
        : undefined;
    const draft: DraftTemplate = {
      id,
      cluster: candidate.id,
      size: candidate.size,
      description: withoutIdentifiers(
        `Mined from ${candidate.size} past messages: ${firstSentence(text).join(" ")}`,
      ).slice(0, 300),
      audience,
      channel,
      to: {
        collection: toCollection,
        field,
        as: channel === "sms" ? "phone" : isEmailField(recipientField) ? undefined : "email",
        country:
          channel === "sms"
            ? phoneCountry(profile, { collection: toCollection, field }, options.country)
            : undefined,
        match: plan.match.get("to"),
        choice: recipientChoice(plan.match.get("to"), toCollection, profile),
      },
      subject,
      body,
      slots,
      limits: { perTicket: 1, perDay },
      maxSegments: size > 3 ? Math.min(10, size + 1) : undefined,
      identifiersLeftOut: candidate.identifiersLeftOut.length + found.size,
      effect: draftEffect(
        [
          candidate.skeleton,
          text,
          subject ?? "",
          ...candidate.choiceWords.map((choice) => choice.word),
          ...candidate.examples,
        ],
        { money },
      ),
    };
    // The outbound scan's own reading, with nothing allowed, as the last word on what is written text.
    const texts = [draft.subject ?? "", literal, draft.description];
    const kind = texts.map(scanFinds).find((finding) => finding !== undefined);
    if (kind !== undefined) return { reason: `its drafted text would hold a ${kindName(kind)}` };
    try {
      defineTemplate(records, configOf(records, draft));
      return {
        template: draft,
        identifiers: [...found.values()].map((entry) => ({ ...entry, template: draft.id })),
      };
    } catch (error) {
      if (!isFormletterError(error)) throw error;
      const slot = (error as { slot?: unknown }).slot;
      if (
        typeof slot === "string" &&
        slot !== "to" &&
        !dropped.has(slot) &&
        (refs.has(slot) || slot === choiceName || moreNames.includes(slot))
      ) {
        dropped = new Set([...dropped, slot]);
        continue;
      }
      return { reason: error.message.replace(/[^\w .,:;'"()=/{}-]/g, " ").slice(0, 300) };
    }
  }
  return { reason: "no slot set passed the definition checks" };
}

/**
 * Whether the other choices decide the recipient: not when nothing joins it, nor when every field it is
 * joined on repeats within a ticket (a garage's several contacts), where the model still picks one.
 */
function recipientChoice(
  match: Readonly<Record<string, string>> | undefined,
  collection: string,
  profile: MiningReport["profile"] | undefined,
): DraftTemplate["to"]["choice"] {
  if (match === undefined) return "not-joined";
  const repeats = (field: string) =>
    profile?.repeating.some((entry) => entry.collection === collection && entry.field === field) === true;
  return Object.keys(match).every(repeats) ? "several-fit" : undefined;
}

/**
 * The choice's keys and labels: the phrases seen where the members' text varied; undefined without such a
 * place (words that varied at no one place say nothing of where a choice would go) or without two.
 */
function choicesOf(place: VaryingPlace | undefined): Record<string, string> | undefined {
  if (place === undefined) return undefined;
  const choices: Record<string, string> = {};
  for (const text of place.phrases) {
    // A word with a digit is data (a room, an amount, a short value too short to be masked), not a
    // phrase someone chose: it is never written into code.
    if (!/^\p{L}+(?: \p{L}+)*$/u.test(text)) continue;
    let key = asciiOf(text).slice(0, 60) || `option_${Object.keys(choices).length + 1}`;
    if (!/^[a-z0-9]/.test(key)) key = `k${key}`;
    while (Object.hasOwn(choices, key)) key = `${key}_2`;
    choices[key] = text;
  }
  return Object.keys(choices).length >= 2 ? choices : undefined;
}

/** Lower-case ASCII letters, digits and "_" from any text: accents dropped, the rest "_". */
function asciiOf(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}

function sanitizeName(text: string, fallback: string): string {
  const name = asciiOf(text).slice(0, 40).replace(/_+$/, "");
  return slotName.test(name) ? name : fallback;
}

/**
 * The words a template is named and titled by: the text after a salutation ("Hi {{seller.shopName}},"),
 * so a greeting does not name every template.
 */
/** The words of the first sentence after the salutation: what a subject or description can say. */
function firstSentence(body: string): string[] {
  const salutation = /^[^,:.!?]*\{\{[^}]*\}\}[^,:.!?]*[,:]/.exec(body);
  const rest = salutation === null ? body : body.slice(salutation[0].length);
  const sentence = /^[^.!?]*/.exec(rest.replace(/\{\{[^}]*\}\}/g, " "))?.[0] ?? "";
  const words = sentence.match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.length > 0 ? words : topicWords(body);
}

function topicWords(body: string): string[] {
  const salutation = /^[^,:.!?]*\{\{[^}]*\}\}[^,:.!?]*[,:]/.exec(body);
  const rest = salutation === null ? body : body.slice(salutation[0].length);
  const words = rest.replace(/\{\{[^}]*\}\}/g, " ").match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.length > 0 ? words : (body.replace(/\{\{[^}]*\}\}/g, " ").match(/[\p{L}\p{N}]+/gu) ?? []);
}

const minorWords = new Set([
  "a",
  "an",
  "the",
  "to",
  "of",
  "for",
  "and",
  "or",
  "on",
  "in",
  "is",
  "are",
  "be",
  "we",
  "you",
  "your",
  "our",
  "us",
  "it",
  "this",
  "that",
  "with",
]);

function idOf(words: readonly string[]): string {
  const named = words.filter((word) => !minorWords.has(word.toLowerCase()));
  const id = asciiOf((named.length > 0 ? named : words).slice(0, 4).join(" "))
    .slice(0, 56)
    .replace(/_+$/, "");
  return /^[a-z]/.test(id) ? id : `template_${id}`.replace(/_+$/, "");
}

function uniqueId(id: string, taken: ReadonlySet<string>): string {
  if (!taken.has(id)) return id;
  for (let n = 2; ; n++) if (!taken.has(`${id}_${n}`)) return `${id}_${n}`;
}

/** The zod type under optional, nullable and default wrappers. */
function typeOf(schema: unknown): string | undefined {
  let current = schema as { _zod?: { def?: { type?: string; innerType?: unknown } } } | undefined;
  for (let depth = 0; depth < 8 && current !== undefined; depth++) {
    const def = current._zod?.def;
    if (def?.innerType === undefined) return def?.type;
    current = def.innerType as typeof current;
  }
  return undefined;
}

const isNumberField = (schema: unknown) => typeOf(schema) === "number";
const isStringField = (schema: unknown) => typeOf(schema) === "string";

function isEmailField(schema: unknown): boolean {
  let current = schema as { format?: unknown; _zod?: { def?: { innerType?: unknown } } } | undefined;
  for (let depth = 0; depth < 8 && current !== undefined; depth++) {
    if (current.format === "email") return true;
    current = current._zod?.def?.innerType as typeof current;
  }
  return false;
}

function shownOf(slot: DraftRefSlot): Record<string, string | ShownField<Record<string, unknown>>> {
  const show: Record<string, string | ShownField<Record<string, unknown>>> = {};
  for (const [alias, { field, as }] of Object.entries(slot.show))
    show[alias] = as === undefined ? field : { field, as: formatOf(as) };
  return show;
}

/**
 * What the model is told of a link slot: which record to give. Built from the declared collection name,
 * never from history text.
 */
export function linkDescription(collection: string): string {
  return `the ${collection} record the other chosen records belong to (only it fits; none makes the message escalate)`;
}

/** The recipient's format: a phone with the draft's default country, an e-mail, or the field's own. */
export function recipientFormat(draft: DraftTemplate): DraftFormat | "email" | undefined {
  if (draft.to.as === "phone") return { kind: "phone", defaultCountry: draft.to.country };
  return draft.to.as;
}

/** The draft as `defineTemplate` takes it: built with the records' own slot builder, as the emitted code does. */
export function configOf(records: RecordsDefinition, draft: DraftTemplate): TemplateConfig {
  const slots: Record<string, Slot> = {};
  for (const slot of draft.slots) {
    slots[slot.name] =
      slot.kind === "ref"
        ? records.slot.ref(slot.collection, {
            show: shownOf(slot),
            ...(slot.match === undefined ? {} : { match: slot.match }),
            ...(slot.link ? { optional: true, description: linkDescription(slot.collection) } : {}),
          })
        : records.slot.choice(slot.choices);
  }
  const to = recipientFormat(draft);
  const as = to === undefined ? undefined : to === "email" ? format.email() : formatOf(to);
  return {
    id: draft.id,
    description: draft.description,
    audience: draft.audience,
    channel: draft.channel,
    to: records.slot.ref(draft.to.collection, {
      show: draft.to.field,
      ...(as === undefined ? {} : { as }),
      ...(draft.to.match === undefined ? {} : { match: draft.to.match }),
    }),
    // Declared, as the emitted code declares it, where the joins leave the model a choice of recipient.
    ...(draft.to.choice === undefined ? {} : { recipient: "model-chooses" as const }),
    ...(draft.subject === undefined ? {} : { subject: draft.subject }),
    body: draft.body,
    slots,
    limits: draft.limits,
    // As the emitted code declares it, for the reviewer to change.
    ...(draft.effect.effect === "irreversible"
      ? { effect: "irreversible", approval: "human" }
      : { effect: "informational" }),
    ...(draft.maxSegments === undefined ? {} : { maxSegments: draft.maxSegments }),
  };
}
