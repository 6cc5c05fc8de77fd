import { templateError } from "../errors.js";
import { reservedNames } from "../llm/names.js";
import { localiseTemplate } from "../locale/locale-checks.js";
import { merged } from "../merged.js";
import { type Format, format } from "../message/format.js";
import { checkAmountsApart } from "./amount-neighbours.js";
import { checkCeilings } from "./ceilings.js";
import { channels } from "./channels.js";
import type { CollectionSchemas, RecordsDefinition } from "./define-records.js";
import { markDefined } from "./defined-templates.js";
import { checkHtml } from "./html-template.js";
import { checkNotUntrusted, checkReadable, type Reader, readersOf } from "./label-checks.js";
import { suggestionText } from "./name-suggestion.js";
import type { RefSlot, ShownField, Slot } from "./slots.js";
import { checkChannel, checkEffect, checkLimits, checkRecipient, checkTags } from "./template-checks.js";
import { templateVersion } from "./template-content.js";
import {
  type CompiledField,
  type CompiledLocales,
  type CompiledSlot,
  type Join,
  recipientChoices,
  type Template,
  type TemplateConfig,
} from "./template-types.js";
import { BodyError, compileBody } from "./text-parts.js";

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
      `id must be lower-case letters, digits and "_", starting with a letter, at most 64 characters${suggestionText(id, idPattern)}`,
    );
  }
  if (reservedNames.has(id)) {
    // A tool call by this name would mean two things: the template, or formletter's own tool.
    templateError(
      id,
      `id is the name of a tool formletter adds beside the templates (${[...reservedNames].join(", ")}); choose another id`,
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
    templateError(
      id,
      `audience must be a lower-case role name such as "seller" or "customer"${suggestionText(String(config.audience), slotName)}`,
    );
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
      const suggestion = name === "to" ? "" : suggestionText(name, slotName);
      templateError(
        id,
        `slot names are lower-case letters, digits and "_", starting with a letter, at most 40 characters; "to" is the recipient${suggestion}`,
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
  checkAmountsApart(id, ceilings, [subject?.parts, body.parts, htmlReading?.parts]);
  if (config.firstContact !== undefined && config.firstContact !== "hold" && config.firstContact !== "send")
    templateError(id, 'firstContact must be "hold", "send" or left out (the outbox\'s default)');
  if (config.recipient !== undefined && !recipientChoices.includes(config.recipient)) {
    templateError(
      id,
      `recipient must be ${recipientChoices.map((name) => `"${name}"`).join(" or ")} or left out: "model-chooses" declares that the model picks which record of "${config.to.collection}" receives the message; leave it out when the recipient is joined to the chosen records with match`,
    );
  }

  const written: Omit<Template, "version"> = {
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
    recipientChoice: config.recipient,
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
  if (config.locale === undefined) return markDefined(Object.freeze(versioned(written)));
  // The version hashes every locale's texts, known only once they are compiled; each variant carries it.
  const base = localiseTemplate(records as unknown as RecordsDefinition, config, versioned(written, ""));
  const version = templateVersion(base);
  const locales = base.locales as CompiledLocales;
  // The map localiseTemplate built, still its own: the variants are replaced by their versioned copies.
  const variants = locales.variants as Map<string, Template>;
  for (const [tag, variant] of variants) variants.set(tag, Object.freeze(merged(variant, { version })));
  return markDefined(variants.get(locales.default) as Template);
}

function versioned(template: Omit<Template, "version">, version = templateVersion(template)): Template {
  return merged(template, { version });
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
