import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { FieldLabel } from "../../../src/core/definition/labels.js";
import { createCatalog, DefinitionError, defineTemplate, readableBy, untrusted } from "../../../src/index.js";
import { propertyRuns } from "../../fixtures/property-runs.js";
import { recordsWith, showField } from "../../fixtures/show-field.js";

/**
 * Random zod compositions × template shapes × audiences. The property: a labelled value never reaches a
 * message (or code run for it) whose audience may not see it, and a definition that shows it fails.
 */

type Shape =
  | { readonly kind: "leaf" }
  | { readonly kind: "object" | "array" | "record" | "map" | "tuple" | "set"; readonly inner: Shape }
  | { readonly kind: "wrap"; readonly op: (typeof ops)[number]; readonly inner: Shape };

const ops = [
  "max",
  "describe",
  "meta",
  "refine",
  "superRefine",
  "optional",
  "nullable",
  "readonly",
  "catch",
  "default",
  "transform",
  "pipe",
  "union",
  "intersection",
  "lazy",
  "brand",
] as const;

const shape: fc.Arbitrary<Shape> = fc.letrec<{ shape: Shape }>((tie) => ({
  shape: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constant<Shape>({ kind: "leaf" }),
    fc.record({
      kind: fc.constantFrom("object", "array", "record", "map", "tuple", "set" as const),
      inner: tie("shape"),
    }),
    fc.record({ kind: fc.constant("wrap" as const), op: fc.constantFrom(...ops), inner: tie("shape") }),
  ),
})).shape;

const labels: fc.Arbitrary<FieldLabel> = fc.constantFrom<FieldLabel>(
  { kind: "untrusted", author: "buyer" },
  { kind: "untrusted", author: "seller" },
  { kind: "private", roles: ["finance"] },
  { kind: "private", roles: ["seller", "finance"] },
);
const audiences = fc.constantFrom("buyer", "seller", "finance", "support");

const canary = "QXCANARY";

function mayRead(label: FieldLabel, audience: string): boolean {
  return label.kind === "untrusted" ? label.author === audience : label.roles.includes(audience);
}

function labelled(label: FieldLabel, schema: z.ZodType): z.ZodType {
  return label.kind === "untrusted" ? untrusted(label.author, schema) : readableBy(label.roles, schema);
}

/** Builds the schema of a shape and a value of it holding the canary, labelling the node numbered `at`. */
function build(
  node: Shape,
  label: FieldLabel,
  at: number,
  counter = { n: 0 },
): { schema: z.ZodType; value: unknown } {
  const index = counter.n++;
  const mark = (schema: z.ZodType) => (index === at ? labelled(label, schema) : schema);
  if (node.kind === "leaf") return { schema: mark(z.string()), value: canary };
  const inner = build(node.inner, label, at, counter);
  const { value } = inner;
  switch (node.kind) {
    case "object":
      return {
        schema: mark(z.object({ plain: z.string(), x: inner.schema })),
        value: { plain: "p", x: value },
      };
    case "array":
      return { schema: mark(z.array(inner.schema)), value: [value] };
    case "set":
      return { schema: mark(z.set(inner.schema)), value: new Set([value]) };
    case "record":
      return { schema: mark(z.record(z.string(), inner.schema)), value: { k: value } };
    case "map":
      return { schema: mark(z.map(z.string(), inner.schema)), value: new Map([["k", value]]) };
    case "tuple":
      return { schema: mark(z.tuple([z.string(), inner.schema])), value: ["t", value] };
    case "wrap":
      return { schema: mark(wrap(node.op, inner.schema as z.ZodString, value)), value };
  }
}

function wrap(op: (typeof ops)[number], schema: z.ZodString, value: unknown): z.ZodType {
  switch (op) {
    case "max":
      return schema.max !== undefined ? schema.max(1000) : schema;
    case "describe":
      return schema.describe("described");
    case "meta":
      return schema.meta({ title: "meta" });
    case "refine":
      return schema.refine(() => true);
    case "superRefine":
      return schema.superRefine(() => undefined);
    case "optional":
      return schema.optional();
    case "nullable":
      return schema.nullable();
    case "readonly":
      return schema.readonly();
    case "catch":
      return schema.catch(value as string);
    case "default":
      return schema.default(value as string);
    case "transform":
      return schema.transform((inner) => inner);
    case "pipe":
      return schema.pipe(z.any());
    case "union":
      return z.union([z.number(), schema]);
    case "intersection":
      return z.intersection(schema, z.any());
    case "lazy":
      return z.lazy(() => schema);
    case "brand":
      return schema.brand<"b">();
  }
}

function dump(value: unknown): string {
  return JSON.stringify(value, (_key, inner) =>
    inner instanceof Map ? Object.fromEntries(inner) : inner instanceof Set ? [...inner] : inner,
  );
}

const sizeOf = (node: Shape): number => (node.kind === "leaf" ? 1 : 1 + sizeOf(node.inner));
const holdsContainer = (node: Shape): boolean =>
  node.kind !== "leaf" && (node.kind !== "wrap" || holdsContainer(node.inner));
// zod cannot merge two parsed copies of a Set or Map: intersections stay over strings and objects of them.
const parsable = (node: Shape): boolean =>
  node.kind === "leaf" ||
  (node.kind === "wrap" && node.op === "intersection" && holdsContainer(node.inner)
    ? false
    : parsable(node.inner));

const cases = shape.filter(parsable).chain((node) =>
  fc.record({
    node: fc.constant(node),
    at: fc.nat({ max: sizeOf(node) - 1 }),
    label: labels,
    audience: audiences,
  }),
);

function definitions(node: Shape, label: FieldLabel, at: number) {
  const { schema, value } = build(node, label, at);
  const records = recordsWith(schema);
  const ticket = {
    ticketId: "T-1",
    nodes: [{ id: "t1", field: value }],
    contacts: [{ id: "c1", email: "someone@example.com" }],
  };
  return { records, ticket };
}

describe("labels under random compositions", () => {
  it("a template showing the field is defined exactly when its audience may read the label", () => {
    fc.assert(
      fc.property(cases, ({ node, at, label, audience }) => {
        const { records } = definitions(node, label, at);
        let error: unknown;
        try {
          showField(records, audience);
        } catch (caught) {
          error = caught;
        }
        if (mayRead(label, audience)) expect(error).toBeUndefined();
        else expect(error).toBeInstanceOf(DefinitionError);
      }),
      { numRuns: propertyRuns(400), seed: 11 },
    );
  });

  it("code run for a template sees the labelled value exactly when its audience may read it", () => {
    fc.assert(
      fc.property(cases, ({ node, at, label, audience }) => {
        const { records, ticket } = definitions(node, label, at);
        let seen = "";
        const template = defineTemplate(records, {
          effect: "informational",
          id: "dump_records",
          description: "Shows what code can see",
          audience,
          channel: "email",
          to: records.slot.ref("contacts", { show: "email" }),
          subject: "Thing",
          body: "Thing {{thing}}: {{seen}}",
          slots: {
            thing: records.slot.ref("nodes", {
              show: "id",
              where: (thing, context) => {
                seen += dump(thing) + dump(context);
                return true;
              },
            }),
            seen: records.slot.derived(
              (context) => {
                seen += dump(context);
                return "done";
              },
              { maxLength: 100_000 },
            ),
          },
          limits: { perTicket: 1, perDay: 10 },
        });
        const decision = createCatalog(records, [template]).decide(
          { template: "dump_records", slots: {} },
          ticket,
        );
        expect(decision.outcome).toBe("send");
        expect(seen.includes(canary)).toBe(mayRead(label, audience));
      }),
      { numRuns: propertyRuns(400), seed: 12 },
    );
  });
});
