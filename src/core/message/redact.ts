import type { AnyRecord, TicketView } from "../definition/define-records.js";
import type { LabelNode } from "../definition/label-tree.js";
import type { FieldLabel } from "../definition/labels.js";

/**
 * How to cut a value down to what one reader may see: "drop" removes it; a cut keeps the value and cuts
 * inside it; undefined keeps it whole. Built once per template from the records' label trees.
 */
export type Redaction = "drop" | Cut | undefined;

/** The cuts inside one value: per declared property, for undeclared properties, and for elements. */
export interface Cut {
  /** Declared properties (every one, so an undeclared name is never mistaken for one). */
  readonly fields: ReadonlyMap<string, Redaction>;
  /** Properties no shape declares: "drop" when the schema admits none, so none is kept unread. */
  readonly rest: Redaction;
  /** Elements and map/record values; "drop" empties the container. */
  readonly items: Redaction;
}

/** Which labels a reader may not see. */
export type Hides = (label: FieldLabel) => boolean;

/** The per-collection cuts of a records definition for one reader: collections that need none are absent. */
export type RedactionPlan = ReadonlyMap<string, Cut | "drop">;

/** The plan for a reader, from the label tree of each collection. */
export function redactionPlan(trees: ReadonlyMap<string, LabelNode>, hides: Hides): RedactionPlan {
  const plans = plansOf([...trees.values()], hides);
  const plan = new Map<string, Cut | "drop">();
  for (const [collection, tree] of trees) {
    const cut = plans.get(tree);
    if (cut !== undefined) plan.set(collection, cut);
  }
  return plan;
}

/**
 * The redaction of every place under `roots`, in time linear in the places: a place needs one when any place
 * it holds (itself included) has a label the reader may not see, or cannot be read. That is found once for
 * all places, backwards from the places that have such a label, rather than by a walk under each place,
 * which a recursive schema would make quadratic.
 */
function plansOf(roots: readonly LabelNode[], hides: Hides): Map<LabelNode, Redaction> {
  const holders = new Map<LabelNode, LabelNode[]>();
  const marked: LabelNode[] = [];
  const todo = [...roots];
  while (todo.length > 0) {
    const node = todo.pop() as LabelNode;
    if (holders.has(node)) continue;
    holders.set(node, []);
    if (node.opaque.length > 0 || node.own.some(hides)) marked.push(node);
    for (const child of inside(node)) todo.push(child);
  }
  for (const [node] of holders) for (const child of inside(node)) holders.get(child)?.push(node);
  const needsCut = new Set(marked);
  while (marked.length > 0) {
    for (const holder of holders.get(marked.pop() as LabelNode) ?? []) {
      if (needsCut.has(holder)) continue;
      needsCut.add(holder);
      marked.push(holder);
    }
  }
  const plans = new Map<LabelNode, Redaction>();
  const cuts: [LabelNode, { fields: Map<string, Redaction>; rest: Redaction; items: Redaction }][] = [];
  for (const [node] of holders) {
    if (!needsCut.has(node)) plans.set(node, undefined);
    else if (node.opaque.length > 0 || node.own.some(hides) || (node.keys && needsCut.has(node.keys))) {
      plans.set(node, "drop");
    } else {
      const cut = {
        fields: new Map<string, Redaction>(),
        rest: "drop" as Redaction,
        items: "drop" as Redaction,
      };
      plans.set(node, cut);
      cuts.push([node, cut]);
    }
  }
  // Filled once every place has its plan: a recursive schema's plan refers to itself.
  for (const [node, cut] of cuts) {
    for (const [name, child] of node.fields) cut.fields.set(name, plans.get(child));
    cut.rest = node.rest === undefined ? "drop" : plans.get(node.rest);
    cut.items = node.items === undefined ? "drop" : plans.get(node.items);
  }
  return plans;
}

/** The places directly inside a place: its properties, the rest, its elements and its keys. */
function inside(node: LabelNode): LabelNode[] {
  const children = [...node.fields.values()];
  if (node.rest !== undefined) children.push(node.rest);
  if (node.items !== undefined) children.push(node.items);
  if (node.keys !== undefined) children.push(node.keys);
  return children;
}

/** `value` as the reader may see it; undefined when the whole value is hidden. Frozen copies; inputs untouched. */
export function applyRedaction(value: unknown, redaction: Redaction): unknown {
  if (redaction === undefined) return value;
  if (redaction === "drop") return undefined;
  if (typeof value !== "object" || value === null || value instanceof Date) return value;
  if (Array.isArray(value)) return Object.freeze(cutList(value, redaction.items));
  if (value instanceof Map) {
    const copy = new Map<unknown, unknown>();
    if (redaction.items !== "drop")
      for (const [key, item] of value) copy.set(key, applyRedaction(item, redaction.items));
    return copy;
  }
  if (value instanceof Set) return new Set(cutList([...value], redaction.items));
  const copy: Record<string, unknown> = {};
  for (const name of Object.keys(value)) {
    // A declared property is cut by its own plan; any other name by the rest's, or by the elements' when
    // the place may also be a z.record — and dropped when nothing declares it.
    const plan = redaction.fields.has(name)
      ? redaction.fields.get(name)
      : redaction.rest !== "drop"
        ? redaction.rest
        : redaction.items;
    if (plan === "drop") continue;
    copy[name] = applyRedaction((value as Record<string, unknown>)[name], plan);
  }
  return Object.freeze(copy);
}

function cutList(values: readonly unknown[], items: Redaction): unknown[] {
  return items === "drop" ? [] : values.map((item) => applyRedaction(item, items));
}

const redactedRecords = new WeakMap<AnyRecord, Map<string, AnyRecord>>();

/**
 * The record as a reader may see it, cached per record and reader (`reader` names the plan). A record
 * whose whole collection is hidden keeps only its `id`, so code can still tell records apart.
 */
export function redactRecord(record: AnyRecord, cut: Cut | "drop", reader: string): AnyRecord {
  let byReader = redactedRecords.get(record);
  let copy = byReader?.get(reader);
  if (copy !== undefined) return copy;
  copy = (cut === "drop" ? Object.freeze({ id: record.id }) : applyRedaction(record, cut)) as AnyRecord;
  if (byReader === undefined) {
    byReader = new Map();
    redactedRecords.set(record, byReader);
  }
  byReader.set(reader, copy);
  return copy;
}

const redactedViews = new WeakMap<TicketView, Map<string, TicketView>>();

/**
 * A ticket's records as a reader may see them. Code that runs for a template (derived slots, `where`)
 * gets this view, so it cannot put a private or untrusted value, at any depth, in front of the wrong reader.
 */
export function redactView(view: TicketView, plan: RedactionPlan, reader: string): TicketView {
  if (plan.size === 0) return view;
  let byReader = redactedViews.get(view);
  let redacted = byReader?.get(reader);
  if (redacted !== undefined) return redacted;
  const draft: Record<string, readonly AnyRecord[]> = { ...(view as Record<string, readonly AnyRecord[]>) };
  for (const [collection, cut] of plan) {
    draft[collection] = Object.freeze(
      (draft[collection] ?? []).map((record) => redactRecord(record, cut, reader)),
    );
  }
  redacted = Object.freeze(draft) as TicketView;
  if (byReader === undefined) {
    byReader = new Map();
    redactedViews.set(view, byReader);
  }
  byReader.set(reader, redacted);
  return redacted;
}
