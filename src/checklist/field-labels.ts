import type { RecordsDefinition } from "../core/definition/define-records.js";
import { type LabelNode, labelsWithin, labelTree, type PlacedLabel } from "../core/definition/label-tree.js";
import { type FieldLabel, labelViolation } from "../core/definition/labels.js";
import { SchemaWalk } from "../core/definition/schema-walk.js";
import type { Template } from "../core/definition/template-types.js";

/** How a template uses a field: shows it, sends to it, formats a shown value with it, or joins on it. */
export type FieldUse = "shows" | "sends to" | "formats with" | "joins on";

/** One field a template reads, with every label on it as the records definition declares it now. */
export interface FieldRead {
  readonly slot: string;
  readonly use: FieldUse;
  readonly collection: string;
  readonly field: string;
  /** True when the field decides who receives the message: the address, its format's reads, the recipient's joins. */
  readonly decidesRecipient: boolean;
  readonly labels: readonly PlacedLabel[];
  /** Places under the field whose label cannot be read (a zod type the walk does not know). */
  readonly opaque: readonly string[];
}

/**
 * The label trees of a records definition, walked afresh from its schemas rather than taken from what was
 * computed when the records or templates were defined: a label added to a schema later, or a template
 * object that did not come from `defineTemplate`, is seen as it is now.
 */
export class FreshLabels {
  private readonly trees = new Map<string, LabelNode>();

  constructor(private readonly records: Pick<RecordsDefinition, "collections">) {}

  /** Every label on `collection.field` (the record's own and all under the field), and the unreadable places. */
  of(collection: string, field: string): { labels: PlacedLabel[]; opaque: string[] } {
    if (!Object.hasOwn(this.records.collections, collection)) {
      return { labels: [], opaque: [`${collection}: not a collection of the catalog's records`] };
    }
    let tree = this.trees.get(collection);
    if (tree === undefined) {
      const subject = `collection "${collection}"`;
      tree = labelTree(
        this.records.collections[collection],
        new SchemaWalk("buildChecklist"),
        subject,
        collection,
      );
      this.trees.set(collection, tree);
    }
    const own = tree.own.map((label) => ({ path: collection, label }));
    const node = tree.fields.get(field) ?? tree.rest;
    if (node === undefined) return { labels: own, opaque: [] };
    const within = labelsWithin(node, `${collection}.${field}`);
    return {
      labels: [...own, ...within.labels],
      opaque: [...tree.opaque, ...within.opaque.map(({ path, what }) => `${path}: ${what}`)],
    };
  }
}

/** Every record field `template` shows, sends to, formats with or joins on, in resolve order. */
export function fieldsRead(template: Template, labels: FreshLabels): FieldRead[] {
  const reads: FieldRead[] = [];
  const collectionOf = new Map<string, string>();
  for (const compiled of template.resolveOrder) {
    const { slot } = compiled;
    if (slot.kind !== "ref") continue;
    collectionOf.set(compiled.name, slot.collection);
    const isRecipient = compiled === template.recipient;
    const add = (use: FieldUse, collection: string, field: string) =>
      reads.push({
        slot: compiled.name,
        use,
        collection,
        field,
        decidesRecipient: isRecipient,
        ...labels.of(collection, field),
      });
    for (const shown of compiled.fields) {
      add(isRecipient ? "sends to" : "shows", slot.collection, shown.field);
      for (const read of shown.reads) add("formats with", slot.collection, read);
    }
    for (const join of compiled.joins) {
      add("joins on", slot.collection, join.field);
      const other = collectionOf.get(join.slot);
      if (other !== undefined) add("joins on", other, join.otherField);
    }
  }
  return reads;
}

/** A label in words: "untrusted, written by buyer", "private to buyer, support". */
export function labelText(label: FieldLabel): string {
  return label.kind === "untrusted"
    ? `untrusted, written by ${label.author}`
    : `private to ${label.roles.join(", ") || "no one"}`;
}

/** What is wrong with `read` for `audience`: a label it may not see, or a label that cannot be read. */
export function labelProblems(read: FieldRead, audience: string): string[] {
  const problems: string[] = [];
  for (const { path, label } of read.labels) {
    const violation = labelViolation(label, audience);
    if (violation !== undefined)
      problems.push(`${read.use} ${read.collection}.${read.field}: ${path} ${violation}`);
  }
  for (const place of read.opaque) {
    problems.push(`${read.use} ${read.collection}.${read.field}: the label of ${place} cannot be read`);
  }
  return problems;
}
