import { describe, expect, it } from "vitest";
import { z } from "zod";
import { joinKeyOf, sameKey } from "../../../src/core/definition/slot-rules.js";
import { createCatalog, defineRecords, defineTemplate, format } from "../../../src/index.js";
import { expectEscalation, expectSend } from "../../fixtures/expect.js";

// One key written as a number in one export and as a string in another: `pets.ownerId: 4242` and
// `owners.key: "4242"` (and the reverse). A join must find it, and nothing near it. The fields take any
// value, so hostile ones reach the join.
const records = defineRecords({
  owners: z.object({ id: z.string(), key: z.unknown(), email: z.email() }),
  pets: z.object({ id: z.string(), ownerId: z.unknown(), name: z.string() }),
});

function catalogOf() {
  const slot = records.slot;
  return createCatalog(records, [
    defineTemplate(records, {
      id: "pet_ready",
      description: "The pet is ready to be picked up",
      audience: "owner",
      channel: "email",
      effect: "informational",
      to: slot.ref("owners", { show: "email", as: format.email(), match: { key: "pet.ownerId" } }),
      subject: "Your pet",
      body: "{{pet}} is ready.",
      slots: { pet: slot.ref("pets", { show: "name" }) },
      limits: { perTicket: 1, perDay: 10 },
    }),
  ]);
}

const ticket = (owners: unknown[], ownerId: unknown) => ({
  ticketId: "T-1",
  owners,
  pets: [{ id: "p1", ownerId, name: "Filou" }],
});

describe("sameKey: one key written as a number and as a string", () => {
  it("a safe integer and its decimal string are one key, either way round", () => {
    expect(sameKey(42, "42")).toBe(true);
    expect(sameKey("42", 42)).toBe(true);
    expect(sameKey(-7, "-7")).toBe(true);
    expect(sameKey(0, "0")).toBe(true);
    expect(sameKey("abc", "abc")).toBe(true);
  });

  it("near keys are other keys", () => {
    for (const near of [" 42", "42 ", "042", "+42", "42.0", "4.2e1", "0x2A", "42\u200b", "４２", ""])
      expect([near, sameKey(42, near), sameKey(near, 42)]).toEqual([near, false, false]);
    expect(sameKey(1000, "1e3")).toBe(false);
    expect(sameKey(true, "true")).toBe(false);
    expect(sameKey(1, true)).toBe(false);
    expect(sameKey(Number.NaN, "NaN")).toBe(false);
    expect(sameKey(Number.NaN, Number.NaN)).toBe(false);
    expect(sameKey(Number.POSITIVE_INFINITY, "Infinity")).toBe(false);
    expect(sameKey(4.5, "4.5")).toBe(false);
    expect(sameKey(null, "null")).toBe(false);
    expect(sameKey(undefined, "undefined")).toBe(false);
    // Past 2^53 a number no longer holds its digits: "9007199254740993" is read as …992.
    expect(sameKey(2 ** 53, "9007199254740992")).toBe(false);
    expect(sameKey(2 ** 53, "9007199254740993")).toBe(false);
    expect(sameKey(1e21, "1e+21")).toBe(false);
    expect(sameKey("a", "A")).toBe(false);
  });

  it("the lookup key agrees with sameKey", () => {
    expect(joinKeyOf(42)).toBe(joinKeyOf("42"));
    expect(joinKeyOf(2 ** 53)).not.toBe(joinKeyOf(String(2 ** 53)));
    expect(joinKeyOf(" 42")).not.toBe(joinKeyOf(42));
    expect(joinKeyOf(true)).toBe(true);
  });
});

describe("match joins a number to its decimal string, and to nothing near it", () => {
  for (const [name, ownerIdOf, petOwnerId] of [
    ["number → string", (id: string) => id, 4242],
    ["string → number", (id: string) => Number(id), "4242"],
  ] as const) {
    it(`${name}: the recipient is the pet's owner, the one record the join allows`, () => {
      const catalog = catalogOf();
      const records2 = ticket(
        [
          { id: "o1", key: ownerIdOf("4241"), email: "other@example.org" },
          { id: "o2", key: ownerIdOf("4242"), email: "owner@example.org" },
        ],
        petOwnerId,
      );
      const sent = expectSend(catalog.decide({ template: "pet_ready" }, records2));
      expect(sent.message.to).toBe("owner@example.org");
      // The model's tools offer the template: the joined recipient is found by lookup too.
      expect(catalog.tools(records2, { provider: "openai", cache: "ticket" }).templates).toEqual([
        "pet_ready",
      ]);
    });
  }

  it("owners whose ids only look like the pet's ownerId are never its owner", () => {
    const catalog = catalogOf();
    for (const near of [" 4242", "4242 ", "04242", "+4242", "4242.0", "4.242e3", "0x1092", "４２４２"]) {
      const records2 = ticket([{ id: "o1", key: near, email: "stranger@example.org" }], 4242);
      expectEscalation(catalog.decide({ template: "pet_ready" }, records2), "slot_rejected");
      expect(catalog.tools(records2, { provider: "openai", cache: "ticket" }).templates).toEqual([]);
    }
  });

  it("a string id never joins a number that is not exactly its key", () => {
    const catalog = catalogOf();
    for (const [key, petOwnerId] of [
      [Number.NaN, "NaN"],
      [1e21, "1e+21"],
      [2 ** 53 + 2, "9007199254740993"],
      [4242.5, "4242.5"],
      [true, "true"],
      [Number.POSITIVE_INFINITY, "Infinity"],
    ] as const) {
      const records2 = ticket([{ id: "o1", key, email: "stranger@example.org" }], petOwnerId);
      expectEscalation(catalog.decide({ template: "pet_ready" }, records2), "slot_rejected");
    }
  });
});
