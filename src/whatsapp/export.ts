import { producedMessage, sampleOutcomes } from "../checklist/sample-proposals.js";
import type { Catalog } from "../core/decision/catalog.js";
import type { Message } from "../core/decision/decision.js";
import type { PreparedTicket } from "../core/decision/ticket.js";
import type { CollectionSchemas } from "../core/definition/define-records.js";
import type { Template } from "../core/definition/template-types.js";
import { parseApprovedText, variablesFor } from "../providers/approved-template.js";
import { type NumberedText, numberedText } from "./approved-text.js";
import { type WhatsappCategory, whatsappCategory } from "./category.js";

/** A BODY or HEADER component of Meta's message-template JSON. */
export type MetaComponent =
  | {
      readonly type: "HEADER";
      readonly format: "TEXT";
      readonly text: string;
      readonly example?: { readonly header_text: readonly string[] };
    }
  | {
      readonly type: "BODY";
      readonly text: string;
      readonly example?: { readonly body_text: readonly (readonly string[])[] };
    };

/** A template as Meta's `POST /<WABA-ID>/message_templates` takes it. */
export interface MetaTemplate {
  readonly name: string;
  readonly language: string;
  readonly category: WhatsappCategory;
  readonly components: readonly MetaComponent[];
}

/** A template as Twilio's Content API (`POST https://content.twilio.com/v1/Content`) takes it. */
export interface TwilioContent {
  readonly friendly_name: string;
  readonly language: string;
  readonly variables: Readonly<Record<string, string>>;
  readonly types: { readonly "twilio/text": { readonly body: string } };
}

/** One template in one locale, exported. */
export interface WhatsappExport {
  readonly template: string;
  /** The BCP 47 tag of its text ("en", "pt-BR"). */
  readonly locale: string;
  /** How the Twilio transport's `whatsapp` option keys it: the template id, or `"<id>:<locale>"`. */
  readonly key: string;
  readonly meta: MetaTemplate;
  /** The Content API JSON; undefined when the template has a header, which `twilio/text` has not. */
  readonly twilio: TwilioContent | undefined;
  /** The approved texts exactly as the Twilio transport's `whatsapp` option takes them, less the Content SID. */
  readonly approved: { readonly body: string; readonly header?: string };
  /** The template's tag behind each variable, `{{1}}` first. */
  readonly variables: readonly string[];
  /** Where the examples come from: a message decided on a sample ticket, or the tags' names. */
  readonly samples: "sample ticket" | "tag names";
}

/** A template (in a locale) that cannot be exported, and why. */
export interface WhatsappSkipped {
  readonly template: string;
  readonly locale: string;
  readonly reason: string;
}

/** Options of {@link exportWhatsapp}. */
export interface WhatsappExportOptions {
  /** Sample tickets' records: the examples are the values a message decided on them shows. */
  readonly samples?: readonly unknown[];
  /** The language of a template that declares no locales. @default "en" */
  readonly language?: string;
}

/**
 * Every WhatsApp-channel template of a catalog, in each of its locales, as the platform approves it:
 * Meta's message-template JSON and Twilio's Content API JSON, with the approved texts the Twilio
 * transport reads its variables back with. Never throws on a template it cannot export: it lists it.
 * `formletter export whatsapp` writes what it returns.
 */
export function exportWhatsapp<S extends CollectionSchemas>(
  typed: Catalog<S>,
  options: WhatsappExportOptions = {},
): { exported: WhatsappExport[]; skipped: WhatsappSkipped[] } {
  const catalog = typed as unknown as Catalog;
  const exported: WhatsappExport[] = [];
  const skipped: WhatsappSkipped[] = [];
  const tickets = preparedSamples(catalog, options.samples ?? []);
  for (const template of catalog.templates) {
    if (template.channel !== "whatsapp") continue;
    const variants: [string, Template][] =
      template.locales === undefined
        ? [[template.locale ?? options.language ?? "en", template]]
        : [...template.locales.variants];
    const numbered = variants.map(([locale, variant]) => [locale, variant, texts(variant)] as const);
    const category = whatsappCategory(
      template,
      numbered.flatMap(([, , text]) =>
        typeof text === "string" ? [] : [text.body.text, text.header?.text ?? ""],
      ),
    );
    const messages = sampleMessages(catalog, tickets, template);
    for (const [locale, variant, text] of numbered) {
      if (typeof text === "string") {
        skipped.push({ template: template.id, locale, reason: text });
        continue;
      }
      const key = template.locales === undefined ? template.id : `${template.id}:${locale}`;
      const sample = messages.get(template.locales === undefined ? "" : locale);
      exported.push(exportOne(variant, locale, key, category, text, sample));
    }
  }
  return { exported, skipped };
}

interface Texts {
  readonly body: NumberedText;
  readonly header: NumberedText | undefined;
}

/** A variant's header and body, numbered; the header has its own `{{1}}`, as Meta numbers it. */
function texts(variant: Template): Texts | string {
  const body = numberedText(variant.body);
  if (typeof body === "string") return body;
  if (variant.subject === undefined) return { body, header: undefined };
  const header = numberedText(variant.subject);
  if (typeof header === "string") return header;
  // Meta allows one variable in a text header.
  if (header.tags.length > 1)
    return `its subject (the WhatsApp header) has ${header.tags.length} values; WhatsApp allows one: keep one tag in the subject`;
  return { body, header };
}

function exportOne(
  variant: Template,
  locale: string,
  key: string,
  category: WhatsappCategory,
  text: Texts,
  sample: Message | undefined,
): WhatsappExport {
  const bodyValues = sampleValues(text.body, sample?.text);
  const headerValues = text.header === undefined ? undefined : sampleValues(text.header, sample?.subject);
  const fromSample = bodyValues !== undefined && (text.header === undefined || headerValues !== undefined);
  const body = fromSample ? bodyValues : text.body.tags.map(tagSample);
  const header =
    text.header === undefined ? [] : fromSample ? (headerValues ?? []) : text.header.tags.map(tagSample);
  const components: MetaComponent[] = [];
  if (text.header !== undefined)
    components.push({
      type: "HEADER",
      format: "TEXT",
      text: text.header.text,
      ...(header.length > 0 ? { example: { header_text: header } } : {}),
    });
  components.push({
    type: "BODY",
    text: text.body.text,
    ...(body.length > 0 ? { example: { body_text: [body] } } : {}),
  });
  const name = metaName(variant.id);
  return {
    template: variant.id,
    locale,
    key,
    meta: { name, language: metaLanguage(locale), category, components },
    twilio:
      text.header === undefined
        ? {
            friendly_name: key.replace(":", "_").replace(/-/g, "_").toLowerCase(),
            language: metaLanguage(locale),
            variables: Object.fromEntries(body.map((value, index) => [String(index + 1), value])),
            types: { "twilio/text": { body: text.body.text } },
          }
        : undefined,
    approved: { body: text.body.text, ...(text.header === undefined ? {} : { header: text.header.text }) },
    variables: text.body.tags,
    samples: fromSample ? "sample ticket" : "tag names",
  };
}

/**
 * The values of a message decided on a sample, read back from its text by the same function the Twilio
 * transport reads them with, so the examples are what would be sent.
 */
function sampleValues(text: NumberedText, rendered: string | undefined): string[] | undefined {
  if (rendered === undefined) return undefined;
  const approved = parseApprovedText(text.text);
  if (typeof approved === "string") return undefined;
  const values = variablesFor(approved, rendered);
  if (values === undefined) return undefined;
  return text.tags.map((_, index) => values.get(String(index + 1)) ?? "");
}

/** With no sample ticket, the tag's own name stands for its value ("order.placed" → "order placed"). */
function tagSample(tag: string): string {
  return tag.replace(/[._]+/g, " ");
}

/** Meta's names are lower-case letters, digits and underscores; a formletter id already is. */
function metaName(id: string): string {
  return id.toLowerCase().replace(/[^a-z0-9_]/g, "_");
}

/** Meta writes a region with an underscore: "pt-BR" → "pt_BR". */
function metaLanguage(locale: string): string {
  return locale.replace(/-/g, "_");
}

function preparedSamples(catalog: Catalog, samples: readonly unknown[]): PreparedTicket[] {
  const tickets: PreparedTicket[] = [];
  for (const sample of samples) {
    const prepared = catalog.prepare(sample);
    if (prepared.ok) tickets.push(prepared.ticket as PreparedTicket);
  }
  return tickets;
}

/** For each locale, the first message a proposal for the template produces on the samples. */
function sampleMessages(
  catalog: Catalog,
  tickets: readonly PreparedTicket[],
  template: Template,
): Map<string, Message> {
  const found = new Map<string, Message>();
  const wanted = template.locales?.tags.length ?? 1;
  for (const ticket of tickets) {
    for (const proposal of sampleOutcomes(catalog, ticket, template, 500).sending) {
      const produced = producedMessage(catalog.decide(proposal, ticket));
      if (produced === undefined) continue;
      const locale =
        template.locales === undefined ? "" : (produced.message.locale ?? template.locales.default);
      if (!found.has(locale)) found.set(locale, produced.message);
      if (found.size >= wanted) return found;
    }
  }
  return found;
}
