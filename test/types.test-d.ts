import { describe, expectTypeOf, test } from "vitest";
import { z } from "zod";
import {
  type Catalog,
  createCatalog,
  type Decision,
  defineRecords,
  defineTemplate,
  type EscalationReason,
  format,
  type RecordOf,
  type SendDecision,
  type TemplateConfig,
} from "../src/index.js";

// A small travel-agency schema, unrelated to the clinic fixture.
const schemas = {
  trips: z.object({
    id: z.string(),
    destination: z.string(),
    nights: z.number(),
    departsOn: z.string().optional(),
    travellerId: z.string(),
  }),
  travellers: z.object({ id: z.string(), name: z.string(), email: z.email(), vip: z.boolean() }),
};
const records = defineRecords(schemas, {
  labels: {
    trips: (trip) => {
      expectTypeOf(trip.nights).toEqualTypeOf<number>();
      return `trip to ${trip.destination}`;
    },
  },
});
const { slot } = records;

type Trip = z.output<typeof schemas.trips>;
type Traveller = z.output<typeof schemas.travellers>;

describe("record types are inferred from the zod schemas", () => {
  test("RecordOf is the schema's output type", () => {
    expectTypeOf<RecordOf<typeof schemas, "trips">>().toEqualTypeOf<Trip>();
    expectTypeOf<RecordOf<typeof schemas, "travellers">>().toEqualTypeOf<Traveller>();
  });

  test("where receives the record of its own collection and the typed ticket view", () => {
    slot.ref("trips", {
      show: "destination",
      where: (trip, context) => {
        expectTypeOf(trip).toEqualTypeOf<Trip>();
        expectTypeOf(trip.nights).toBeNumber();
        expectTypeOf(trip.departsOn).toEqualTypeOf<string | undefined>();
        expectTypeOf(context.records.travellers).toEqualTypeOf<readonly Traveller[]>();
        expectTypeOf(context.ticketId).toBeString();
        return trip.nights > 2;
      },
    });
    slot.ref("travellers", {
      show: "email",
      where: (traveller) => {
        expectTypeOf(traveller).toEqualTypeOf<Traveller>();
        expectTypeOf(traveller.vip).toBeBoolean();
        return traveller.vip;
      },
    });
  });

  test("derived receives the typed ticket view", () => {
    slot.derived(
      ({ records: view }) => {
        expectTypeOf(view.trips).toEqualTypeOf<readonly Trip[]>();
        return view.trips.reduce((sum, trip) => sum + trip.nights, 0);
      },
      { as: format.number() },
    );
  });

  test("a choice slot keeps its keys", () => {
    const board = slot.choice({ half: "half board", full: "full board" });
    expectTypeOf(board.choices).toEqualTypeOf<Readonly<Record<"half" | "full", string>>>();
  });

  test("decide returns the Decision union, narrowed by outcome", () => {
    const template = defineTemplate(records, {
      id: "trip_confirmation",
      description: "Confirm a trip",
      audience: "traveller",
      effect: "informational",
      channel: "email",
      to: slot.ref("travellers", { show: "email" }),
      subject: "Your trip",
      body: "Your trip to {{trip}} is booked.",
      slots: { trip: slot.ref("trips", { show: "destination" }) },
      limits: { perTicket: 1, perDay: 100 },
    });
    const catalog = createCatalog(records, [template]);
    expectTypeOf(catalog).toEqualTypeOf<Catalog<typeof schemas>>();
    const decision = catalog.decide("{}", { ticketId: "T-1" });
    expectTypeOf(decision).toEqualTypeOf<Decision>();
    if (decision.outcome === "send") {
      expectTypeOf(decision).toEqualTypeOf<SendDecision>();
      expectTypeOf(decision.message.to).toBeString();
    } else {
      expectTypeOf(decision.reason).toEqualTypeOf<EscalationReason>();
      expectTypeOf(decision.hint).toEqualTypeOf<string | undefined>();
    }
  });
});

describe("misuse is a compile error", () => {
  test("a ref to a collection that does not exist", () => {
    // @ts-expect-error "hotels" is not a collection of these records
    slot.ref("hotels", { show: "name" });
  });

  test("show naming a field that does not exist", () => {
    // @ts-expect-error trips have no "price"
    slot.ref("trips", { show: "price" });
    slot.ref("trips", {
      // @ts-expect-error named fields must exist too
      show: { where: "destination", cost: "price" },
    });
  });

  test("where reading a field the record does not have", () => {
    slot.ref("trips", {
      show: "destination",
      // @ts-expect-error trips have no "price"
      where: (trip) => trip.price > 100,
    });
  });

  test("match naming a field the record does not have", () => {
    // @ts-expect-error travellers have no "tripId"
    slot.ref("travellers", { show: "name", match: { tripId: "trip.travellerId" } });
  });

  test("there is no free-text slot kind", () => {
    // @ts-expect-error no slot.text: the model can only choose
    slot.text();
  });

  test("a template without limits, or on an unknown channel", () => {
    const base = {
      id: "x",
      description: "x",
      audience: "traveller",
      to: slot.ref("travellers", { show: "email" }),
      subject: "x",
      body: "x",
    } as const;
    // @ts-expect-error limits are required
    const noLimits: TemplateConfig = { ...base, channel: "email" };
    // @ts-expect-error "fax" is not a channel
    const fax: TemplateConfig = { ...base, channel: "fax", limits: { perTicket: 1, perDay: 1 } };
    expectTypeOf(noLimits).toEqualTypeOf<TemplateConfig>();
    expectTypeOf(fax).toEqualTypeOf<TemplateConfig>();
  });

  test("a records label for a collection that does not exist", () => {
    // @ts-expect-error no collection "hotels"
    defineRecords(schemas, { labels: { hotels: () => "x" } });
  });
});
