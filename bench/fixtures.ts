/** A small catalog and ticket factory for the runtime benchmarks: limits high enough never to bind. */
import { createCatalog, defineRecords, defineTemplate } from "formletter";
import { z } from "zod";

export const records = defineRecords(
  {
    orders: z.object({ id: z.string(), number: z.string(), sellerId: z.string() }),
    items: z.object({ id: z.string(), orderId: z.string(), title: z.string() }),
    sellers: z.object({ id: z.string(), email: z.email() }),
  },
  { labels: { orders: (order) => `order ${order.number}`, items: (item) => item.title } },
);

const { slot } = records;

const templates = [
  defineTemplate(records, {
    id: "tracking_request",
    description: "Ask the seller for the tracking number of an order",
    audience: "seller",
    effect: "informational",
    channel: "email",
    to: slot.ref("sellers", { show: "email", match: { id: "order.sellerId" } }),
    subject: "Tracking requested for order {{order}}",
    body: "Hello,\n\nthe buyer of order {{order}} cannot follow the parcel containing {{item}}.\nPlease add the carrier and tracking number in your dashboard.\n\nMarketplace Buyer Support",
    slots: {
      order: slot.ref("orders", { show: "number" }),
      item: slot.ref("items", { show: "title", match: { orderId: "order.id" } }),
    },
    limits: { perTicket: 1, perDay: 100_000_000 },
  }),
];

export const catalog = createCatalog(records, templates);

/**
 * The same catalog as the model's side of a deployment has it (an agent process making tools): tickets
 * made with it leave `catalog`'s handle cache cold, so handle() computes handles as it would for a
 * ticket it has not seen.
 */
export const modelCatalog = createCatalog(records, templates);

/** The records of ticket number `n`, and the proposal a model would make for it (handles from `side`). */
export function ticket(n: number, side = catalog) {
  const ticketId = `T-${n}`;
  const records = {
    ticketId,
    orders: [
      { id: `o${n}`, number: `${4400 + (n % 100)}-${String(n).padStart(4, "0")}`, sellerId: `s${n % 50}` },
    ],
    items: [{ id: `i${n}`, orderId: `o${n}`, title: "Brass desk lamp with linen shade" }],
    sellers: [{ id: `s${n % 50}`, email: `shop${n % 50}@example.com` }],
  };
  const handles = side.handles(records);
  const output = { template: "tracking_request", slots: { order: handles.get("orders", `o${n}`) } };
  return { ticketId, records, output };
}
