/** Random tickets for the three ready catalogs, small enough for a preview to decide every combination. */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import type { Catalog } from "../../../src/index.js";
import { customerCatalog } from "../../../templates/customer.js";
import { oncallCatalog } from "../../../templates/oncall.js";
import { sellerCatalog } from "../../../templates/seller.js";

type Ticket = Record<string, unknown> & { ticketId: string };

const sellerTickets: Ticket[] = readFileSync(
  new URL("../../../examples/data/tickets.jsonl", import.meta.url),
  "utf8",
)
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line).records as Ticket);

/** Up to `max` records of `pool`, unique by id, in any order. */
const some = <T extends { id: string }>(pool: readonly T[], max: number, min = 0) =>
  fc.shuffledSubarray([...pool], {
    minLength: Math.min(min, pool.length),
    maxLength: Math.min(max, pool.length),
  });

// Ids from a small set, so refs join (orderId, sellerId) as often as they miss, and odd ids do occur.
const ids = ["a", "b", "__proto__", "constructor"];
const when = fc.constantFrom("2026-03-02T09:30:00.000Z", "2026-02-27T23:59:00+01:00");
const text = fc.constantFrom(
  "Brass lamp",
  "call +49 30 1234567 now",
  "see https://evil.example/x",
  "<b>bold</b> & \u202Eevil",
  "x".repeat(300),
);

/**
 * A seller ticket: any subset of the records of one bundled ticket, its sellers always kept (they are the
 * recipients: without them no template of the catalog can send, and the property would compare nothing).
 */
const sellerTicket = fc.constantFrom(...sellerTickets).chain((ticket) =>
  fc.record({
    ticketId: fc.constant(ticket.ticketId),
    sellers: fc.constant(ticket.sellers ?? []),
    ...Object.fromEntries(
      ["orders", "items", "shipments", "buyers", "messages"].map((name) => [
        name,
        // An order and an item at least, most of the time: the records most templates are about.
        some((ticket[name] ?? []) as { id: string }[], 3, name === "orders" || name === "items" ? 1 : 0),
      ]),
    ),
  }),
);

const customerTicket = fc.record({
  ticketId: fc.constantFrom("T-1", "T-2"),
  orders: fc.uniqueArray(
    fc.record({
      id: fc.constantFrom(...ids),
      number: fc.constantFrom("4471-2290", "4471-3318"),
      status: fc.constantFrom("placed", "shipped", "delivered", "cancelled"),
      placedAt: when,
      estimatedDelivery: when,
      deliveredAt: when,
    }),
    { selector: (record) => record.id, maxLength: 2 },
  ),
  items: fc.uniqueArray(
    fc.record({ id: fc.constantFrom(...ids), orderId: fc.constantFrom(...ids), title: text }),
    { selector: (record) => record.id, maxLength: 2 },
  ),
  refunds: fc.uniqueArray(
    fc.record({
      id: fc.constantFrom(...ids),
      orderId: fc.constantFrom(...ids),
      amount: fc.constantFrom(12.5, 1999),
      currency: fc.constantFrom("EUR", "USD"),
      status: fc.constantFrom("pending", "approved", "paid"),
      destination: fc.constantFrom("the card ending 4242", "IBAN DE89 3704 0044 0532 0130 00"),
    }),
    { selector: (record) => record.id, maxLength: 2 },
  ),
  addresses: fc.uniqueArray(
    fc.record({
      id: fc.constantFrom(...ids),
      email: fc.constantFrom("ana@example.com", "Bo@Example.org"),
      source: fc.constantFrom("thread", "account"),
      verified: fc.boolean(),
    }),
    { selector: (record) => record.id, maxLength: 3 },
  ),
  messages: fc.uniqueArray(fc.record({ id: fc.constantFrom(...ids), sentAt: when, body: text }), {
    selector: (record) => record.id,
    maxLength: 2,
  }),
});

const oncallTicket = fc.record({
  ticketId: fc.constantFrom("T-1", "T-2"),
  tickets: fc.uniqueArray(
    fc.record({
      id: fc.constantFrom(...ids),
      number: fc.constantFrom("SUP-20418", "SUP-1"),
      priority: fc.constantFrom("low", "urgent"),
      queue: fc.constantFrom("payments", "orders", "accounts", "trust_safety"),
      openedAt: when,
      subject: text,
    }),
    { selector: (record) => record.id, maxLength: 3 },
  ),
  rotation: fc.uniqueArray(
    fc.record({
      id: fc.constantFrom(...ids),
      name: fc.constantFrom("Ana", "Bo"),
      email: fc.constantFrom("ana@example.com", "oncall@Example.org"),
      phone: fc.constantFrom("+49 151 23456789", "030 1234567", "not a phone"),
      onCall: fc.boolean(),
      role: fc.constantFrom("primary", "secondary"),
    }),
    { selector: (record) => record.id, maxLength: 3 },
  ),
});

/** The three ready catalogs, each with an arbitrary of its tickets. */
export const readyCatalogs: readonly (readonly [string, Catalog, fc.Arbitrary<Ticket>])[] = [
  ["seller", sellerCatalog as unknown as Catalog, sellerTicket as fc.Arbitrary<Ticket>],
  ["customer", customerCatalog as unknown as Catalog, customerTicket],
  ["on-call", oncallCatalog as unknown as Catalog, oncallTicket],
];

/** The largest bundled seller ticket, by the size of its records. */
export function largestSellerTicket(): Ticket {
  return sellerTickets.reduce((largest, ticket) =>
    JSON.stringify(ticket).length > JSON.stringify(largest).length ? ticket : largest,
  );
}
