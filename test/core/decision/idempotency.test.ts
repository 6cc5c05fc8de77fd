import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { idempotencyKey } from "../../../src/core/decision/idempotency.js";
import {
  createCatalog,
  createOutbox,
  defineRecords,
  defineTemplate,
  memoryStore,
  memoryTransport,
} from "../../../src/index.js";
import { propertyRuns } from "../../fixtures/property-runs.js";

// A courier firm telling a depot which parcel to hold; a ticket may gain parcels while it is open.
const records = defineRecords(
  {
    parcels: z.object({ id: z.string(), ref: z.string() }),
    depots: z.object({ id: z.string(), email: z.email() }),
  },
  { maxPerCollection: 5000 },
);
const { slot } = records;
const catalog = createCatalog(records, [
  defineTemplate(records, {
    id: "hold_parcel",
    description: "Ask the depot to hold a parcel",
    audience: "depot",
    effect: "informational",
    channel: "email",
    to: slot.ref("depots", { show: "email" }),
    subject: "Hold {{parcel}}",
    body: "Please hold parcel {{parcel}} ({{urgency}}).",
    slots: {
      parcel: slot.ref("parcels", { show: "ref" }),
      urgency: slot.choice({ today: "today", week: "this week" }),
    },
    limits: { perTicket: 10, perDay: 100 },
  }),
]);

const parcel = (id: string) => ({ id, ref: `R${id.replace(/\D/g, "")}` });
const depots = [{ id: "D-1", email: "hold@depot.example.com" }];

/** Two parcel ids whose four-digit handles collide, found among many: adding one lengthens the other's. */
function collidingIds(): [string, string] {
  const ids = Array.from({ length: 4000 }, (_, index) => `P-${index}`);
  const table = catalog.handles({ ticketId: "T-1", parcels: ids.map(parcel), depots });
  const long = table.entries.filter((entry) => entry.collection === "parcels" && entry.handle.length > 6);
  const first = long[0];
  const twin = long.find(
    (entry) => entry !== first && entry.handle.slice(0, 6) === first?.handle.slice(0, 6),
  );
  if (first === undefined || twin === undefined) throw new Error("fixture: no colliding handles found");
  return [first.id, twin.id];
}

describe("idempotency keys name records, not handles", () => {
  const [kept, added] = collidingIds();
  const before = { ticketId: "T-1", parcels: [parcel(kept)], depots };
  const after = { ticketId: "T-1", parcels: [parcel(kept), parcel(added)], depots };
  const handleOf = (ticket: typeof before) => catalog.handles(ticket).get("parcels", kept) ?? "";
  const propose = (ticket: typeof before) => ({
    template: "hold_parcel",
    slots: { parcel: handleOf(ticket), urgency: "today" },
  });

  it("adding a record that collides changes the chosen record's handle", () => {
    expect(handleOf(after)).not.toBe(handleOf(before));
    expect(handleOf(after).startsWith(handleOf(before))).toBe(true);
  });

  it("the same message gets the same key before and after a record is added", () => {
    const first = catalog.decide(propose(before), before);
    const second = catalog.decide(propose(after), after);
    expect(first.outcome).toBe("send");
    expect(second.outcome).toBe("send");
    expect(second.key).toBe(first.key);
  });

  it("an outbox that sent the message does not send it again once the ticket gains a record", async () => {
    let current = before;
    const transport = memoryTransport();
    const outbox = createOutbox({
      catalog,
      load: () => current,
      store: memoryStore(),
      transports: { email: transport },
    });
    try {
      const sent = await outbox.handle({ ticketId: "T-1", output: propose(before), runId: "run-1" });
      current = after;
      const again = await outbox.handle({ ticketId: "T-1", output: propose(after), runId: "run-2" });
      expect(sent.duplicate).toBe(false);
      expect(again.duplicate).toBe(true);
      expect(transport.sent).toHaveLength(1);
    } finally {
      await outbox.close();
    }
  });

  it("another record or another choice key is another key", () => {
    const other = catalog.decide(
      {
        template: "hold_parcel",
        slots: { parcel: catalog.handles(after).get("parcels", added), urgency: "today" },
      },
      after,
    );
    const later = catalog.decide(
      { template: "hold_parcel", slots: { parcel: handleOf(after), urgency: "week" } },
      after,
    );
    const first = catalog.decide(propose(after), after);
    expect(new Set([first.key, other.key, later.key]).size).toBe(3);
  });

  it("idempotencyKey() gives decide()'s key from the records' collection and id", () => {
    const decision = catalog.decide(propose(after), after);
    expect(
      idempotencyKey("T-1", "hold_parcel", {
        urgency: "today",
        parcel: { collection: "parcels", id: kept },
        to: { collection: "depots", id: "D-1" },
      }),
    ).toBe(decision.key);
  });
});

describe("idempotency keys are opaque and cannot collide by concatenation", () => {
  it("are fl_ and 32 hex digits, whatever the inputs' lengths", () => {
    for (const id of ["", "x", "y".repeat(10_000)]) {
      expect(idempotencyKey(`T${id}`, `t${id}`, { a: id, b: { collection: "c", id } })).toMatch(
        /^fl_[0-9a-f]{32}$/,
      );
    }
  });

  // Each pair concatenates to the same text under a separator-joined encoding.
  it.each([
    ["a choice holding the separators", { a: "x\u0000b\u0001y" }, { a: "x", b: "y" }],
    ["a slot name holding them", { "a\u0001x\u0000b": "y" }, { a: "x", b: "y" }],
    ["split differently", { a: "bc" }, { ab: "c" }],
    ["a record and a key", { a: { collection: "c", id: "1" } }, { a: "c\u00001" }],
    [
      "a record split differently",
      { a: { collection: "c", id: "1/2" } },
      { a: { collection: "c/1", id: "2" } },
    ],
  ])("%s", (_, left, right) => {
    expect(idempotencyKey("T", "t", left)).not.toBe(idempotencyKey("T", "t", right));
  });

  it("a ticket id and template split differently", () => {
    expect(idempotencyKey("T\u0000t", "", {})).not.toBe(idempotencyKey("T", "t", {}));
    expect(idempotencyKey('T","t', "", {})).not.toBe(idempotencyKey("T", "t", {}));
  });

  it("different choices never share a key (property)", () => {
    const text = fc.string({
      unit: fc.constantFrom("a", "b", "\u0000", "\u0001", '"', ",", "[", "\\"),
      maxLength: 4,
    });
    const value = fc.oneof(text, fc.record({ collection: text, id: text }));
    const choices = fc.dictionary(text, value, { maxKeys: 3 });
    fc.assert(
      fc.property(
        text,
        text,
        choices,
        text,
        text,
        choices,
        (ticketA, templateA, a, ticketB, templateB, b) => {
          fc.pre(
            JSON.stringify([ticketA, templateA, sorted(a)]) !==
              JSON.stringify([ticketB, templateB, sorted(b)]),
          );
          expect(idempotencyKey(ticketA, templateA, a)).not.toBe(idempotencyKey(ticketB, templateB, b));
        },
      ),
      { numRuns: propertyRuns(2000) },
    );
  });
});

const sorted = (choices: Record<string, unknown>) =>
  Object.keys(choices)
    .sort()
    .map((name) => [name, choices[name]]);
