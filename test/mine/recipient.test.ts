import fc from "fast-check";
import { getCountries, getCountryCallingCode, parsePhoneNumberFromString } from "libphonenumber-js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineRecords } from "../../src/index.js";
import { recipientSource } from "../../src/mine/index.js";
import { hostileStrings } from "../../src/testing/index.js";

const records = defineRecords({
  sellers: z.object({ id: z.string(), email: z.string(), phone: z.string() }),
  partners: z.object({ id: z.string(), contact: z.string() }),
});
const ticket = {
  sellers: [{ id: "s1", email: "Shop@Lumen.example", phone: "+49 151 2345678" }],
  // A record that stores the address the way a mail system exports it.
  partners: [{ id: "p1", contact: '"Kurier, Nord" <Dispatch@Kurier-Nord.example>' }],
};

describe("recipients compared as addresses", () => {
  it.each([
    ["Lumen Shop <shop@lumen.example>", "seller.email"],
    ['"Lumen, Shop" <SHOP@lumen.example>', "seller.email"],
    ['"Jane \\"Shop\\" Doe" <shop@lumen.example>', "seller.email"],
    ["<shop@lumen.example>", "seller.email"],
    ["  < Shop@Lumen.Example >  ", "seller.email"],
    ["mailto:shop@lumen.example", "seller.email"],
    ["MAILTO:Shop@Lumen.example?subject=Order%204471&body=hi", "seller.email"],
    ["mailto:shop%40lumen.example", "seller.email"],
    ["Lumen <mailto:shop@lumen.example>", "seller.email"],
    ["shop@lumen.example (Lumen Shop)", "seller.email"],
    ["tel:+49-151-2345678", "seller.phone"],
    ["Lumen <+49 151 2345678>", "seller.phone"],
    ["dispatch@kurier-nord.example", "partner.contact"],
    ["Nord <DISPATCH@kurier-nord.example>", "partner.contact"],
    ["Lumen <shop@lumen.example>;", "seller.email"],
    ["shop@lumen.example,", "seller.email"],
    ["shop\u200b@lumen.example", "seller.email"],
    ["Lumen <ｓｈｏｐ＠ｌｕｍｅｎ.example>", "seller.email"],
    // Plain addresses, as most recipients are written, and one ending a sentence.
    ["SHOP@LUMEN.EXAMPLE", "seller.email"],
    ["shop@lumen.example.", "seller.email"],
    ["+49 151 2345678", "seller.phone"],
    ["+491512345678", "seller.phone"],
  ])("%s → %s", (to, source) => {
    expect(recipientSource(records, ticket, to)).toBe(source);
  });

  it.each([
    // A display name is a name, never the address the message went to.
    ['"shop@lumen.example" <evil@other.example>'],
    ["shop@lumen.example <evil@other.example>"],
    // Several recipients: no template sends to more than one.
    ["shop@lumen.example, evil@other.example"],
    ["Shop <shop@lumen.example>, Evil <evil@other.example>"],
    ["<shop@lumen.example> <evil@other.example>"],
    ["mailto:evil@other.example?cc=shop@lumen.example"],
    ["mailto:shop@lumen.example,evil@other.example"],
    // Malformed brackets and look-alikes.
    ["Shop <shop@lumen.example"],
    ["<shop@lumen.example> trailing"],
    ["shop@@lumen.example"],
    ["shop@lumen.example.evil"],
    ["mailto:"],
    ["<>"],
    ['"unterminated <shop@lumen.example>'],
  ])("%s → no record", (to) => {
    expect(recipientSource(records, ticket, to)).toBeUndefined();
  });

  it("finds a number by its E.164 form when the digits as written differ, past records of other numbers", () => {
    const couriers = defineRecords({
      sellers: z.object({ id: z.string(), phone: z.string(), since: z.string() }),
      couriers: z.object({ id: z.string(), phone: z.string() }),
    });
    const withCourier = {
      sellers: [{ id: "s1", phone: "+49 151 2345678", since: "2026-02-15" }],
      couriers: [{ id: "c1", phone: "+49 (0)160 7654321" }],
    };
    expect(recipientSource(couriers, withCourier, "+49 160 7654321")).toBe("courier.phone");
    expect(recipientSource(couriers, withCourier, "tel:+491607654321")).toBe("courier.phone");
    expect(recipientSource(couriers, withCourier, "+49 0151 2345678")).toBe("seller.phone");
    // Digits as written match whatever the grouping; a date is no number.
    expect(recipientSource(couriers, withCourier, "2026 02 15")).toBe("seller.since");
    expect(recipientSource(couriers, withCourier, "+49 170 0000000")).toBeUndefined();
  });

  it("compares a number written without its country prefix by its digits alone", () => {
    const national = {
      ...ticket,
      sellers: [{ id: "s1", email: "shop@lumen.example", phone: "0151 2345678" }],
    };
    expect(recipientSource(records, national, "0151-2345678")).toBe("seller.phone");
    // Without a "+country" prefix no E.164 form is read, so the international form is another number.
    expect(recipientSource(records, national, "+49 151 2345678")).toBeUndefined();
    expect(recipientSource(records, ticket, "0151 2345678")).toBeUndefined();
  });

  it("reads a number written in compatibility forms, past values with no digits", () => {
    const contacts = defineRecords({
      people: z.object({ id: z.string(), name: z.string(), role: z.string(), phone: z.string() }),
    });
    const people = {
      people: [
        { id: "p1", name: "Ines Carvalho", role: "adjuster", phone: "+49 40 7770322" },
        // Fullwidth digits and a circled one are digits once cleaned: compared as numbers.
        { id: "p2", name: "Jan Ott", role: "courier", phone: "＋４９ １６０ ７６５４３２１" },
        { id: "p3", name: "Ada Roth", role: "driver", phone: "①②③④⑤⑥⑦⑧" },
      ],
    };
    expect(recipientSource(contacts, people, "+49 40 7770322")).toBe("person.phone");
    expect(recipientSource(contacts, { people: people.people.slice(1) }, "+49 160 7654321")).toBe(
      "person.phone",
    );
    expect(recipientSource(contacts, { people: people.people.slice(2) }, "12345678")).toBe("person.phone");
    // A recipient with no digits is compared with every value, digitless ones too: none holds its form
    // here, and a value written as oddly is found.
    expect(recipientSource(contacts, people, "(((((((")).toBeUndefined();
    const odd = { people: [{ id: "p4", name: "Odd", role: "( ( ( ( )", phone: "+49 40 7770322" }] };
    expect(recipientSource(contacts, odd, "(((((((")).toBe("person.role");
  });

  it("relies on a number's E.164 form ending with the last digit it is written with, in every country", () => {
    // Numbers whose last digits differ are never parsed to be compared: this holds for the metadata
    // installed, national prefixes and carrier codes written or not.
    const codes = [...new Set(getCountries().map((country) => getCountryCallingCode(country)))];
    let valid = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...codes),
        fc.constantFrom("", "0", "(0)", "15", "9", "1"),
        fc.stringMatching(/^\d{6,13}$/),
        fc.constantFrom(" ", "-", ""),
        (code, prefix, digits, gap) => {
          const written = `+${code} ${prefix}${gap}${digits.slice(0, 3)}${gap}${digits.slice(3)}`;
          const phone = parsePhoneNumberFromString(written);
          if (phone?.isValid() !== true) return;
          valid++;
          expect(phone.number.at(-1)).toBe(digits.at(-1));
        },
      ),
      { numRuns: 20_000, seed: 36 },
    );
    expect(valid).toBeGreaterThan(500);
  });

  it("never throws and finds no record for hostile recipients", () => {
    for (const to of [...hostileStrings, "<".repeat(20_000), "mailto:%E0%A4%A", `"${"\\".repeat(5_000)}`]) {
      expect(() => recipientSource(records, ticket, to)).not.toThrow();
    }
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (to) => {
        const source = recipientSource(records, ticket, to);
        // Whatever the text, it resolves only to a declared field.
        expect([undefined, "seller.email", "seller.phone", "partner.contact"]).toContain(source);
      }),
    );
  });
});
