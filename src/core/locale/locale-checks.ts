import type { Locale as DateLocale } from "date-fns";
import { checkAmountsApart } from "../definition/amount-neighbours.js";
import type { RecordsDefinition } from "../definition/define-records.js";
import { checkHtml } from "../definition/html-template.js";
import { checkReadable } from "../definition/label-checks.js";
import type { ChoiceSlot, SlotContext } from "../definition/slots.js";
import { checkChannel, checkTags } from "../definition/template-checks.js";
import type {
  CompiledLocales,
  CompiledSlot,
  LocaleTexts,
  Template,
  TemplateConfig,
  TemplateLocaleConfig,
} from "../definition/template-types.js";
import { BodyError, compileBody, type Part } from "../definition/text-parts.js";
import { merged } from "../merged.js";
import { canonicalTag } from "./locale.js";
import { localeError as fail, inLocale } from "./locale-errors.js";
import { dateLocales, formatLocale, formatOverrides, localFields } from "./locale-formats.js";

/**
 * The definition-time side of locales: each locale's text is compiled and held to the default's
 * shape (the same slots and sections in every part, every choice label, the channel's rules), and each
 * locale gets its formats. Every failure throws a `DefinitionError` naming template, locale and slot.
 */

type Compiled = ReturnType<typeof compileBody>;
type Parts = { subject: Compiled | undefined; body: Compiled; html: Compiled | undefined };
const partNames = ["subject", "body", "html"] as const;

/**
 * The template as the catalog holds it when `config.locale` is set: written in its default locale, with
 * a variant per locale for decide() to render. `written` is the template as checked without locales.
 */
export function localiseTemplate(
  records: RecordsDefinition,
  config: TemplateConfig,
  written: Template,
): Template {
  const { id } = written;
  const spec = config.locale as TemplateLocaleConfig;
  if (typeof spec !== "object" || spec === null) {
    fail(id, undefined, 'locale must be an object: { default: "en", from: "to.locale", texts: { de: {…} } }');
  }
  const defaultTag = checkTag(id, spec.default, "locale.default");
  const missing = spec.missing ?? "error";
  if (missing !== "error" && missing !== "default") {
    fail(id, undefined, 'locale.missing must be "error" or "default"');
  }
  const from = sourceOf(records, id, written, spec.from);
  const dates = dateLocales(id, spec.dates);
  const texts = typeof spec.texts === "object" && spec.texts !== null ? spec.texts : undefined;
  if (texts === undefined) fail(id, undefined, "locale.texts must be an object of texts by BCP 47 tag");

  const defaultParts: Parts = {
    subject:
      written.source.subject === undefined
        ? undefined
        : compileText(id, defaultTag, written.source.subject, "subject"),
    body: compileText(id, defaultTag, written.source.body, "body"),
    html:
      written.source.html === undefined
        ? undefined
        : compileText(id, defaultTag, written.source.html, "html"),
  };
  const variants = new Map<string, Template>();
  const locales: CompiledLocales = {
    default: defaultTag,
    tags: [defaultTag],
    variants,
    from,
    cache: new Map(),
  };
  const base = variantOf(id, defaultTag, written, config, defaultParts, undefined, dates, locales);
  variants.set(defaultTag, base);
  for (const key of Object.keys(texts)) {
    const tag = checkTag(id, key, `locale.texts["${key}"]`);
    if (tag === defaultTag) {
      fail(
        id,
        tag,
        "is the default locale, whose text is the template's own subject, body and html; remove it from locale.texts",
      );
    }
    const given = texts[key] as LocaleTexts;
    if (typeof given !== "object" || given === null)
      fail(id, tag, "texts must be an object: { subject, body, html, choices }");
    const parts = partsOf(id, tag, written, given, missing, defaultParts);
    variants.set(tag, variantOf(id, tag, written, config, parts, given, dates, undefined, missing));
    (locales.tags as string[]).push(tag);
  }
  Object.freeze(locales.tags);
  return base;
}

/** A locale's parts: its own where given, else the default's when `missing` allows, else an error. */
function partsOf(
  id: string,
  tag: string,
  written: Template,
  given: LocaleTexts,
  missing: "error" | "default",
  defaults: Parts,
): Parts {
  const out: Partial<Parts> = {};
  for (const part of partNames) {
    const text = given[part];
    const inDefault = written.source[part] !== undefined;
    if (text === undefined) {
      if (!inDefault) continue;
      if (missing === "error") {
        fail(
          id,
          tag,
          `has no ${part}, which the default has; translate it, or set locale.missing: "default" to send the default's`,
        );
      }
      out[part] = defaults[part] as Compiled;
      continue;
    }
    if (!inDefault)
      fail(id, tag, `has a ${part}, which the default does not; every locale has the same parts`);
    out[part] = compileText(id, tag, text, part);
    sameTags(id, tag, part, defaults[part] as Compiled, out[part] as Compiled);
  }
  return out as Parts;
}

/** One locale's template: its texts, choice labels and formats; everything else shared with `written`. */
function variantOf(
  id: string,
  tag: string,
  written: Template,
  config: TemplateConfig,
  parts: Parts,
  given: LocaleTexts | undefined,
  dates: ReadonlyMap<string, DateLocale>,
  locales: CompiledLocales | undefined,
  missing: "error" | "default" = "error",
): Template {
  const target = formatLocale(tag, dates);
  const overrides = formatOverrides(id, tag, written, given?.formats);
  checkChoiceNames(id, tag, written, given?.choices);
  const resolveOrder = written.resolveOrder.map((compiled) =>
    compiled.slot.kind === "choice"
      ? localChoice(id, tag, compiled, compiled.slot, given, missing)
      : localFields(id, tag, compiled, target, overrides),
  );
  const slots = resolveOrder.slice(0, -1);
  const recipient = resolveOrder.at(-1) as CompiledSlot;
  const html = inLocale(id, tag, () => {
    checkTags(id, resolveOrder, [parts.subject, parts.body, parts.html]);
    checkChannel(id, config, slots, parts, written.maxSegments);
    const reading = parts.html === undefined ? undefined : checkHtml(id, parts.html.parts);
    checkAmountsApart(id, written.ceilings, [parts.subject?.parts, parts.body.parts, reading?.parts]);
    return reading;
  });
  return Object.freeze(
    merged(written, {
      slots,
      recipient,
      resolveOrder,
      subject: parts.subject?.parts,
      body: parts.body.parts,
      html: parts.html?.parts,
      htmlText: html?.parts,
      literal: [parts.subject?.literal, parts.body.literal, html?.literal]
        .filter((x) => x !== undefined)
        .join("\n"),
      locale: tag,
      locales,
    }),
  );
}

function localChoice(
  id: string,
  tag: string,
  compiled: CompiledSlot,
  slot: ChoiceSlot,
  given: LocaleTexts | undefined,
  missing: "error" | "default",
): CompiledSlot {
  if (given === undefined) return compiled;
  const labels = given.choices?.[compiled.name];
  const translated: Record<string, string> = {};
  for (const key of compiled.keys.keys()) {
    const label = labels !== undefined && Object.hasOwn(labels, key) ? labels[key] : undefined;
    if (label === undefined) {
      if (missing === "error") {
        fail(
          id,
          tag,
          `has no label for choice "${key}"; add choices.${compiled.name}.${key}, or set locale.missing: "default"`,
          compiled.name,
        );
      }
      translated[key] = slot.choices[key] as string;
      continue;
    }
    if (typeof label !== "string" || label.trim() === "" || /[\r\n]/.test(label)) {
      fail(id, tag, `choice "${key}" needs a non-empty, single-line label`, compiled.name);
    }
    translated[key] = label;
  }
  for (const key of Object.keys(labels ?? {})) {
    if (!compiled.keys.has(key)) {
      fail(
        id,
        tag,
        `labels choice "${key}", which is not a key of the slot; keys: ${[...compiled.keys.keys()].join(", ")}`,
        compiled.name,
      );
    }
  }
  return merged(compiled, { slot: merged(slot, { choices: Object.freeze(translated) }) });
}

function checkChoiceNames(
  id: string,
  tag: string,
  written: Template,
  choices: LocaleTexts["choices"] | undefined,
): void {
  if (choices === undefined) return;
  if (typeof choices !== "object" || choices === null)
    fail(id, tag, "choices must be an object of labels by slot");
  for (const name of Object.keys(choices)) {
    const slot = written.slots.find((compiled) => compiled.name === name);
    if (slot?.slot.kind !== "choice") {
      fail(id, tag, `choices.${name} names no choice slot of the template`, name);
    }
  }
}

/** Each part of a locale uses exactly the value tags and sections of the same part in the default. */
function sameTags(id: string, tag: string, part: string, reference: Compiled, translated: Compiled): void {
  const expected = tagsOf(reference.parts);
  const actual = tagsOf(translated.parts);
  for (const used of actual) {
    if (!expected.has(used)) {
      fail(
        id,
        tag,
        `its ${part} uses ${used}, which the default ${part} does not; every locale shows the same slots and sections`,
        slotOf(used),
      );
    }
  }
  for (const used of expected) {
    if (!actual.has(used)) {
      fail(
        id,
        tag,
        `its ${part} leaves out ${used}, which the default ${part} has; every locale shows the same slots and sections`,
        slotOf(used),
      );
    }
  }
}

function tagsOf(parts: readonly Part[], into = new Set<string>()): Set<string> {
  for (const part of parts) {
    if (part.type === "value") into.add(`{{${part.tag}}}`);
    if (part.type === "section") {
      into.add(`{{${part.inverted ? "^" : "#"}${part.tag}}}`);
      tagsOf(part.parts, into);
    }
  }
  return into;
}

const slotOf = (used: string): string => used.replace(/^\{\{[#^]?/, "").split(/[.}]/)[0] ?? used;

function sourceOf(
  records: RecordsDefinition,
  id: string,
  written: Template,
  from: unknown,
): CompiledLocales["from"] {
  if (typeof from === "function") return { kind: "code", compute: from as (context: SlotContext) => unknown };
  const [slotName = "", field = "", ...rest] = typeof from === "string" ? from.split(".") : [];
  const compiled = written.resolveOrder.find((candidate) => candidate.name === slotName);
  if (compiled?.slot.kind !== "ref" || field === "" || rest.length > 0) {
    fail(
      id,
      undefined,
      `locale.from must be "<ref slot>.<field>" (e.g. "to.locale", a field of the recipient's record) or a function of the records; "${String(from)}" is not`,
    );
  }
  const { collection } = compiled.slot;
  const shape = records.collections[collection]?.shape as Record<string, unknown>;
  if (!Object.hasOwn(shape, field)) {
    fail(
      id,
      undefined,
      `locale.from names "${field}", which is not a field of "${collection}"; fields: ${Object.keys(shape).join(", ")}`,
    );
  }
  // The language a message is written in tells its reader something of the field: it is read like a shown one.
  checkReadable(id, slotName, records, written.audience, collection, field, "picks the language by");
  return { kind: "field", slot: slotName, field };
}

function checkTag(id: string, value: unknown, where: string): string {
  const tag = canonicalTag(value);
  if (tag === undefined) {
    fail(
      id,
      undefined,
      `${where}: ${JSON.stringify(String(value).slice(0, 70))} is not a BCP 47 language tag such as "de" or "pt-BR"`,
    );
  }
  if (tag !== value) fail(id, undefined, `${where}: write the tag "${String(value)}" as "${tag}"`);
  return tag;
}

function compileText(id: string, tag: string, source: unknown, part: string): Compiled {
  if (typeof source !== "string" || source.trim() === "") fail(id, tag, `${part} must be a non-empty string`);
  try {
    return compileBody(source, part);
  } catch (error) {
    if (error instanceof BodyError) fail(id, tag, error.message);
    throw error;
  }
}
