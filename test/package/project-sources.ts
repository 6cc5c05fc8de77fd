/**
 * Source text written into scratch projects that installed the packed package: the README's quick-start
 * catalog, one ticket and the model's proposal for it, importing formletter by name as a user's code
 * does. It is both JavaScript and TypeScript, so an `.mjs` run by node and a `main.ts` run by tsx share it.
 */
export const catalogSource = `import { createCatalog, createOutbox, defineRecords, defineTemplate, memoryStore, memoryTransport } from "formletter";
import { z } from "zod";

const records = defineRecords(
  { orders: z.object({ id: z.string(), number: z.string(), sellerId: z.string() }), sellers: z.object({ id: z.string(), email: z.email() }) },
  { labels: { orders: (order) => "order " + order.number } },
);
const catalog = createCatalog(records, [defineTemplate(records, {
  id: "tracking_request", description: "Ask the seller for an order's tracking number", audience: "seller", effect: "informational", channel: "email",
  to: records.slot.ref("sellers", { show: "email", match: { id: "order.sellerId" } }), limits: { perTicket: 1, perDay: 500 },
  subject: "Order {{order}}", body: "Please send us the tracking number of order {{order}}.",
  slots: { order: records.slot.ref("orders", { show: "number" }) },
})]);
const ticket = { ticketId: "T-1", orders: [{ id: "o1", number: "4471-2290", sellerId: "s7" }], sellers: [{ id: "s7", email: "Shop@Example.com" }] };
const proposal = { template: "tracking_request", slots: { order: catalog.handles(ticket).get("orders", "o1") } };
`;
