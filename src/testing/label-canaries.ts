import type { RecordsDefinition } from "../core/definition/define-records.js";
import type { LabelNode } from "../core/definition/label-tree.js";
import { type FieldLabel, labelViolation } from "../core/definition/labels.js";

/** A ticket whose labelled text carries canaries: unique words that may reach only readers of their labels. */
export interface CanaryTicket {
  readonly records: unknown;
  /** Each canary word and the labels on the place it was written to. */
  readonly canaries: ReadonlyMap<string, readonly FieldLabel[]>;
}

type Schema = { safeParse(value: unknown): { success: boolean } };

/**
 * A copy of the ticket with a canary written into every string under a label, at any depth (nested
 * objects, arrays, sets, records, maps), where the collection's schema still accepts it. A message that holds a
 * canary shows that place's value; a reader its labels keep it from must never get one.
 */
export function withLabelCanaries(records: RecordsDefinition, ticket: unknown, seed: number): CanaryTicket {
  const canaries = new Map<string, readonly FieldLabel[]>();
  const copy = structuredClone(ticket) as Record<string, unknown>;
  let counter = 0;
  const word = () => `QZ${seed.toString(36).toUpperCase()}K${(counter++).toString(36).toUpperCase()}LBL`;

  const mark = (value: unknown, node: LabelNode | undefined, inherited: readonly FieldLabel[]): unknown => {
    if (node === undefined) return value;
    const labels = node.own.length === 0 ? inherited : [...inherited, ...node.own];
    if (typeof value === "string") {
      if (labels.length === 0) return value;
      const canary = word();
      canaries.set(canary, labels);
      return canary;
    }
    if (Array.isArray(value)) return value.map((item) => mark(item, node.items, labels));
    if (value instanceof Set) return new Set([...value].map((item) => mark(item, node.items, labels)));
    if (value instanceof Map) {
      return new Map([...value].map(([key, item]) => [key, mark(item, node.items, labels)]));
    }
    // Dates and other class instances hold no labelled text of their own: kept as they are.
    if (typeof value !== "object" || value === null || Object.getPrototypeOf(value) !== Object.prototype)
      return value;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      out[key] = mark(item, node.fields.get(key) ?? node.rest ?? node.items, labels);
    }
    return out;
  };

  for (const [collection, rows] of Object.entries(copy)) {
    const tree = records.labelTrees.get(collection);
    const schema = (records.collections as Record<string, Schema | undefined>)[collection];
    if (tree === undefined || schema === undefined || !Array.isArray(rows)) continue;
    for (const row of rows) {
      if (typeof row !== "object" || row === null) continue;
      const fields = row as Record<string, unknown>;
      // One field at a time, kept only where the schema still accepts the record.
      for (const field of Object.keys(fields)) {
        if (field === "id") continue;
        const before = fields[field];
        const written = new Map(canaries);
        fields[field] = mark(before, tree.fields.get(field) ?? tree.rest, tree.own);
        if (!schema.safeParse(fields).success) {
          fields[field] = before;
          for (const canary of canaries.keys()) if (!written.has(canary)) canaries.delete(canary);
        }
      }
    }
  }
  return { records: copy, canaries };
}

/** The canaries in `text` whose labels keep them from `audience`, with the reason for the first. */
export function leakedCanaries(
  text: string,
  canaries: ReadonlyMap<string, readonly FieldLabel[]>,
  audience: string,
): string[] {
  const leaks: string[] = [];
  if (!text.includes("LBL")) return leaks;
  for (const [canary, labels] of canaries) {
    if (!text.includes(canary)) continue;
    for (const label of labels) {
      const violation = labelViolation(label, audience);
      if (violation !== undefined) {
        leaks.push(`a labelled value reached "${audience}", but ${violation}`);
        break;
      }
    }
  }
  return leaks;
}
