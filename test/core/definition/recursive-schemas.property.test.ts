import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { DefinitionError, untrusted } from "../../../src/index.js";
import { propertyRuns } from "../../fixtures/property-runs.js";
import { growingLazy, growingObject } from "../../fixtures/schema-shapes.js";
import { recordsWith, showField } from "../../fixtures/show-field.js";

/**
 * Random recursive schemas: a few named schemas built of objects, arrays, unions, intersections, records,
 * wrappers and leaves, referring to each other (and themselves) through z.lazy and shape getters, sometimes
 * with a part that builds a new schema each time it is read. The property: defining records and a template
 * ends, with a catalog or a DefinitionError, never another error; it is a DefinitionError exactly when such
 * a growing part is reachable; and the buyer's text anywhere under the field is found on it.
 */

type Expr =
  | { readonly kind: "leaf"; readonly labelled: boolean }
  | { readonly kind: "ref"; readonly to: number; readonly via: "lazy" | "getter" }
  | { readonly kind: "fresh"; readonly via: "lazy" | "getter" }
  | { readonly kind: "object"; readonly fields: readonly Expr[] }
  | {
      readonly kind: "array" | "optional" | "nullable" | "record";
      readonly inner: Expr;
    }
  | { readonly kind: "union" | "intersection"; readonly left: Expr; readonly right: Expr };

const size = 4;

const expr: fc.Arbitrary<Expr> = fc.letrec<{ expr: Expr }>((tie) => ({
  expr: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.record({ kind: fc.constant("leaf" as const), labelled: fc.boolean() }),
    fc.record({
      kind: fc.constant("ref" as const),
      to: fc.nat({ max: size - 1 }),
      via: fc.constantFrom("lazy" as const, "getter" as const),
    }),
    fc.record({ kind: fc.constant("object" as const), fields: fc.array(tie("expr"), { maxLength: 3 }) }),
    fc.record({
      kind: fc.constantFrom("array" as const, "optional" as const, "nullable" as const, "record" as const),
      inner: tie("expr"),
    }),
    fc.record({
      kind: fc.constantFrom("union" as const, "intersection" as const),
      left: tie("expr"),
      right: tie("expr"),
    }),
  ),
})).expr;

/** Mostly well-made graphs; one case in five holds a part that grows as it is read. */
const program = fc.record({
  schemas: fc.array(expr, { minLength: size, maxLength: size }),
  fresh: fc.option(
    fc.record({
      at: fc.nat({ max: size - 1 }),
      via: fc.constantFrom("lazy" as const, "getter" as const),
    }),
    { freq: 4 },
  ),
});

function build(schemas: readonly Expr[]): z.ZodType[] {
  const built: z.ZodType[] = [];
  const make = (node: Expr): z.ZodType => {
    switch (node.kind) {
      case "leaf":
        return node.labelled ? untrusted("buyer", z.string()) : z.string();
      case "ref":
        if (node.via === "lazy") return z.lazy(() => built[node.to] as z.ZodType);
        return z.object({
          get next() {
            return built[node.to] as z.ZodType;
          },
        });
      case "fresh":
        // Written the wrong way on purpose: every read builds a new schema.
        return node.via === "lazy" ? growingLazy() : growingObject();
      case "object":
        return z.object(Object.fromEntries(node.fields.map((field, index) => [`f${index}`, make(field)])));
      case "array":
        return z.array(make(node.inner));
      case "optional":
        return make(node.inner).optional();
      case "nullable":
        return make(node.inner).nullable();
      case "record":
        return z.record(z.string(), make(node.inner));
      case "union":
        return z.union([make(node.left), make(node.right)]);
      case "intersection":
        return z.intersection(make(node.left), make(node.right));
    }
  };
  for (const node of schemas) built.push(make(node));
  return built;
}

/** What is reachable from schema 0 in the model: a labelled leaf, a growing part. */
function reachable(schemas: readonly Expr[]): { labelled: boolean; fresh: boolean } {
  const found = { labelled: false, fresh: false };
  const seen = new Set<number>();
  const visit = (node: Expr): void => {
    switch (node.kind) {
      case "leaf":
        found.labelled ||= node.labelled;
        return;
      case "fresh":
        found.fresh = true;
        return;
      case "ref":
        if (seen.has(node.to)) return;
        seen.add(node.to);
        visit(schemas[node.to] as Expr);
        return;
      case "object":
        for (const field of node.fields) visit(field);
        return;
      case "union":
      case "intersection":
        visit(node.left);
        visit(node.right);
        return;
      default:
        visit(node.inner);
    }
  };
  seen.add(0);
  visit(schemas[0] as Expr);
  return found;
}

/** The program with its growing part, if any, put in place of the first leaf of schema `at`. */
function withFresh(schemas: readonly Expr[], fresh: { at: number; via: "lazy" | "getter" } | null): Expr[] {
  if (fresh === null) return [...schemas];
  const copy = [...schemas];
  copy[fresh.at] = {
    kind: "union",
    left: { kind: "fresh", via: fresh.via },
    right: copy[fresh.at] as Expr,
  };
  return copy;
}

describe("definitions over random recursive schemas", () => {
  it("end with a template or a DefinitionError, exactly as the schema's graph says", () => {
    fc.assert(
      fc.property(program, fc.constantFrom("buyer", "seller"), ({ schemas, fresh }, audience) => {
        const graph = withFresh(schemas, fresh);
        const expected = reachable(graph);
        let caught: unknown;
        try {
          showField(recordsWith(build(graph)[0] as z.ZodType), audience);
        } catch (error) {
          caught = error;
        }
        if (caught !== undefined && !(caught instanceof DefinitionError)) throw caught;
        if (expected.fresh) {
          expect((caught as DefinitionError | undefined)?.message).toMatch(
            /collection "nodes" never ends: .* is built anew each time it is read \(at nodes\.field/,
          );
        } else if (expected.labelled && audience === "seller") {
          expect((caught as DefinitionError | undefined)?.message).toMatch(
            /shows nodes\.field for audience "seller", but nodes\.field\S* is labelled: it is untrusted text written by "buyer"/,
          );
        } else {
          expect(caught).toBeUndefined();
        }
      }),
      { numRuns: propertyRuns(300), seed: 31 },
    );
  });
});
