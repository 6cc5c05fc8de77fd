/**
 * A name refused by the naming rule comes back with the name to use instead, as docs/reference.md
 * promises ("A slot called `orderNumber` … call it `order_number`"); where no safe guess exists, none.
 */
import { describe, expect, it } from "vitest";
import { snakeCaseSuggestion } from "../../../src/core/definition/name-suggestion.js";
import { defineTemplate, isFormletterError } from "../../../src/index.js";
import { records } from "../../fixtures/clinic.js";
import { config, type Overrides } from "../../fixtures/visit-note-config.js";

const { slot } = records;
const slotRule = /^[a-z][a-z0-9_]{0,39}$/;

function messageOf(overrides: Overrides): string {
  try {
    defineTemplate(records, config(overrides));
  } catch (error) {
    if (isFormletterError(error)) return error.message;
    throw error;
  }
  throw new Error("expected a DefinitionError");
}

describe("the naming rule's fix", () => {
  it.each([
    ["serviceBooking", "service_booking"],
    ["order-number", "order_number"],
    ["OrderNumber", "order_number"],
    ["HTMLBody", "html_body"],
    ["order2Id", "order2_id"],
    ["Service Booking", "service_booking"],
    ["order.number", "order_number"],
    ["__room__", "room"],
  ])("a slot called %s is told to be %s", (name, suggestion) => {
    const message = messageOf({
      body: `Room {{${name}}}.`,
      slots: { [name]: slot.ref("appointments", { show: "room" }) },
    });
    expect(message).toBe(
      `template "visit_note", slot "${name}": slot names are lower-case letters, digits and "_", starting with a letter, at most 40 characters; "to" is the recipient; call it "${suggestion}"`,
    );
  });

  it("gives the template id and the audience the same fix", () => {
    expect(messageOf({ id: "visitNote" })).toMatch(/; call it "visit_note"$/);
    expect(messageOf({ audience: "propertyManager" })).toMatch(/; call it "property_manager"$/);
  });

  it.each([
    ["to", "the recipient's name: no other spelling of it is meant"],
    ["größe", "letters outside ASCII: a guess could change the word"],
    ["2fa_code", "a leading digit: changing case would not fix it"],
    ["a".repeat(41), "too long: the suggestion would be refused too"],
    ["order<script>", "symbols"],
    ["ab\u202Ecd", "a hidden character"],
  ])("suggests nothing for %j (%s)", (name) => {
    const message = messageOf({ slots: { [name]: slot.ref("appointments", { show: "room" }) } });
    expect(message).toContain("slot names are lower-case letters");
    expect(message).not.toContain("call it");
  });

  it("every suggestion it makes obeys the rule, and it stays quick on a huge name", () => {
    for (const name of ["aB", "a-b", "A", "aBcDeF", "a__b", "a_-_b", "X1Y2", "-a-"])
      expect(snakeCaseSuggestion(name, slotRule) ?? "a").toMatch(slotRule);
    expect(snakeCaseSuggestion("aB".repeat(500_000), slotRule)).toBeUndefined();
    expect(snakeCaseSuggestion("valid_name", slotRule)).toBeUndefined();
  });
});
