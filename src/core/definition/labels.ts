import type { z } from "zod";
import { DefinitionError } from "../errors.js";
import { schemasInside } from "./schema-parts.js";

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

type Labelled = { _zod: { def: Record<PropertyKey, unknown> } };

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
  const def = (schema as Partial<Labelled> | null)?._zod?.def;
  if (typeof def !== "object" || def === null) {
    throw new DefinitionError(
      "records_definition_invalid",
      `${caller}: the second argument must be a zod schema, e.g. ${caller}(…, z.string())`,
    );
  }
  writeLabels(def, [...declaredLabels(schema), Object.freeze(label)]);
  carryLabelsDown(schema);
  return schema;
}

function writeLabels(def: Record<PropertyKey, unknown>, labels: readonly FieldLabel[]): void {
  // Enumerable, so that zod's spreads of a definition (`{ ...def, rest }`) carry it as its merges do.
  Object.defineProperty(def, labelKey, {
    value: Object.freeze([...labels]),
    enumerable: true,
    configurable: true,
    writable: true,
  });
}

/**
 * Writes the labels of every schema in `root` on every schema inside it as well, so a part taken out of a
 * labelled schema (`{ ...guest.shape }`, `.unwrap()`, `.element`, `.options`) keeps the labels it had
 * there. A schema inside a labelled one is labelled wherever else it is used. Parts that cannot be read
 * yet (a getter or `z.lazy` that refers to a schema not yet built) are left to `defineRecords`, which
 * runs this again over each collection.
 */
export function carryLabelsDown(root: unknown): void {
  const carried = new Map<unknown, number>();
  const visit = (schema: unknown, inherited: readonly FieldLabel[]): void => {
    const def = (schema as Partial<Labelled> | null | undefined)?._zod?.def;
    if (typeof def !== "object" || def === null) return;
    const have = declaredLabels(schema);
    const missing = inherited.filter((label) => !have.some((own) => sameLabel(own, label)));
    if (missing.length > 0) writeLabels(def, [...have, ...missing]);
    const labels = declaredLabels(schema);
    // Labels only grow, so a schema met again with no more labels than last time has nothing new to pass on.
    if (carried.get(schema) === labels.length) return;
    carried.set(schema, labels.length);
    for (const part of readableParts(def)) visit(part, labels);
  };
  visit(root, []);
}

/** The parts of a definition that can be read now; a getter that throws is skipped. */
function readableParts(def: Record<PropertyKey, unknown>): readonly unknown[] {
  try {
    return schemasInside(def) ?? [];
  } catch {
    if (def.type !== "object") return [];
    // zod reads every property of a shape at once; read the ones already built without its accessor.
    const accessor = Object.getOwnPropertyDescriptor(def, "shape")?.get as { raw?: unknown } | undefined;
    const shape = (accessor?.raw ?? {}) as Record<string, unknown>;
    const parts: unknown[] = [];
    for (const name of Object.keys(shape)) {
      try {
        parts.push(shape[name]);
      } catch {
        // Not built yet: defineRecords carries the labels into it.
      }
    }
    if (def.catchall !== undefined) parts.push(def.catchall);
    return parts;
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
  const def = (schema as Partial<Labelled> | null | undefined)?._zod?.def;
  const labels = def?.[labelKey];
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
