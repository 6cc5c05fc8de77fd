import { fieldLabel, labelViolation } from "./labels.js";
import type { AnyRecord, RecordsDefinition, TicketView } from "./records.js";

/** Per collection, the fields an audience may not see. Empty when the audience may see everything. */
export type HiddenFields = ReadonlyMap<string, readonly string[]>;

/** The fields of each collection whose label keeps them from `audience`, computed once per template. */
export function hiddenFields(records: RecordsDefinition, audience: string): HiddenFields {
  const hidden = new Map<string, string[]>();
  for (const collection of records.names) {
    const shape = (records.collections[collection]?.shape ?? {}) as Record<string, unknown>;
    const fields = Object.keys(shape).filter(
      (field) => labelViolation(fieldLabel(shape[field]), audience) !== undefined,
    );
    if (fields.length > 0) hidden.set(collection, fields);
  }
  return hidden;
}

const redactedRecords = new WeakMap<AnyRecord, Map<string, AnyRecord>>();

/** The record without the fields `audience` may not see; cached per record and audience. */
export function redactRecord(record: AnyRecord, fields: readonly string[], audience: string): AnyRecord {
  let byAudience = redactedRecords.get(record);
  let copy = byAudience?.get(audience);
  if (copy !== undefined) return copy;
  const draft: Record<string, unknown> = { ...record };
  for (const field of fields) delete draft[field];
  copy = Object.freeze(draft) as AnyRecord;
  if (byAudience === undefined) {
    byAudience = new Map();
    redactedRecords.set(record, byAudience);
  }
  byAudience.set(audience, copy);
  return copy;
}

const redactedViews = new WeakMap<TicketView, Map<string, TicketView>>();

/**
 * A ticket's records as `audience` may see them. Derived slots compute shown values in code, so they
 * get this view: a derived slot cannot put a private or untrusted field in front of the wrong reader.
 */
export function redactView(view: TicketView, hidden: HiddenFields, audience: string): TicketView {
  if (hidden.size === 0) return view;
  let byAudience = redactedViews.get(view);
  let redacted = byAudience?.get(audience);
  if (redacted !== undefined) return redacted;
  const draft: Record<string, readonly AnyRecord[]> = { ...(view as Record<string, readonly AnyRecord[]>) };
  for (const [collection, fields] of hidden) {
    draft[collection] = (draft[collection] ?? []).map((record) => redactRecord(record, fields, audience));
  }
  redacted = Object.freeze(draft) as TicketView;
  if (byAudience === undefined) {
    byAudience = new Map();
    redactedViews.set(view, byAudience);
  }
  byAudience.set(audience, redacted);
  return redacted;
}
