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

describe("a date kept as a string, written in words", () => {
  const bookings = defineRecords({ bookings: z.object({ id: z.string(), startsOn: z.string() }) });
  const ticket = { bookings: [{ id: "b-1", startsOn: "2026-04-03" }] };

  it("is masked by the index made for the text and by the whole index alike", () => {
    // The value's words ("04", "03") are not the text's: a plain string would be ruled out by them, a date
    // is rendered and its forms told apart.
    const text = "Your stay starts on 3 April 2026.";
    const index = valueIndex(bookings, ticket, { text });
    expect(maskMessage(text, index).skeleton).toBe("Your stay starts on {{booking.startsOn}}.");
    expect(index.values.map(([rendering]) => rendering)).toContain("3 april 2026");
    // A text the index was not made for reads the whole index.
    expect(maskMessage("It starts on 3 April 2026", index).skeleton).toBe(
      "It starts on {{booking.startsOn}}",
    );
  });
});
