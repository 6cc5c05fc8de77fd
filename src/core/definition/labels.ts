import type { z } from "zod";
import { DefinitionError } from "../errors.js";
import { defOf } from "./schema-parts.js";
import { SchemaWalk } from "./schema-walk.js";

/** Who may see a field: text written by an outsider, or a private field readable by some roles. */
export type FieldLabel =
  | { readonly kind: "untrusted"; readonly author: string }
  | { readonly kind: "private"; readonly roles: readonly string[] };

/**
 * Labels live on the schema's definition object under a registered symbol, not in a side table keyed by
 * schema instance. zod copies a definition into every schema it derives by cloning (`.max()`, `.trim()`,
 * `.refine()`, `.describe()`, `.meta()`, `.extend()`…) and wraps it by reference in the others
 * (`.optional()`, `.transform()`, `z.union`…), so a label cannot be dropped by chaining. `Symbol.for`
 * makes every copy of formletter (a bundled CLI, a second install) read the same labels.
 */
const labelKey: unique symbol = Symbol.for("formletter.fieldLabels") as never;

type LabelledDef = Record<PropertyKey, unknown>;

const rolePattern = /^[a-z][a-z0-9_]{0,39}$/;

/**
 * Marks a field as written by an outsider (`author` is their role). A template may show it only
 * back to that role — never to anyone else, so a buyer cannot write text that reaches a seller.
 * The label stays on every schema built from this one (`.max(2000)`, `.trim()`, `.optional()`, …); the
 * schema itself is labelled, so use a fresh schema for a field that must stay unlabelled.
 *
 * @example
 * import { untrusted } from "formletter";
 * const ticket = z.object({ id: z.string(), message: untrusted("customer", z.string()).max(2000) });
 */
export function untrusted<S extends z.ZodType>(author: string, schema: S): S {
  checkRole("untrusted", author);
  return addLabel("untrusted", schema, { kind: "untrusted", author });
}

/**
 * Marks a field as private: only templates whose `audience` is one of `roles` may show it, and only code
 * that runs for such a template (derived slots, `where`) may read it.
 *
 * @example
 * import { readableBy } from "formletter";
 * const customer = z.object({ id: z.string(), phone: readableBy(["oncall"], z.string()) });
 */
export function readableBy<S extends z.ZodType>(roles: readonly string[], schema: S): S {
  if (!Array.isArray(roles)) {
    throw new DefinitionError(
      "records_definition_invalid",
      'readableBy: pass a list of roles, e.g. readableBy(["oncall"], z.string()); [] means no template may show it',
    );
  }
  for (const role of roles) checkRole("readableBy", role);
  return addLabel("readableBy", schema, { kind: "private", roles: Object.freeze([...roles]) });
}

function checkRole(caller: string, role: unknown): void {
  if (typeof role !== "string" || !rolePattern.test(role)) {
    throw new DefinitionError(
      "records_definition_invalid",
      `${caller}: role ${JSON.stringify(role)} must be a lower-case role name such as "seller" or "customer"`,
    );
  }
}

function addLabel<S>(caller: string, schema: S, label: FieldLabel): S {
  const def = defOf(schema) as LabelledDef | undefined;
  if (def === undefined) {
    throw new DefinitionError(
      "records_definition_invalid",
      `${caller}: the second argument must be a zod schema, e.g. ${caller}(…, z.string())`,
    );
  }
  writeLabels(def, [...declaredLabels(schema), Object.freeze(label)]);
  carryLabelsDown(schema, new SchemaWalk(caller), "the schema it labels");
  return schema;
}

function writeLabels(def: Record<PropertyKey, unknown>, labels: readonly FieldLabel[]): void {
  try {
    // Enumerable, so that zod's spreads of a definition (`{ ...def, rest }`) carry it as its merges do.
    Object.defineProperty(def, labelKey, {
      value: Object.freeze([...labels]),
      enumerable: true,
      configurable: true,
      writable: true,
    });
  } catch {
    // A label that cannot be written would be lost on every schema built from this one: refuse it.
    throw new DefinitionError(
      "records_definition_invalid",
      `a field label cannot be written on a ${String(def.type)} schema (its definition is frozen or not a plain object); label a schema built by zod itself`,
    );
  }
}

/**
 * Writes the labels of every schema in `root` on every schema inside it as well, so a part taken out of a
 * labelled schema (`{ ...guest.shape }`, `.unwrap()`, `.element`, `.options`) keeps the labels it had
 * there. A schema inside a labelled one is labelled wherever else it is used. Parts that cannot be read
 * yet (a getter or `z.lazy` that refers to a schema not yet built) are left to `defineRecords`, which
 * runs this again over each collection with the walk it read them in.
 */
export function carryLabelsDown(root: unknown, walk: SchemaWalk, subject: string): void {
  walk.read(root, subject, "schema");
  // Labels only grow, so a schema is visited again only when it gained labels to pass on.
  const carried = new Map<unknown, number>();
  const todo: unknown[] = [root];
  while (todo.length > 0) {
    const schema = todo.pop();
    const labels = declaredLabels(schema);
    if (carried.get(schema) === labels.length) continue;
    carried.set(schema, labels.length);
    const { parts } = walk.get(schema);
    walk.spend(subject, 0, "schema", 1 + parts.length);
    for (const { schema: part } of parts) {
      const def = defOf(part) as LabelledDef | undefined;
      if (def === undefined) continue;
      const have = declaredLabels(part);
      const missing = labels.filter((label) => !have.some((own) => sameLabel(own, label)));
      if (missing.length > 0) writeLabels(def, [...have, ...missing]);
      todo.push(part);
    }
  }
}

function sameLabel(a: FieldLabel, b: FieldLabel): boolean {
  if (a.kind === "untrusted" || b.kind === "untrusted") {
    return a.kind === b.kind && (a as { author: string }).author === (b as { author: string }).author;
  }
  return a.roles.length === b.roles.length && a.roles.every((role) => b.roles.includes(role));
}

/** The labels declared on this very schema (not its inner schemas): see `labelTree` for a field's labels. */
export function declaredLabels(schema: unknown): readonly FieldLabel[] {
  let labels: unknown;
  try {
    labels = (defOf(schema) as LabelledDef | undefined)?.[labelKey];
  } catch {
    // A definition that cannot be read: the walks name it as a place whose labels cannot be established.
    return [];
  }
  return Array.isArray(labels) ? (labels as readonly FieldLabel[]) : [];
}

/** Why `audience` may not see a value with this label, or undefined when it may. */
export function labelViolation(label: FieldLabel, audience: string): string | undefined {
  if (label.kind === "untrusted" && label.author !== audience) {
    return `it is untrusted text written by "${label.author}" and may only be shown back to "${label.author}", not to "${audience}"`;
  }
  if (label.kind === "private" && !label.roles.includes(audience)) {
    return `it is readable only by ${label.roles.map((r) => `"${r}"`).join(", ")}, not by "${audience}"`;
  }
  return undefined;
}
