import { describe, expect, it } from "vitest";
import { createCatalog, DefinitionError } from "../../../src/index.js";
import {
  refundCatalog,
  refundProposal,
  refundRecords,
  refundTemplate,
  refundTicket,
} from "../../fixtures/refunds.js";

const eur = {
  values: ["refund.amount", "other.amount"],
  max: { EUR: { message: 200 }, USD: { message: 100 } },
};

function decideWith(ceilings: Parameters<typeof refundCatalog>[0], refund = {}, other = {}) {
  const catalog = refundCatalog(ceilings);
  const ticket = refundTicket("T-1", refund, other);
  return catalog.decide(refundProposal(catalog, ticket), ticket);
}

describe("value ceilings: what one message adds", () => {
  it("sums a message's amounts in whole minor units, never floats: 0.1 + 0.2 is 30 cents", () => {
    const decision = decideWith({ refunds: eur }, { amount: 0.1 }, { amount: 0.2 });
    expect(decision).toMatchObject({
      outcome: "send",
      spend: [{ ceiling: "refunds", currency: "EUR", units: 30 }],
    });
  });

  it("keeps currencies apart: EUR 150 and USD 60 are two sums, each under its own maximum", () => {
    const decision = decideWith({ refunds: eur }, { amount: 150 }, { amount: 60, currency: "usd" });
    expect(decision.outcome).toBe("send");
    expect(decision.outcome === "send" && decision.spend).toEqual([
      { ceiling: "refunds", group: "refund_notice.refunds", currency: "EUR", units: 15_000 },
      { ceiling: "refunds", group: "refund_notice.refunds", currency: "USD", units: 6_000 },
    ]);
  });

  it("goes over the per-message maximum when the same currency adds up: limit_exceeded with typed fields, no draft", () => {
    const decision = decideWith({ refunds: eur }, { amount: 150 }, { amount: "60.01" });
    expect(decision).toMatchObject({
      outcome: "escalate",
      reason: "limit_exceeded",
      limit: "ceiling",
      ceiling: "refunds",
      group: "refund_notice.refunds",
      window: "message",
      currency: "EUR",
      max: 200,
      spent: 0,
      amount: 210.01,
    });
    expect(decision).not.toHaveProperty("draft");
    // Exactly at the maximum passes.
    expect(decideWith({ refunds: eur }, { amount: 150 }, { amount: "50.00" }).outcome).toBe("send");
  });

  it("refuses a currency the ceiling does not list, even with over: approval: max 0 of that currency", () => {
    for (const over of ["escalate", "approval"] as const) {
      const decision = decideWith({ refunds: { ...eur, over } }, { amount: 1, currency: "GBP" });
      expect(decision).toMatchObject({
        reason: "limit_exceeded",
        limit: "ceiling",
        currency: "GBP",
        max: 0,
        amount: 1,
      });
    }
  });

  it("with over: approval, a message over its maximum waits for a person with its draft and what it adds", () => {
    const decision = decideWith({ refunds: { ...eur, over: "approval" } }, { amount: 250 });
    expect(decision).toMatchObject({
      outcome: "escalate",
      reason: "approval_required",
      ceiling: { ceiling: "refunds", window: "message", currency: "EUR", max: 200, amount: 251 },
      spend: [{ currency: "EUR", units: 25_100 }],
    });
    expect(decision).toHaveProperty("draft");
  });

  it("reads minor units as the format shows them: cents of EUR, JPY without decimals, KWD with three", () => {
    const cents = {
      refunds: {
        values: ["refund.cents"],
        max: { EUR: { message: 200 }, JPY: { message: 10_000 }, KWD: { message: 100 } },
      },
    };
    expect(decideWith(cents, { cents: 19_999 })).toMatchObject({
      outcome: "send",
      spend: [{ units: 19_999 }],
    });
    expect(decideWith(cents, { cents: 20_001 })).toMatchObject({
      reason: "limit_exceeded",
      max: 200,
      amount: 200.01,
    });
    // Minor units are the currency's own: 500 minor units of JPY are ¥500 (yen have no decimals), and
    // 1234 of KWD are 1.234 (fils, thousandths).
    const jpy = decideWith(cents, { cents: 500, currency: "JPY" });
    expect(jpy).toMatchObject({ spend: [{ currency: "JPY", units: 500 }] });
    expect(jpy.outcome === "send" && jpy.message.text).toContain("¥500");
    const kwd = decideWith(cents, { cents: 1234, currency: "KWD" });
    expect(kwd).toMatchObject({ spend: [{ currency: "KWD", units: 1234 }] });
    expect(kwd.outcome === "send" && kwd.message.text).toContain("1.234");
    const major = {
      refunds: { values: ["refund.amount"], max: { JPY: { message: 10_000 }, KWD: { message: 100 } } },
    };
    expect(decideWith(major, { amount: 9_999, currency: "JPY" })).toMatchObject({
      spend: [{ units: 9_999 }],
    });
    expect(decideWith(major, { amount: 1.234, currency: "KWD" })).toMatchObject({ spend: [{ units: 1234 }] });
    // A fraction finer than the currency's minor unit is rounded to the nearest unit, as the message shows it.
    const half = decideWith(major, { amount: 0.5, currency: "JPY" });
    expect(half).toMatchObject({ spend: [{ units: 1 }] });
    expect(half.outcome === "send" && half.message.text).toContain("¥1");
    const under = decideWith(major, { amount: 1.2344, currency: "KWD" });
    expect(under).toMatchObject({ spend: [{ units: 1234 }] });
    expect(under.outcome === "send" && under.message.text).toContain("1.234");
  });

  it("sums plain numbers in millionths, with their own maxima", () => {
    const pieces = { pieces: { values: ["refund.pieces", "other.pieces"], max: { message: 10 } } };
    expect(decideWith(pieces, { pieces: 2.5 }, { pieces: 7.5 })).toMatchObject({
      spend: [{ currency: "", units: 10_000_000 }],
    });
    // The format shows three decimals (Intl's default): 7.5004 shows as 7.5 and counts as 7.5.
    expect(decideWith(pieces, { pieces: 2.5 }, { pieces: 7.5004 })).toMatchObject({ outcome: "send" });
    expect(decideWith(pieces, { pieces: 2.5 }, { pieces: 7.5005 })).toMatchObject({
      reason: "limit_exceeded",
      limit: "ceiling",
      window: "message",
      max: 10,
      amount: 10.001,
    });
    expect(decideWith(pieces, { pieces: 2.5 }, { pieces: 7.5005 })).not.toHaveProperty("currency");
  });

  it("rejects hostile amounts with a typed reason, never sums or throws: NaN, negative, 1e308, Infinity, strings, objects", () => {
    const hostile: unknown[] = [
      Number.NaN,
      -5,
      -0.01,
      1e308,
      Number.POSITIVE_INFINITY,
      "abc",
      "1e3",
      "-3",
      {},
      [],
      null,
      "9".repeat(40),
      2 ** 60,
      1e-9,
    ];
    for (const amount of hostile) {
      const decision = decideWith({ refunds: eur }, { amount });
      expect(decision.outcome, String(amount)).toBe("escalate");
      if (decision.outcome === "escalate") {
        expect(decision.reason, String(amount)).toBe("slot_rejected");
        expect(decision).toMatchObject({ slot: "refund", field: "amount" });
      }
    }
    for (const cents of [1.5e300, Number.NaN, -1, "12x"]) {
      const decision = decideWith(
        { refunds: { values: ["refund.cents"], max: { EUR: { day: 1 } } } },
        { cents },
      );
      expect(decision).toMatchObject({
        outcome: "escalate",
        reason: "slot_rejected",
        slot: "refund",
        field: "cents",
      });
    }
    // Zero (even -0) adds nothing: only the other refund's EUR 1 is summed.
    expect(decideWith({ refunds: eur }, { amount: -0 })).toMatchObject({
      outcome: "send",
      spend: [{ units: 100 }],
    });
  });

  it("sums never leave safe integers: two large values that each fit, but not together, are rejected", () => {
    const big = { refunds: { values: ["refund.amount", "other.amount"], max: { EUR: { day: 1 } } } };
    const decision = decideWith(big, { amount: 50_000_000_000_000 }, { amount: 50_000_000_000_000 });
    expect(decision).toMatchObject({ outcome: "escalate", reason: "slot_rejected", slot: "other" });
  });
});

describe("value ceilings: definition errors name template, ceiling, value and fix", () => {
  const cases: [string, unknown, RegExp][] = [
    [
      "an unknown tag",
      { r: { values: ["refund.total"], max: { EUR: { day: 1 } } } },
      /ceiling "r": value "refund.total" is not a shown value.*refund\.amount/,
    ],
    [
      "a text value",
      { r: { values: ["refund"], max: { EUR: { day: 1 } } } },
      /value "refund" is not a shown value/,
    ],
    ["no values", { r: { values: [], max: { EUR: { day: 1 } } } }, /values must list/],
    [
      "a lower-case currency",
      { r: { values: ["refund.amount"], max: { eur: { day: 1 } } } },
      /"eur" is not an ISO 4217 currency code/,
    ],
    [
      "a made-up currency",
      { r: { values: ["refund.amount"], max: { EURO: { day: 1 } } } },
      /"EURO" is not an ISO 4217/,
    ],
    [
      "a negative maximum",
      { r: { values: ["refund.amount"], max: { EUR: { day: -1 } } } },
      /ceiling "r", EUR: max.day must be a positive finite amount/,
    ],
    [
      "an infinite maximum",
      { r: { values: ["refund.amount"], max: { EUR: { hour: Number.POSITIVE_INFINITY } } } },
      /max.hour must be a positive finite/,
    ],
    [
      "a NaN maximum",
      { r: { values: ["refund.amount"], max: { EUR: { message: Number.NaN } } } },
      /max.message must be a positive finite/,
    ],
    ["a zero maximum", { r: { values: ["refund.amount"], max: { EUR: { day: 0 } } } }, /positive finite/],
    [
      "a maximum below one minor unit",
      { r: { values: ["refund.amount"], max: { EUR: { day: 0.001 } } } },
      /at least one minor unit/,
    ],
    [
      "a string maximum",
      { r: { values: ["refund.amount"], max: { EUR: { day: "100" } } } },
      /positive finite/,
    ],
    [
      "an unknown window",
      { r: { values: ["refund.amount"], max: { EUR: { week: 1 } } } },
      /"week" is not a window/,
    ],
    [
      "no window",
      { r: { values: ["refund.amount"], max: { EUR: {} } } },
      /at least one of message, hour, day/,
    ],
    ["no currency", { r: { values: ["refund.amount"], max: {} } }, /max needs a currency/],
    [
      "money and numbers mixed",
      { r: { values: ["refund.amount", "refund.pieces"], max: { EUR: { day: 1 } } } },
      /sum money and numbers in separate ceilings/,
    ],
    [
      "a bad over",
      { r: { values: ["refund.amount"], max: { EUR: { day: 1 } }, over: "ignore" } },
      /over must be "escalate" or "approval"/,
    ],
    [
      "a bad group",
      { r: { values: ["refund.amount"], max: { EUR: { day: 1 } }, group: "Bad Group" } },
      /group must be/,
    ],
    [
      "a number ceiling by currency",
      { r: { values: ["refund.pieces"], max: { EUR: { day: 1 } } } },
      /"EUR" is not a window/,
    ],
  ];
  for (const [what, ceilings, message] of cases) {
    it(`refuses ${what}`, () => {
      const define = () => refundTemplate(ceilings as never);
      expect(define).toThrow(DefinitionError);
      expect(define).toThrow(/template "refund_notice"/);
      expect(define).toThrow(message);
    });
  }

  it("refuses a group two templates share with different maxima, naming both", () => {
    const shared = (day: number, id: string) =>
      refundTemplate(
        { refunds: { values: ["refund.amount"], max: { EUR: { day } }, group: "refunds" } },
        { id },
      );
    expect(() =>
      createCatalog(refundRecords, [shared(100, "refund_a"), shared(100, "refund_b")]),
    ).not.toThrow();
    const mismatch = () => createCatalog(refundRecords, [shared(100, "refund_a"), shared(200, "refund_b")]);
    expect(mismatch).toThrow(DefinitionError);
    expect(mismatch).toThrow(
      /template "refund_b": ceiling "refunds" shares group "refunds" with ceiling "refunds" of template "refund_a" but declares other maxima/,
    );
  });
});

describe("value ceilings and the catalog version", () => {
  it("changes with a ceiling's maxima, and stays put for a template without ceilings", () => {
    const version = (day: number) =>
      createCatalog(refundRecords, [
        refundTemplate({ r: { values: ["refund.amount"], max: { EUR: { day } } } }),
      ]).version;
    expect(version(100)).toBe(version(100));
    expect(version(100)).not.toBe(version(200));
    expect(createCatalog(refundRecords, [refundTemplate(undefined)]).version).not.toBe(version(100));
  });
});
