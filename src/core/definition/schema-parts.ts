/**
 * What a zod 4 schema holds: the schemas inside it, each with its role, read once. This is the one place
 * that runs code of the schema while reading it (an object's property getters, a z.lazy's getter), so it
 * is the one place that decides how that code is called: through zod's own caches, which give the same
 * inner schema on every read, and never in a way that can throw out of a walk.
 */

type Def = Readonly<Record<string, unknown>> & { readonly type?: unknown };
type Schema = { readonly _zod: { readonly def: Def } };

// Types whose values hold no other schema's values: their own labels are all there is.
const leaves = new Set([
  "string",
  "number",
  "int",
  "boolean",
  "bigint",
  "symbol",
  "null",
  "undefined",
  "void",
  "never",
  "any",
  "unknown",
  "date",
  "enum",
  "literal",
  "file",
  "nan",
  "custom",
  "transform",
]);
const wrappers = [
  "optional",
  "nullable",
  "default",
  "prefault",
  "catch",
  "readonly",
  "nonoptional",
  "success",
];

/**
 * How a part sits in its schema: a property (`field`, with its name) or the properties no shape declares
 * (`rest`); elements and values (`item`) and keys (`key`) of containers; the schema a wrapper or a z.lazy
 * stands for (`inner`); a pipe's `in` and `out`; a union's `option`; an intersection's `side`; a template
 * literal's part or a function's arguments and result (`computed`).
 */
export type PartRole =
  | "field"
  | "rest"
  | "item"
  | "key"
  | "inner"
  | "in"
  | "out"
  | "option"
  | "side"
  | "computed";

export interface Part {
  readonly role: PartRole;
  readonly schema: unknown;
  /** The property's name, for a `field`. */
  readonly name?: string;
}

/** One schema as read: its zod type, what it holds, and what could not be read. */
export interface SchemaRead {
  /** The zod type (`def.type`); "" for a value that is not a zod schema. */
  readonly type: string;
  readonly parts: readonly Part[];
  /** Why some or all of its parts cannot be read (a getter that throws, a type not known); undefined when all could. */
  readonly problem: string | undefined;
  /** A check of it replaces the value (`.overwrite()`, `.trim()`…): code computes what passes. */
  readonly overwrites: boolean;
  /** A pipe with a function of its own (a codec): code computes its output from its input. */
  readonly converts: boolean;
  /** An object's shape as declared, before zod froze it: its getters show the parts code builds on reading. */
  readonly declared: object | undefined;
}

/** The definition of a zod schema; undefined for anything else, also a value whose reading throws. */
export function defOf(schema: unknown): Def | undefined {
  try {
    const def = (schema as Partial<Schema> | null | undefined)?._zod?.def;
    return typeof def === "object" && def !== null ? def : undefined;
  } catch {
    return undefined;
  }
}

/** The schema's parts, read once. Throws nothing: whatever cannot be read is named in `problem`. */
export function readSchema(schema: unknown): SchemaRead {
  const def = defOf(schema);
  if (def === undefined) return unreadable("a value that is not a zod schema");
  try {
    return readDef(schema, def);
  } catch {
    return unreadable("a zod schema whose definition cannot be read");
  }
}

function readDef(schema: unknown, def: Def): SchemaRead {
  const type = String(def.type);
  const read = (parts: readonly Part[], problem?: string, declared?: object): SchemaRead => ({
    type,
    parts,
    problem,
    overwrites: !leaves.has(type) && asList(def.checks).some(isOverwrite),
    converts: type === "pipe" && typeof def.transform === "function",
    declared,
  });
  const all = (role: PartRole, schemas: readonly unknown[]) =>
    schemas.map((inner) => ({ role, schema: inner }));
  if (leaves.has(type)) return read([]);
  if (wrappers.includes(type) || type === "promise") return read(all("inner", [def.innerType]));
  switch (type) {
    case "object":
      return readObject(def, read);
    case "array":
      return read(all("item", [def.element]));
    case "set":
      return read(all("item", [def.valueType]));
    case "tuple":
      return read(all("item", [...asList(def.items), ...present(def.rest)]));
    case "record":
    case "map":
      return read([...all("key", [def.keyType]), ...all("item", [def.valueType])]);
    case "pipe":
      return read([...all("in", [def.in]), ...all("out", [def.out])]);
    case "union":
      return read(all("option", asList(def.options)));
    case "intersection":
      return read(all("side", [def.left, def.right]));
    case "lazy": {
      const inner = lazyInner(schema, def);
      return inner.ok ? read(all("inner", [inner.schema])) : read([], inner.problem);
    }
    case "template_literal":
      // Literal parts (strings, numbers…) sit next to schemas here; only the schemas can be labelled.
      return read(
        all(
          "computed",
          asList(def.parts).filter((part) => typeof part === "object" && part !== null),
        ),
      );
    case "function":
      return read(all("computed", [...present(def.input), ...present(def.output)]));
    default:
      return read([], `zod type "${type}"`);
  }
}

/**
 * An object's properties. zod reads a shape whole on first use and keeps that copy, so each property getter
 * runs once per object; that copy is read here. A shape whose getters throw (a schema not built yet) is
 * read property by property without keeping anything, so a later read still sees the schema when it exists.
 */
function readObject(
  def: Def,
  read: (parts: readonly Part[], problem?: string, declared?: object) => SchemaRead,
): SchemaRead {
  const accessor = Object.getOwnPropertyDescriptor(def, "shape")?.get as { raw?: unknown } | undefined;
  const raw = accessor?.raw;
  const declared = typeof raw === "object" && raw !== null ? raw : undefined;
  const rest = def.catchall === undefined ? [] : [{ role: "rest" as const, schema: def.catchall }];
  let shape: unknown;
  try {
    shape = def.shape;
  } catch {
    const parts: Part[] = [];
    const properties = (declared ?? {}) as Record<string, unknown>;
    for (const name of Object.keys(properties)) {
      try {
        parts.push({ role: "field", name, schema: properties[name] });
      } catch {
        // Not built yet: the walk that needs it will find the whole shape readable, or say it is not.
      }
    }
    return read([...parts, ...rest], "an object whose property getter throws", declared);
  }
  const fields = (typeof shape === "object" && shape !== null ? shape : {}) as Record<string, unknown>;
  const parts: Part[] = Object.keys(fields).map((name) => ({ role: "field", name, schema: fields[name] }));
  return read([...parts, ...rest], undefined, declared);
}

type Inner =
  | { readonly ok: true; readonly schema: unknown }
  | { readonly ok: false; readonly problem: string };

/**
 * The schema a z.lazy stands for, as zod caches it (`_zod.innerType`), so the walk meets the same schema
 * that parsing uses and a recursive schema closes into a cycle. zod's cache keeps a failed first read as
 * "nothing" for good, which would break the schema for parsing too: the getter is tried on its own first,
 * and the cache is read only once the getter has worked.
 */
function lazyInner(schema: unknown, def: Def): Inner {
  const problem = "a z.lazy whose getter throws";
  if (def._cachedInner === undefined) {
    try {
      (def.getter as () => unknown)();
    } catch {
      return { ok: false, problem };
    }
  }
  try {
    const inner = (schema as { _zod: { innerType?: unknown } })._zod.innerType ?? def._cachedInner;
    return inner === undefined ? { ok: false, problem } : { ok: true, schema: inner };
  } catch {
    return { ok: false, problem };
  }
}

function unreadable(problem: string): SchemaRead {
  return { type: "", parts: [], problem, overwrites: false, converts: false, declared: undefined };
}

/** An overwrite check (`.overwrite()`, and zod's own `.trim()`, `.toLowerCase()`…): it replaces the value. */
function isOverwrite(check: unknown): boolean {
  return (check as { _zod?: { def?: { check?: unknown } } } | null)?._zod?.def?.check === "overwrite";
}

function present(value: unknown): readonly unknown[] {
  return value === undefined || value === null ? [] : [value];
}

function asList(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}
