import { createCatalog, defineRecords, defineTemplate } from "formletter";
import { z } from "zod";

const records = defineRecords(
  { orders: z.object({ id: z.string(), number: z.string(), sellerId: z.string() }), sellers: z.object({ id: z.string(), email: z.email() }) },
  { labels: { orders: (order) => `order ${order.number}` } },
);
const catalog = createCatalog(records, [defineTemplate(records, {
  effect: "informational",
  id: "tracking_request", description: "Ask the seller for an order's tracking number", audience: "seller", channel: "email",
  to: records.slot.ref("sellers", { show: "email", match: { id: "order.sellerId" } }), limits: { perTicket: 1, perDay: 500 },
  subject: "Order {{order}}", body: "Please send us the tracking number of order {{order}}.",
  slots: { order: records.slot.ref("orders", { show: "number" }) },
})]);
const ticket = { ticketId: "T-1", orders: [{ id: "o1", number: "4471-2290", sellerId: "s7" }], sellers: [{ id: "s7", email: "Shop@Example.com" }] };
const order = catalog.handles(ticket).get("orders", "o1"); // stands in for the model's choice: a handle, never an id
console.log(catalog.decide({ template: "tracking_request", slots: { order } }, ticket));
