import { hash } from "node:crypto";
import type { Format } from "../message/format.js";
import { canonicalText } from "./canonical-text.js";
import type { CompiledSlot, Template } from "./template-types.js";

/**
 * Everything that decides a template's messages, part by part: what its content version hashes, and
 * what `formletter diff` names when a version changed. A part is plain data (functions as their source),
 * so two definitions that differ only in how they were written (key order, comments outside code) give
 * the same parts.
 */
export interface TemplateContent {
  readonly description: string;
  readonly texts: {
    readonly subject: string | undefined;
    readonly body: string;
    readonly html: string | undefined;
  };
  readonly audience: string;
  readonly channel: string;
  readonly effect: string;
  readonly approval: string | undefined;
  readonly limits: unknown;
  readonly ceilings: unknown;
  readonly firstContact: string | undefined;
  readonly maxSegments: number;
  readonly slots: unknown;
  readonly recipient: unknown;
  readonly locales: unknown;
}

/** The names of the parts, in the order a review lists them. */
export type ContentPart = keyof TemplateContent;

/** The content of a template, as plain data. `template` need not carry its version yet. */
export function templateContent(template: Omit<Template, "version">): TemplateContent {
  return {
    description: template.description,
    texts: template.source,
    audience: template.audience,
    channel: template.channel,
    effect: template.effect,
    approval: template.approval,
    limits: { perTicket: template.limits.perTicket, perDay: template.limits.perDay },
    ceilings: template.ceilings,
    firstContact: template.firstContact,
    maxSegments: template.maxSegments,
    slots: template.slots.map(slotContent),
    recipient: { choice: template.recipientChoice, slot: slotContent(template.recipient) },
    locales: localesContent(template),
  };
}

/** A stable hash of a template's content: its version, the same in every process. */
export function templateVersion(template: Omit<Template, "version">): string {
  return digest(canonicalText(templateContent(template)));
}

/** The catalog's version: a hash of its templates' versions in id order, and of its escalation codes. */
export function catalogVersionOf(
  templates: readonly Pick<Template, "id" | "version">[],
  escalationCodes: readonly string[],
): string {
  const versions = [...templates].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return digest(
    canonicalText([versions.map((template) => [template.id, template.version]), escalationCodes]),
  );
}

const versionShape = /^[0-9a-f]{16}$/;

/**
 * True for a string shaped as a template or catalog version (16 lower-case hex digits). Versions read
 * back from stored data (audit events, history lines) are checked with it, so an edited row cannot put
 * markup or an unbounded key into a report or a page.
 */
export function isContentVersion(value: unknown): value is string {
  return typeof value === "string" && versionShape.test(value);
}

/** A template version and a catalog version; either is absent when not known. */
export interface Versions {
  readonly templateVersion?: string;
  readonly catalogVersion?: string;
}

/**
 * The versions recorded in stored data (an audit event's `data`): own properties only, each kept only
 * when shaped as a version, so an edited row or an inherited property is never taken for one.
 */
export function recordedVersions(data: unknown): Versions {
  if (typeof data !== "object" || data === null) return {};
  const own = (name: string): unknown =>
    Object.hasOwn(data, name) ? (data as Record<string, unknown>)[name] : undefined;
  const templateVersion = own("templateVersion");
  const catalogVersion = own("catalogVersion");
  return Object.assign(
    {},
    isContentVersion(templateVersion) ? { templateVersion } : {},
    isContentVersion(catalogVersion) ? { catalogVersion } : {},
  );
}

function digest(text: string): string {
  return hash("sha256", text, "hex").slice(0, 16);
}

/** What a slot reads and shows, and who may read it: its fields with their formats and labels. */
export function slotContent(compiled: CompiledSlot): unknown {
  const slot = compiled.slot;
  return {
    name: compiled.name,
    kind: slot.kind,
    optional: slot.optional,
    description: "description" in slot ? slot.description : undefined,
    collection: slot.kind === "ref" ? slot.collection : undefined,
    where: slot.kind === "ref" ? slot.where : undefined,
    compute: slot.kind === "derived" ? slot.compute : undefined,
    choices: slot.kind === "choice" ? slot.choices : undefined,
    joins: compiled.joins,
    fields: compiled.fields.map((field) => ({
      tag: field.tag,
      field: field.field,
      format: formatContent(field.format),
      maxLength: field.maxLength,
      reads: field.reads,
      labels: field.labels,
    })),
  };
}

function formatContent(format: Format): unknown {
  // A format built by hand (not through `format.*`) has no spec: its functions' source stands for it.
  return format.spec ?? { kind: format.kind, multiline: format.multiline, apply: format.apply };
}

function localesContent(template: Omit<Template, "version">): unknown {
  const locales = template.locales;
  if (locales === undefined) return undefined;
  return {
    default: locales.default,
    from: locales.from.kind === "field" ? `${locales.from.slot}.${locales.from.field}` : locales.from.compute,
    texts: locales.tags.map((tag) => {
      const variant = locales.variants.get(tag);
      if (variant === undefined) return [tag];
      return [
        tag,
        { subject: variant.subject, body: variant.body, html: variant.html },
        variant.resolveOrder.map((compiled) => [
          compiled.slot.kind === "choice" ? compiled.slot.choices : undefined,
          compiled.fields.map((field) => formatContent(field.format)),
        ]),
      ];
    }),
  };
}
