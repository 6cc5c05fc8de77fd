import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineRecords } from "../../src/index.js";
import { draftTemplates, maskMessage, mineHistory, valueIndex } from "../../src/mine/index.js";
import { collectionOfPrefix, placeholderPrefix } from "../../src/mine/placeholder-prefix.js";

describe("a collection's placeholder prefix", () => {
  it("is its singular, unless another collection of the records is called so too", () => {
    const names = ["people", "person", "orders", "addresses", "address", "order_lines"];
    const prefixes = names.map((name) => placeholderPrefix(names, name));
    expect(prefixes).toEqual(["people", "person", "order", "addresses", "address", "order_line"]);
    expect(new Set(prefixes).size).toBe(names.length);
    for (const name of names) expect(collectionOfPrefix(names, placeholderPrefix(names, name))).toBe(name);
  });

  it("never names two collections, whatever names the records are given", () => {
    // A name that is another's singular, and one that is a third's rewritten prefix.
    const names = ["item", "items", "itemses", "data", "datum", "children", "child", "news"];
    const prefixes = names.map((name) => placeholderPrefix(names, name));
    expect(new Set(prefixes).size).toBe(names.length);
    for (const name of names) expect(collectionOfPrefix(names, placeholderPrefix(names, name))).toBe(name);
  });

  it("is every collection's own name where a name written as itself is another's singular", () => {
    // "person" and "people" are both called person, so are written as themselves; "peoples" is called people.
    const names = ["person", "people", "peoples", "orders"];
    expect(names.map((name) => placeholderPrefix(names, name))).toEqual(names);
  });
});

describe("two collections one of whose records is called alike", () => {
  // A guardian (`person`) and the people in their care: both singular "person".
  const records = defineRecords({
    people: z.object({ id: z.string(), name: z.string(), email: z.email() }),
    person: z.object({ id: z.string(), name: z.string(), email: z.email() }),
  });
  const ticket = (n: number) => ({
    people: [{ id: `c${n}`, name: `Noor Haddad ${n}`, email: `noor${n}@mail.example` }],
    person: [{ id: `g${n}`, name: `Sami Haddad ${n}`, email: `sami${n}@mail.example` }],
  });

  it("mask their values into placeholders of their own", () => {
    const text = "Dear Sami Haddad 4, Noor Haddad 4 is enrolled.";
    const skeleton = maskMessage(text, valueIndex(records, ticket(4), { text })).skeleton;
    expect(skeleton).toBe("Dear {{person.name}}, {{people.name}} is enrolled.");
  });

  it("draft a template that sends to the collection the history sent to, showing the other's field", async () => {
    const lines = Array.from({ length: 30 }, (_, n) =>
      JSON.stringify({
        ticketId: `T-${n}`,
        records: ticket(n),
        message: {
          to: `sami${n}@mail.example`,
          text: `Dear Sami Haddad ${n}, Noor Haddad ${n} is enrolled for the spring term. Kind regards, the school`,
        },
      }),
    );
    const report = await mineHistory(records, lines, { workers: 0 });
    const [template] = draftTemplates(records, report).templates;
    expect(template?.to.collection).toBe("person");
    expect(template?.body).toContain("{{people.name}}");
  });
});
