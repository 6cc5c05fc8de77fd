import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type ApprovedText, parseApprovedText, variablesFor } from "../../src/providers/approved-template.js";

function fill(approved: ApprovedText, values: ReadonlyMap<string, string>): string {
  return approved.fixed
    .map(
      (piece, index) =>
        piece + (index < approved.variables.length ? values.get(approved.variables[index] ?? "") : ""),
    )
    .join("");
}

/** An approved text of the fixed pieces, variables {{1}}… between them, filled with the values. */
function filled(fixed: readonly string[], values: readonly string[]) {
  const text = fixed.map((part, index) => (index === 0 ? part : `{{${index}}}${part}`)).join("");
  const approved = parseApprovedText(text) as ApprovedText;
  const chosen = new Map(approved.variables.map((name, index) => [name, values[index] ?? "x"]));
  return { approved, chosen, rendered: fill(approved, chosen) };
}

// Short texts over a small alphabet, so that values often hold the fixed pieces.
const piece = fc.string({ unit: fc.constantFrom("a", "b", " ", "."), minLength: 1, maxLength: 4 });

describe("variables read back from a decided text against the approved one", () => {
  it("gives values that rebuild the text exactly, or refuses; never another text", () => {
    fc.assert(
      fc.property(
        fc.array(piece, { minLength: 2, maxLength: 5 }),
        fc.array(piece, { minLength: 4, maxLength: 4 }),
        (fixed, values) => {
          const { approved, rendered } = filled(fixed, values);
          const read = variablesFor(approved, rendered);
          if (read !== undefined) expect(fill(approved, read)).toBe(rendered);
        },
      ),
    );
  });

  it("finds values that share no character with the fixed text", () => {
    const value = fc.string({ unit: fc.constantFrom("x", "y"), minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(
        fc.array(piece, { minLength: 2, maxLength: 5 }),
        fc.array(value, { minLength: 4, maxLength: 4 }),
        (fixed, values) => {
          const { approved, chosen, rendered } = filled(fixed, values);
          expect(variablesFor(approved, rendered)).toEqual(chosen);
        },
      ),
    );
  });

  it("refuses a text that two readings fit", () => {
    const approved = parseApprovedText("A {{1}} and {{2}}.") as ApprovedText;
    expect(variablesFor(approved, "A x and y and z.")).toBeUndefined();
    expect(variablesFor(approved, "A x and y.")).toEqual(
      new Map([
        ["1", "x"],
        ["2", "y"],
      ]),
    );
  });

  it("reads a long text with many repeats of a piece in linear passes", () => {
    const approved = parseApprovedText("<{{1}}|{{2}}>") as ApprovedText;
    const value = "a".repeat(200_000);
    expect(variablesFor(approved, `<${value}|${value}>`)?.get("2")).toBe(value);
  });
});
