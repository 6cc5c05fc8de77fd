import type { Catalog } from "../core/decision/catalog.js";
import type { Decision } from "../core/decision/decision.js";
import type { CollectionSchemas } from "../core/definition/define-records.js";
import type { Template } from "../core/definition/template-types.js";

/**
 * A copy of the ticket in which each localised template's locale field (`from: "<slot>.<field>"`) holds
 * one of its locales, or a regional form of one that falls back to it: so every locale's text is checked,
 * not only the sample's. Values the collection's schema refuses are left as they were; templates whose
 * locale comes from a function are checked in the locales the sample gives them.
 */
export function withLocaleVariation<S extends CollectionSchemas>(
  catalog: Catalog<S>,
  ticket: unknown,
  pick: <T>(items: readonly T[]) => T,
): unknown {
  const copy = structuredClone(ticket) as Record<string, unknown>;
  const schemas = catalog.records.collections as Record<
    string,
    { safeParse(value: unknown): { success: boolean } }
  >;
  for (const template of catalog.templates) {
    const locales = template.locales;
    if (locales === undefined || locales.from.kind !== "field") continue;
    const { slot: slotName, field } = locales.from;
    const slot = template.resolveOrder.find((compiled) => compiled.name === slotName)?.slot;
    if (slot?.kind !== "ref") continue;
    const rows = Object.hasOwn(copy, slot.collection) ? copy[slot.collection] : undefined;
    if (!Array.isArray(rows)) continue;
    const values = [...locales.tags, ...locales.tags.map((tag) => `${tag}-ZZ`)];
    for (const row of rows) {
      if (typeof row !== "object" || row === null) continue;
      const fields = row as Record<string, unknown>;
      const before = fields[field];
      fields[field] = pick(values);
      if (schemas[slot.collection]?.safeParse(fields).success !== true) fields[field] = before;
    }
  }
  return copy;
}

/** The template as written in the locale of a decision: what its message must be made of. */
export function writtenIn(template: Template, decision: Decision): Template {
  const used = decision.locale?.used;
  return used === undefined ? template : (template.locales?.variants.get(used) ?? template);
}
