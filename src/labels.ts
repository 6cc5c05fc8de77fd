import type { z } from "zod";

/** Who may see a field: text written by an outsider, or a private field readable by some roles. */
export type FieldLabel =
  | { readonly kind: "untrusted"; readonly author: string }
  | { readonly kind: "private"; readonly roles: readonly string[] };

const labels = new WeakMap<object, FieldLabel>();

/**
 * Marks a field as written by an outsider (`author` is their role). A template may show it only
 * back to that role — never to anyone else, so a buyer cannot write text that reaches a seller.
 *
 * @example
 * import { untrusted } from "formletter";
 * const ticket = z.object({ id: z.string(), message: untrusted("customer", z.string()) });
 */
export function untrusted<S extends z.ZodType>(author: string, schema: S): S {
  labels.set(schema, { kind: "untrusted", author });
  return schema;
}

/**
 * Marks a field as private: only templates whose `audience` is one of `roles` may show it.
 *
 * @example
 * import { readableBy } from "formletter";
 * const customer = z.object({ id: z.string(), phone: readableBy(["oncall"], z.string()) });
 */
export function readableBy<S extends z.ZodType>(roles: readonly string[], schema: S): S {
  labels.set(schema, { kind: "private", roles: [...roles] });
  return schema;
}

/** The label of a field schema, looking through optional/nullable/default wrappers. */
export function fieldLabel(schema: unknown): FieldLabel | undefined {
  let current: unknown = schema;
  for (let depth = 0; depth < 8 && typeof current === "object" && current !== null; depth++) {
    const found = labels.get(current);
    if (found !== undefined) return found;
    const def = (current as { _zod?: { def?: { innerType?: unknown } } })._zod?.def;
    current = def?.innerType;
  }
  return undefined;
}

/** Why `audience` may not see a field with this label, or undefined when it may. */
export function labelViolation(label: FieldLabel | undefined, audience: string): string | undefined {
  if (label === undefined) return undefined;
  if (label.kind === "untrusted" && label.author !== audience) {
    return `it is untrusted text written by "${label.author}" and may only be shown back to "${label.author}", not to "${audience}"`;
  }
  if (label.kind === "private" && !label.roles.includes(audience)) {
    return `it is readable only by ${label.roles.map((r) => `"${r}"`).join(", ")}, not by "${audience}"`;
  }
  return undefined;
}
