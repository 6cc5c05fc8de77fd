import type { CollectionSchemas, RecordsDefinition } from "../core/definition/define-records.js";
import { parsePhone } from "../core/message/phone.js";
import { singular } from "./mask.js";

/**
 * Where a message's recipient is found in its ticket's records: the collection and field whose value is
 * the address (e-mail compared lower-cased, phone numbers as E.164), or undefined when no record holds it —
 * a message a template could not send, since recipients come only from records.
 */
export function recipientSource<S extends CollectionSchemas>(
  definition: RecordsDefinition<S>,
  ticket: Readonly<Record<string, unknown>>,
  to: string,
): string | undefined {
  const records = definition as unknown as RecordsDefinition;
  const wanted = addressForms(to);
  if (wanted.size === 0) return undefined;
  for (const collection of records.names) {
    const rows = ticket[collection];
    if (!Array.isArray(rows)) continue;
    const shape = (records.collections[collection]?.shape ?? {}) as Record<string, unknown>;
    for (const row of rows.slice(0, records.maxPerCollection)) {
      if (typeof row !== "object" || row === null) continue;
      for (const field of Object.keys(shape)) {
        const value = (row as Record<string, unknown>)[field];
        if (typeof value !== "string" || value.length > 320) continue;
        for (const form of addressForms(value)) {
          if (wanted.has(form)) return `${singular(collection)}.${field}`;
        }
      }
    }
  }
  return undefined;
}

function addressForms(value: string): Set<string> {
  const forms = new Set<string>();
  const trimmed = value.trim();
  if (trimmed === "") return forms;
  if (trimmed.includes("@")) {
    forms.add(`email:${trimmed.toLowerCase()}`);
    return forms;
  }
  if (/^\+?[\d\s().-]{7,24}$/.test(trimmed)) {
    const phone = parsePhone(trimmed, undefined);
    if (phone.ok) forms.add(`phone:${phone.e164}`);
    forms.add(`phone:${trimmed.replace(/[^\d+]/g, "")}`);
  }
  return forms;
}
