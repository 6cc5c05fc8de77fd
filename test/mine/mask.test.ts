import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineRecords } from "../../src/index.js";
import { maskMessage, valueIndex } from "../../src/mine/index.js";

const records = defineRecords({ customers: z.object({ id: z.string(), name: z.string() }) });
const ticket = { customers: [{ id: "c1", name: "Anna" }] };

/** The history's own braces split, as masking writes them: a message cannot name a slot. */
const unbraced = (text: string) => text.replace(/\{(?=\{)/g, "{ ").replace(/\}(?=\})/g, "} ");

describe("a masked message's white space", () => {
  const word = fc.constantFrom("Anna", "ANNA", "Brief", "ß", "{{", "}}", "a{{b}}", "2026", "Σ");
  const space = fc.constantFrom(" ", "  ", "\t", "\n", "\n\n", " \r\n ", "\u00a0", "\u2003", "\u3000");
  const text = fc.tuple(
    fc.option(space),
    fc.array(fc.tuple(word, space), { maxLength: 10 }),
    fc.option(word),
  );

  it("is every run made one space, trimmed, around the values found", () => {
    fc.assert(
      fc.property(text, ([lead, pairs, last]) => {
        const words = [...pairs.map(([w]) => w), ...(last === null ? [] : [last])];
        const written = `${lead ?? ""}${pairs.map(([w, s]) => w + s).join("")}${last ?? ""}`;
        const expected = words
          .map((w) => (w.toLowerCase() === "anna" ? "{{customer.name}}" : unbraced(w)))
          .join(" ");
        const index = valueIndex(records, ticket, { text: written });
        expect(maskMessage(written, index).skeleton).toBe(expected);
        const none = valueIndex(records, { customers: [] }, { text: written });
        expect(maskMessage(written, none).skeleton).toBe(words.map(unbraced).join(" "));
      }),
    );
  });
});
