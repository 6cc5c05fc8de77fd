import { declaredLabels, type FieldLabel } from "./labels.js";
import type { PartRole, SchemaRead } from "./schema-parts.js";
import { SchemaWalk } from "./schema-walk.js";

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
 * The label tree of a schema, walked with `walk` (a new one unless given: `defineRecords` passes the walk
 * that read its collections). Throws nothing but the walk's `DefinitionError` for a schema past its bounds:
 * a schema the walk cannot read (not zod, or a zod type it does not know) is recorded as opaque at its place,
 * and callers treat opaque places as unreadable by anyone.
 */
export function labelTree(
  schema: unknown,
  walk = new SchemaWalk("labelTree"),
  subject = "the schema",
  path = "record",
): LabelNode {
  walk.read(schema, subject, path);
  return new Walk(walk, subject).node([schema], path, 0);
}

/** What one place is made of, while its node is built: the labels, the structures and the unreadable types. */
interface Place {
  readonly own: FieldLabel[];
  readonly bases: Set<unknown>;
  readonly opaque: Set<string>;
  /** Schemas expanded for this place in its own input's scope, and in each pipe's. */
  readonly seen: Set<unknown>;
  seenIn: Map<unknown, Set<unknown>> | undefined;
  readonly input: readonly unknown[];
  readonly path: string;
}

interface Shape {
  readonly fields: ReadonlyMap<string, unknown>;
  readonly catchall: readonly unknown[];
}

class Walk {
  private readonly ids = new Map<unknown, number>();
  private readonly nodes = new Map<string, LabelNode>();
  private readonly shapes = new Map<SchemaRead, Shape>();

  constructor(
    private readonly walk: SchemaWalk,
    private readonly subject: string,
  ) {}

  node(schemas: readonly unknown[], path: string, depth: number): LabelNode {
    this.walk.spend(this.subject, depth, path);
    const place: Place = {
      own: [],
      bases: new Set(),
      opaque: new Set(),
      seen: new Set(),
      seenIn: undefined,
      input: schemas,
      path,
    };
    for (const schema of schemas) this.expand(place, schema, undefined, depth);
    const { own, bases, opaque } = place;
    this.walk.spend(this.subject, depth, path, bases.size + own.length);
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
    // Registered before its children are built: a recursive schema closes into a cycle here.
    const node = {
      own: uniqueLabels(own),
      fields: new Map<string, LabelNode>(),
      rest: undefined as LabelNode | undefined,
      items: undefined as LabelNode | undefined,
      keys: undefined as LabelNode | undefined,
      opaque: [...opaque],
    };
    this.nodes.set(key, node);
    this.children(node, [...bases], path, depth + 1);
    return node;
  }

  private id(schema: unknown): number {
    let id = this.ids.get(schema);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(schema, id);
    }
    return id;
  }

  /**
   * Collects the labels of `schema` and everything it wraps, down to the structures that hold values.
   * `scope` is the pipe whose steps compute from its input, or undefined for the place's own input.
   */
  private expand(place: Place, schema: unknown, scope: unknown, depth: number): void {
    let seen = place.seen;
    if (scope !== undefined) {
      place.seenIn ??= new Map();
      seen = place.seenIn.get(scope) ?? new Set();
      place.seenIn.set(scope, seen);
    }
    if (seen.has(schema)) return;
    seen.add(schema);
    this.walk.spend(this.subject, depth, place.path);
    const read = this.walk.get(schema);
    const { type } = read;
    place.own.push(...declaredLabels(schema));
    if (read.problem !== undefined) place.opaque.add(read.problem);
    if (type === "transform" || type === "catch")
      this.computedFrom(place, scope === undefined ? place.input : [scope], depth);
    if (read.overwrites) this.computedFrom(place, [schema], depth);
    if (structures.has(type)) {
      place.bases.add(schema);
      return;
    }
    switch (type) {
      case "pipe":
        // What the pipe's steps compute from comes out of the pipe's own input: its `in`, then its `out`.
        if (read.converts) this.computedFrom(place, [schema], depth);
        for (const part of read.parts) this.expand(place, part.schema, schema, depth + 1);
        return;
      case "template_literal":
      case "function":
        // A string built from labelled parts, or a function taking or returning labelled values.
        this.computedFrom(
          place,
          read.parts.map((part) => part.schema),
          depth,
        );
        return;
      default:
        // Wrappers, a z.lazy's schema, a union's options, an intersection's sides: the value passed them all.
        for (const part of read.parts) this.expand(place, part.schema, scope, depth + 1);
    }
  }

  /**
   * A value that may hold anything of `from` anywhere in it, with no place of its own: every label under
   * `from` is the value's. Code in the schema computes such a value from its input (a transform, a codec,
   * a catch, an overwrite).
   */
  private computedFrom(place: Place, from: readonly unknown[], depth: number): void {
    const inside = this.everyLabelIn(from, place.path, depth);
    place.own.push(...inside.labels);
    for (const what of inside.opaque) place.opaque.add(what);
  }

  private children(
    node: {
      fields: Map<string, LabelNode>;
      rest: LabelNode | undefined;
      items: LabelNode | undefined;
      keys: LabelNode | undefined;
    },
    bases: readonly unknown[],
    path: string,
    depth: number,
  ): void {
    const shapes: Shape[] = [];
    // A property of the object may equally be a value of a z.record at the same place (an intersection with
    // one, a union branch that is one): it carries the record's value labels as well as its own.
    const recordValues: unknown[] = [];
    const items: unknown[] = [];
    const keys: unknown[] = [];
    for (const base of bases) {
      const read = this.walk.get(base);
      if (read.type === "object") shapes.push(this.shapeOf(read));
      else {
        for (const part of read.parts) {
          if (part.role === "key") keys.push(part.schema);
          if (part.role !== "item") continue;
          items.push(part.schema);
          if (read.type === "record") recordValues.push(part.schema);
        }
      }
    }
    const byName = new Map<string, unknown[]>();
    for (const shape of shapes) {
      this.walk.spend(this.subject, depth, path, shape.fields.size);
      for (const [name, schema] of shape.fields) {
        const schemas = byName.get(name);
        if (schemas === undefined) byName.set(name, [schema]);
        else schemas.push(schema);
      }
    }
    // A value that passed a union branch which does not declare a property may still hold it via a catchall.
    const open = shapes.filter((shape) => shape.catchall.length > 0);
    for (const [name, schemas] of byName) {
      this.walk.spend(this.subject, depth, path, open.length);
      for (const shape of open) if (!shape.fields.has(name)) schemas.push(...shape.catchall);
      node.fields.set(name, this.node([...schemas, ...recordValues], `${path}.${name}`, depth));
    }
    const catchalls = shapes
      .flatMap((shape) => shape.catchall)
      .filter((catchall) => this.holdsValues(catchall));
    if (catchalls.length > 0) node.rest = this.node([...catchalls, ...recordValues], `${path}.*`, depth);
    if (items.length > 0) node.items = this.node(items, `${path}[]`, depth);
    if (keys.length > 0) node.keys = this.node(keys, `${path}{key}`, depth);
  }

  /**
   * Every label declared anywhere in `schemas`, whatever its place, and the types that could not be read:
   * for a value that holds what these schemas hold without keeping them at places of their own.
   */
  private everyLabelIn(
    schemas: readonly unknown[],
    path: string,
    depth: number,
  ): { labels: FieldLabel[]; opaque: string[] } {
    const labels: FieldLabel[] = [];
    const opaque: string[] = [];
    const seen = new Set<unknown>();
    const todo = [...schemas];
    while (todo.length > 0) {
      const schema = todo.pop();
      if (seen.has(schema)) continue;
      seen.add(schema);
      this.walk.spend(this.subject, depth, path);
      const read = this.walk.get(schema);
      labels.push(...declaredLabels(schema));
      if (read.problem !== undefined) opaque.push(read.problem);
      for (const part of read.parts) todo.push(part.schema);
    }
    return { labels, opaque };
  }

  /** An object's properties by name and its catchall, built once per object however many places it is at. */
  private shapeOf(object: SchemaRead): Shape {
    let shape = this.shapes.get(object);
    if (shape === undefined) {
      const fields = new Map<string, unknown>();
      for (const part of object.parts)
        if (part.role === "field") fields.set(part.name as string, part.schema);
      shape = { fields, catchall: partsIn(object, "rest") };
      this.shapes.set(object, shape);
    }
    return shape;
  }

  /** A catchall admits undeclared properties unless it is `z.never()`. */
  private holdsValues(catchall: unknown): boolean {
    return this.walk.get(catchall).type !== "never";
  }
}

function partsIn(read: SchemaRead, role: PartRole): unknown[] {
  return read.parts.flatMap((part) => (part.role === role ? [part.schema] : []));
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
  // Depth-first in the order of a recursive walk (the first path to a place names it), without recursion.
  const todo: [LabelNode, string][] = [[node, path]];
  while (todo.length > 0) {
    const [current, at] = todo.pop() as [LabelNode, string];
    if (seen.has(current)) continue;
    seen.add(current);
    for (const label of current.own) labels.push({ path: at, label });
    for (const what of current.opaque) opaque.push({ path: at, what });
    const next: [LabelNode, string][] = [];
    for (const [name, child] of current.fields) next.push([child, `${at}.${name}`]);
    if (current.rest !== undefined) next.push([current.rest, `${at}.*`]);
    if (current.items !== undefined) next.push([current.items, `${at}[]`]);
    if (current.keys !== undefined) next.push([current.keys, `${at}{key}`]);
    for (let index = next.length - 1; index >= 0; index--) todo.push(next[index] as [LabelNode, string]);
  }
  return { labels, opaque };
}
