import { de } from "date-fns/locale";
import { afterEach, describe, expect, it } from "vitest";
import type { FormatResult } from "../../../src/core/message/format.js";
import { format } from "../../../src/index.js";
import { booked, cancelled, catalog, clinicTicket, reminderProposal } from "../../fixtures/clinic.js";
import { expectEscalation, expectSend } from "../../fixtures/expect.js";

const value = (result: FormatResult): string => {
  expect(result).toMatchObject({ ok: true });
  return result.ok ? result.value : "";
};
const problem = (result: FormatResult): string => {
  expect(result).toMatchObject({ ok: false });
  return result.ok ? "" : result.problem;
};

describe("format.text", () => {
  const text = format.text();
  it.each<[unknown, string]>([
    ["Room B12", "Room B12"],
    [12, "12"],
    [-0.5, "-0.5"],
    [true, "true"],
    [12n, "12"],
  ])("formats %s", (raw, expected) => {
    expect(value(text.apply(raw, {}))).toBe(expected);
  });

  it.each<[string, unknown]>([
    ["an object", { toString: () => "hi" }],
    ["an array", ["a"]],
    ["null", null],
    ["undefined", undefined],
    ["NaN", Number.NaN],
    ["Infinity", Number.POSITIVE_INFINITY],
    ["a symbol", Symbol("x")],
    ["a function", () => "x"],
  ])("rejects %s, describing only its type", (_name, raw) => {
    const why = problem(text.apply(raw, {}));
    expect(why).not.toContain("hi");
  });

  it("is single-line and neutralised unless asked otherwise", () => {
    expect(text).toMatchObject({ kind: "text", multiline: false, neutralize: true });
    expect(format.text({ multiline: true }).multiline).toBe(true);
  });
});

describe("format.email", () => {
  const email = format.email();
  it.each([
    ["Ada.Lovelace@Example.org", "ada.lovelace@example.org"],
    ["  ada@example.org ", "ada@example.org"],
    ["ada+clinic@mail.example.co.uk", "ada+clinic@mail.example.co.uk"],
  ])("normalises %j", (raw, expected) => {
    expect(value(email.apply(raw, {}))).toBe(expected);
    expect(value(email.address?.(raw) ?? { ok: false, problem: "" })).toBe(expected);
  });

  it.each([
    "ada",
    "ada@",
    "@example.org",
    "ada@@example.org",
    "ada@example",
    "ada..l@example.org",
    '"ada lovelace"@example.org',
    "ada(comment)@example.org",
    "ada@[192.168.0.1]",
    "ada@example.org\nbcc@evil.example",
    "ada@example.org,eve@evil.example",
    `${"a".repeat(65)}@example.org`,
    `ada@${"a".repeat(250)}.org`,
    "ada@-example.org",
  ])("rejects %j", (raw) => {
    problem(email.apply(raw, {}));
  });

  it("rejects non-strings", () => {
    problem(email.apply(42, {}));
  });
});

describe("format.phone", () => {
  it("formats for display and resolves recipients to E.164", () => {
    const international = format.phone({ defaultCountry: "DE" });
    expect(value(international.apply("030 12345678", {}))).toBe("+49 30 12345678");
    expect(value(international.address?.("030 12345678") ?? { ok: false, problem: "" })).toBe(
      "+493012345678",
    );
    expect(
      value(format.phone({ defaultCountry: "DE", style: "national" }).apply("+49 30 12345678", {})),
    ).toBe("030 12345678");
    expect(value(format.phone({ style: "e164" }).apply("+1 (415) 555-2671", {}))).toBe("+14155552671");
  });

  it("a national number without a default country is not a phone number, and the problem says why", () => {
    expect(problem(format.phone().apply("030 12345678", {}))).toMatch(/defaultCountry/);
  });

  it.each(["12", "not a phone", "+49 30 1234567890123456", `+49 ${"1".repeat(80)}`, ""])(
    "rejects %j",
    (raw) => {
      problem(format.phone({ defaultCountry: "DE" }).apply(raw, {}));
    },
  );
});

describe("format.date", () => {
  const originalTz = process.env.TZ;
  afterEach(() => {
    if (originalTz === undefined) delete process.env.TZ;
    else process.env.TZ = originalTz;
  });

  it.each([
    ["2026-03-02T09:30:00Z", "Europe/Berlin", "d MMM yyyy HH:mm", "2 Mar 2026 10:30"],
    ["2026-07-02T09:30:00Z", "Europe/Berlin", "d MMM yyyy HH:mm", "2 Jul 2026 11:30"],
    ["2026-03-01T20:00:00Z", "Asia/Tokyo", "d MMM yyyy", "2 Mar 2026"],
    ["2026-03-01T20:00:00Z", "America/New_York", "d MMM yyyy", "1 Mar 2026"],
    ["2026-03-29T01:30:00Z", "Europe/Berlin", "HH:mm", "03:30"],
    ["2026-12-31T23:59:59Z", "UTC", "yyyy-MM-dd", "2026-12-31"],
  ])("%s in %s as %j", (raw, timeZone, pattern, expected) => {
    expect(value(format.date(pattern, { timeZone }).apply(raw, {}))).toBe(expected);
  });

  it("accepts Date objects and epoch milliseconds", () => {
    const day = format.date("yyyy-MM-dd HH:mm", { timeZone: "UTC" });
    expect(value(day.apply(new Date(Date.UTC(2026, 2, 2, 9, 30)), {}))).toBe("2026-03-02 09:30");
    expect(value(day.apply(Date.UTC(2026, 2, 2, 9, 30), {}))).toBe("2026-03-02 09:30");
  });

  it("uses a date-fns locale for names", () => {
    expect(
      value(
        format
          .date("d. MMMM yyyy", { timeZone: "Europe/Berlin", locale: de })
          .apply("2026-03-02T09:30:00Z", {}),
      ),
    ).toBe("2. März 2026");
  });

  it.each<[string, unknown]>([
    ["free text", "next Tuesday"],
    ["an impossible date", "2026-13-45"],
    ["an empty string", ""],
    ["an invalid Date", new Date(Number.NaN)],
    ["an object", { year: 2026 }],
    ["null", null],
    ["a 100 KB string that starts like a date", `2026-03-02${"x".repeat(100_000)}`],
  ])("rejects %s", (_name, raw) => {
    problem(format.date("d MMM yyyy", { timeZone: "UTC" }).apply(raw, {}));
  });

  it("does not depend on the machine's time zone", () => {
    const results = ["Pacific/Kiritimati", "America/Adak", "UTC", "Asia/Kathmandu"].map((zone) => {
      process.env.TZ = zone;
      // A fresh format each time: nothing cached from another zone.
      return value(
        format.date("d MMM yyyy HH:mm", { timeZone: "Europe/Berlin" }).apply("2026-03-02T23:30:00Z", {}),
      );
    });
    expect(new Set(results)).toEqual(new Set(["3 Mar 2026 00:30"]));
  });

  it("a whole decision does not depend on the machine's time zone", () => {
    const ticket = clinicTicket();
    const texts = ["Pacific/Kiritimati", "America/Adak"].map((zone) => {
      process.env.TZ = zone;
      return expectSend(catalog.decide(reminderProposal(ticket), ticket)).message.text;
    });
    expect(texts[0]).toBe(texts[1]);
    expect(texts[0]).toContain("2 Mar 2026 at 10:30");
  });

  it.each([
    ["an unknown zone", () => format.date("d MMM yyyy", { timeZone: "Europe/Atlantis" })],
    ["an empty zone", () => format.date("d MMM yyyy", { timeZone: "" })],
    ["an unquoted letter", () => format.date("d MMM yyyy Uhr", { timeZone: "UTC" })],
    ["a week-numbering year", () => format.date("YYYY-MM-dd", { timeZone: "UTC" })],
  ])("%s: the format reports its problem and formats nothing", (_name, define) => {
    const broken = define();
    expect(broken.problem).toMatch(/format\.date/);
    problem(broken.apply("2026-03-02T09:30:00Z", {}));
  });
});

describe("format.money", () => {
  it.each<[Parameters<typeof format.money>[0], unknown, Record<string, unknown>, RegExp]>([
    [{ currency: "EUR" }, 129.5, {}, /^€129\.50$/],
    [{ currency: "EUR", minorUnits: true }, 4550, {}, /^€45\.50$/],
    [{ currencyField: "currency" }, 10, { currency: "USD" }, /^\$10\.00$/],
    [{ currencyField: "currency" }, 10, { currency: "usd" }, /^\$10\.00$/],
    [{ currency: "EUR", locale: "de-DE" }, 1234.5, {}, /^1\.234,50\s€$/],
    [{ currency: "JPY" }, 1200, {}, /^¥1,200$/],
    [{ currency: "EUR" }, "12.5", {}, /^€12\.50$/],
    [{ currency: "EUR" }, -3, {}, /^-€3\.00$/],
  ])("%j formats %j", (options, amount, record, expected) => {
    expect(value(format.money(options).apply(amount, record))).toMatch(expected);
  });

  it.each<[string, unknown, Record<string, unknown>]>([
    ["a comma decimal", "12,5", { currency: "EUR" }],
    ["an exponent", "1e3", { currency: "EUR" }],
    ["NaN", Number.NaN, { currency: "EUR" }],
    ["Infinity", Number.POSITIVE_INFINITY, { currency: "EUR" }],
    ["a missing currency field", 10, {}],
    ["a currency that is not ISO 4217", 10, { currency: "EURO" }],
    ["a currency with markup", 10, { currency: "<b>" }],
  ])("rejects %s", (_name, amount, record) => {
    problem(format.money({ currencyField: "currency" }).apply(amount, record));
  });

  it("an unknown fixed currency makes a format that reports its problem and formats nothing", () => {
    const broken = format.money({ currency: "XYZW" });
    expect(broken.problem).toMatch(/XYZW/);
    problem(broken.apply(10, {}));
  });

  it("a record with a bad currency escalates slot_rejected", () => {
    const bad = clinicTicket({ appointments: [booked, { ...cancelled, currency: "€€€" }] });
    const decision = catalog.decide(
      {
        template: "cancellation_notice",
        slots: { appointment: catalog.handles(bad).get("appointments", "A-2") },
      },
      bad,
    );
    expectEscalation(decision, "slot_rejected");
  });
});

describe("format.number", () => {
  it("formats finite numbers with the locale", () => {
    expect(value(format.number().apply(1234.5, {}))).toBe("1,234.5");
    expect(value(format.number({ locale: "de-DE" }).apply(1234.5, {}))).toBe("1.234,5");
  });

  it.each<[unknown]>([["12"], [Number.NaN], [null]])("rejects %j", (raw) => {
    problem(format.number().apply(raw, {}));
  });
});
