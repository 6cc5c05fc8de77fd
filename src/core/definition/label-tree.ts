import { declaredLabels, type FieldLabel } from "./labels.js";
import { asList, leaves, type Schema, schemasInside, wrappers } from "./schema-parts.js";

/**
 * Where labels sit in a record: the shape of a collection's values, joined over every schema a value at
 * that place may have passed through (the branches of a union, both sides of an intersection or a pipe,
 * the inside of every wrapper). A value carries every label met on its way from the record's root: a
 * label on an object covers all of it, and a union with one labelled branch labels the place.
 */
export interface LabelNode {
  /** Labels on the value at this place as a whole. */
  readonly own: readonly FieldLabel[];
  /** Object properties by name. */
  readonly fields: ReadonlyMap<string, LabelNode>;
  /** Properties no shape declares (a `catchall`, a loose object): undefined when none can exist. */
  readonly rest: LabelNode | undefined;
  /** Elements of arrays, sets and tuples; values of records and maps. */
  readonly items: LabelNode | undefined;
  /** Keys of records and maps: data too, and labelled like it. */
  readonly keys: LabelNode | undefined;
  /** zod types the walk could not see into: a label there cannot be established, so nothing is assumed. */
  readonly opaque: readonly string[];
}

const structures = new Set(["object", "array", "set", "tuple", "record", "map"]);

/**
 * The label tree of a schema. Throws nothing: a schema the walk cannot read (not zod, or a zod type it does
 * not know) is recorded as opaque at its place, and callers treat opaque places as unreadable by anyone.
 */
export function labelTree(schema: unknown): LabelNode {
  return new Walk().node([schema]);
}

class Walk {
  private readonly ids = new Map<object, number>();
  private readonly nodes = new Map<string, LabelNode>();

  node(schemas: readonly unknown[]): LabelNode {
    const own: FieldLabel[] = [];
    const bases = new Set<Schema>();
    const opaque = new Set<string>();
    for (const schema of schemas) this.expand(schema, own, bases, opaque, new Set(), schemas);
    const key = [
      [...bases]
        .map((base) => this.id(base))
        .sort((a, b) => a - b)
        .join(","),
      own.map(labelKey).sort().join(","),
      [...opaque].sort().join(","),
    ].join("|");
    const known = this.nodes.get(key);
    if (known !== undefined) return known;
    // Registered before its children are built: a recursive schema (z.lazy) closes into a cycle here.
    const node = {
      own: uniqueLabels(own),
      fields: new Map<string, LabelNode>(),
      rest: undefined as LabelNode | undefined,
      items: undefined as LabelNode | undefined,
      keys: undefined as LabelNode | undefined,
      opaque: [...opaque],
    };
    this.nodes.set(key, node);
    this.children(node, [...bases]);
    return node;
  }

  private id(schema: object): number {
    let id = this.ids.get(schema);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(schema, id);
    }
    return id;
  }

  /** Collects the labels of `schema` and everything it wraps, down to the structures that hold values. */
  private expand(
    schema: unknown,
    own: FieldLabel[],
    bases: Set<Schema>,
    opaque: Set<string>,
    lazies: Set<unknown>,
    input: readonly unknown[],
  ): void {
    const def = (schema as Partial<Schema> | null | undefined)?._zod?.def;
    if (typeof def !== "object" || def === null) {
      opaque.add("a value that is not a zod schema");
      return;
    }
    own.push(...declaredLabels(schema));
    const type = String(def.type);
    // A value that may hold anything of `scope` anywhere in it, with no place of its own: every label under
    // `scope` is the value's. Code in the schema computes such a value from its input (a transform, a
    // codec, a catch, an overwrite).
    const computedFrom = (scope: readonly unknown[]) => {
      const inside = everyLabelIn(scope);
      own.push(...inside.labels);
      for (const what of inside.opaque) opaque.add(what);
    };
    if (type === "transform" || type === "catch") computedFrom(input);
    if (!leaves.has(type) && asList(def.checks).some(isOverwrite)) computedFrom([schema]);
    if (leaves.has(type)) return;
    if (structures.has(type)) {
      bases.add(schema as Schema);
      return;
    }
    const next = (inner: unknown, scope = input) => this.expand(inner, own, bases, opaque, lazies, scope);
    if (wrappers.includes(type) || type === "promise") {
      next(def.innerType);
      return;
    }
    switch (type) {
      case "pipe":
        // What the pipe's steps compute from comes out of the pipe's own input: its `in`, then its `out`.
        if (typeof def.transform === "function") computedFrom([schema]);
        next(def.in, [schema]);
        next(def.out, [schema]);
        return;
      case "union":
        for (const option of asList(def.options)) next(option);
        return;
      case "intersection":
        next(def.left);
        next(def.right);
        return;
      case "template_literal":
      case "function":
        // A string built from labelled parts, or a function taking or returning labelled values.
        computedFrom(schemasInside(def) ?? []);
        return;
      case "lazy": {
        if (lazies.has(schema)) return;
        lazies.add(schema);
        let inner: unknown;
        try {
          inner = (def.getter as () => unknown)();
        } catch {
          opaque.add("a z.lazy whose getter throws");
          return;
        }
        next(inner);
        return;
      }
      default:
        opaque.add(`zod type "${type}"`);
    }
  }

  private children(
    node: {
      fields: Map<string, LabelNode>;
      rest: LabelNode | undefined;
      items: LabelNode | undefined;
      keys: LabelNode | undefined;
    },
    bases: readonly Schema[],
  ): void {
    const objects = bases.filter((base) => base._zod.def.type === "object");
    // A property of the object may equally be a value of a z.record at the same place (an intersection with
    // one, a union branch that is one): it carries the record's value labels as well as its own.
    const recordValues = bases
      .filter((base) => base._zod.def.type === "record")
      .map((record) => record._zod.def.valueType);
    const fieldNames = new Set<string>();
    for (const object of objects) for (const name of Object.keys(shapeOf(object))) fieldNames.add(name);
    for (const name of fieldNames) {
      // A value that passed a union branch which does not declare `name` may still hold it via a catchall.
      const schemas = objects.flatMap((object) => {
        const shape = shapeOf(object);
        if (Object.hasOwn(shape, name)) return [shape[name]];
        const catchall = object._zod.def.catchall;
        return catchall === undefined ? [] : [catchall];
      });
      node.fields.set(name, this.node([...schemas, ...recordValues]));
    }
    const catchalls = objects.map((object) => object._zod.def.catchall).filter(holdsValues);
    if (catchalls.length > 0) node.rest = this.node([...catchalls, ...recordValues]);

    const items: unknown[] = [];
    const keys: unknown[] = [];
    for (const base of bases) {
      const def = base._zod.def;
      switch (def.type) {
        case "array":
          items.push(def.element);
          break;
        case "set":
          items.push(def.valueType);
          break;
        case "tuple":
          items.push(...asList(def.items));
          if (def.rest !== undefined && def.rest !== null) items.push(def.rest);
          break;
        case "record":
        case "map":
          keys.push(def.keyType);
          items.push(def.valueType);
          break;
      }
    }
    if (items.length > 0) node.items = this.node(items);
    if (keys.length > 0) node.keys = this.node(keys);
  }
}

/** An overwrite check (`.overwrite()`, and zod's own `.trim()`, `.toLowerCase()`…): it replaces the value. */
function isOverwrite(check: unknown): boolean {
  return (check as { _zod?: { def?: { check?: unknown } } } | null)?._zod?.def?.check === "overwrite";
}

/**
 * Every label declared anywhere in `schemas`, whatever its place, and the types that could not be read:
 * for a value that holds what these schemas hold without keeping them at places of their own.
 */
function everyLabelIn(schemas: readonly unknown[]): { labels: FieldLabel[]; opaque: string[] } {
  const labels: FieldLabel[] = [];
  const opaque: string[] = [];
  const seen = new Set<unknown>();
  const visit = (schema: unknown): void => {
    if (seen.has(schema)) return;
    seen.add(schema);
    const def = (schema as Partial<Schema> | null | undefined)?._zod?.def;
    if (typeof def !== "object" || def === null) {
      opaque.push("a value that is not a zod schema");
      return;
    }
    labels.push(...declaredLabels(schema));
    let inner: readonly unknown[] | undefined;
    try {
      inner = schemasInside(def);
    } catch {
      opaque.push("a z.lazy whose getter throws");
      return;
    }
    if (inner === undefined) {
      opaque.push(`zod type "${String(def.type)}"`);
      return;
    }
    for (const next of inner) visit(next);
  };
  for (const schema of schemas) visit(schema);
  return { labels, opaque };
}

function shapeOf(object: Schema): Readonly<Record<string, unknown>> {
  const shape = object._zod.def.shape;
  return typeof shape === "object" && shape !== null ? (shape as Record<string, unknown>) : {};
}

/** A catchall admits undeclared properties unless it is absent or `z.never()`. */
function holdsValues(catchall: unknown): boolean {
  if (catchall === undefined || catchall === null) return false;
  return (catchall as Partial<Schema>)._zod?.def?.type !== "never";
}

function labelKey(label: FieldLabel): string {
  return label.kind === "untrusted" ? `u:${label.author}` : `p:${[...label.roles].sort().join("+")}`;
}

function uniqueLabels(labels: readonly FieldLabel[]): readonly FieldLabel[] {
  const seen = new Map<string, FieldLabel>();
  for (const label of labels) seen.set(labelKey(label), label);
  return [...seen.values()];
}

/** One label found under a place, with the path to where it was declared (`"lines[].note"`). */
export interface PlacedLabel {
  readonly path: string;
  readonly label: FieldLabel;
}

/** What is under a place: every label anywhere in it, and every place whose label cannot be read. */
export interface LabelsWithin {
  readonly labels: readonly PlacedLabel[];
  readonly opaque: readonly { readonly path: string; readonly what: string }[];
}

/**
 * Every label on `node` and below it, with paths from `path`. Showing a value shows all of it, so all of
 * these apply; cycles (recursive schemas) are walked once.
 */
export function labelsWithin(node: LabelNode, path: string): LabelsWithin {
  const labels: PlacedLabel[] = [];
  const opaque: { path: string; what: string }[] = [];
  const seen = new Set<LabelNode>();
  const visit = (current: LabelNode, at: string) => {
    if (seen.has(current)) return;
    seen.add(current);
    for (const label of current.own) labels.push({ path: at, label });
    for (const what of current.opaque) opaque.push({ path: at, what });
    for (const [name, child] of current.fields) visit(child, `${at}.${name}`);
    if (current.rest !== undefined) visit(current.rest, `${at}.*`);
    if (current.items !== undefined) visit(current.items, `${at}[]`);
    if (current.keys !== undefined) visit(current.keys, `${at}{key}`);
  };
  visit(node, path);
  return { labels, opaque };
}
