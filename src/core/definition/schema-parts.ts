/** What a zod 4 schema holds: the schemas inside a definition, by its type. */

export type Def = Readonly<Record<string, unknown>> & { readonly type?: unknown };
export type Schema = { readonly _zod: { readonly def: Def } };

// Types whose values hold no other schema's values: their own labels are all there is.
export const leaves = new Set([
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
export const wrappers = [
  "optional",
  "nullable",
  "default",
  "prefault",
  "catch",
  "readonly",
  "nonoptional",
  "success",
];
/** The schemas a definition holds directly, by the zod type of the definition; undefined for a type not known. */
export function schemasInside(def: Def): readonly unknown[] | undefined {
  const type = String(def.type);
  if (leaves.has(type)) return [];
  if (wrappers.includes(type) || type === "promise") return [def.innerType];
  switch (type) {
    case "object":
      return [...Object.values(def.shape ?? {}), ...(def.catchall === undefined ? [] : [def.catchall])];
    case "array":
      return [def.element];
    case "set":
      return [def.valueType];
    case "tuple":
      return [...asList(def.items), ...(def.rest === undefined || def.rest === null ? [] : [def.rest])];
    case "record":
    case "map":
      return [def.keyType, def.valueType];
    case "pipe":
      return [def.in, def.out];
    case "union":
      return asList(def.options);
    case "intersection":
      return [def.left, def.right];
    case "lazy":
      return [(def.getter as () => unknown)()];
    case "template_literal":
      // Literal parts (strings, numbers…) sit next to schemas here; only the schemas can be labelled.
      return asList(def.parts).filter((part) => typeof part === "object" && part !== null);
    case "function":
      return [def.input, def.output].filter((inner) => inner !== undefined);
    default:
      return undefined;
  }
}

export function asList(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}
