/**
 * @module Customer replies: short, fixed updates to the buyer who opened the ticket.
 */

import {
  chosenRecord,
  createCatalog,
  defineRecords,
  defineTemplate,
  format,
  readableBy,
  type Template,
  untrusted,
} from "formletter";
import { z } from "zod";

const timeZone = "Europe/Berlin";
const day = format.date("EEEE, d MMMM yyyy", { timeZone });
const shortDay = format.date("d MMM", { timeZone });
const money = format.money({ currencyField: "currency" });
const isoTime = z.iso.datetime({ offset: true });
const currency = z.string().regex(/^[A-Z]{3}$/);

const order = z.object({
  id: z.string(),
  number: z.string(),
  status: z.enum(["placed", "shipped", "delivered", "cancelled"]),
  placedAt: isoTime,
  estimatedDelivery: isoTime.optional(),
  deliveredAt: isoTime.optional(),
});

const item = z.object({
  id: z.string(),
  orderId: z.string(),
  title: z.string(),
});

const refund = z.object({
  id: z.string(),
  orderId: z.string(),
  amount: z.number().positive(),
  currency,
  status: z.enum(["pending", "approved", "paid"]),
  /** Where the money goes back to, e.g. "the card ending 4242"; written by the payments system. */
  destination: readableBy(["customer"], z.string()),
});

/**
 * Every address the reply could go to: addresses that wrote into this ticket's thread, and addresses on
 * the account. An unverified account address is never written to: anyone can type one into a profile.
 */
const address = z.object({
  id: z.string(),
  email: readableBy(["customer"], z.email()),
  source: z.enum(["thread", "account"]),
  verified: z.boolean(),
});

// What the customer wrote: the model reads it; a reply may at most quote it back to its author.
const message = z.object({
  id: z.string(),
  sentAt: isoTime,
  body: untrusted("customer", z.string()),
});

type Order = z.output<typeof order>;

function labelDate(value: string | undefined): string {
  if (value === undefined) return "";
  const result = shortDay.apply(value, {});
  return result.ok ? ` ${result.value}` : "";
}

/** The records of one customer ticket: the orders it is about, their lines and refunds, and the reachable addresses. */
export const customerRecords = defineRecords(
  { orders: order, items: item, refunds: refund, addresses: address, messages: message },
  {
    labels: {
      orders: (record) =>
        `order ${record.number}, ${record.status}${labelDate(record.deliveredAt ?? record.placedAt)}`,
      items: (record) => `item "${record.title}"`,
      refunds: (record) => `refund ${record.status}`,
      // Never the address itself: the model chooses by where the address came from.
      addresses: (record) =>
        `${record.source === "thread" ? "address that wrote into this ticket" : "account address"}${record.verified ? ", verified" : ", unverified"}`,
      messages: (record) => `customer message of${labelDate(record.sentAt)}`,
    },
  },
);

const { slot } = customerRecords;

/**
 * The customer: an address that wrote into this thread, or a verified address of the account. Nothing
 * joins an address to an order, and a customer may have several: the model picks which of the
 * customer's own addresses a reply goes to, declared with `recipient: "model-chooses"` on each template.
 */
const customer = () =>
  slot.ref("addresses", {
    show: "email",
    where: (record) => record.source === "thread" || record.verified,
    description: "the customer's address: one that wrote into this ticket, or a verified account address",
  });

const signature = "\n\nBest regards,\nYour Marketplace Support team";

const statusText: Readonly<Record<Order["status"], string>> = {
  placed: "has been placed and is being prepared by the seller",
  shipped: "is on its way",
  delivered: "has been delivered",
  cancelled: "has been cancelled",
};

/** Tells the customer where their order stands, with the expected delivery date when there is one. */
export const orderStatusUpdate = defineTemplate(customerRecords, {
  id: "order_status_update",
  description: "Tell the customer the status and expected date of an order.",
  audience: "customer",
  effect: "informational",
  channel: "email",
  to: customer(),
  recipient: "model-chooses",
  subject: "An update on your order {{order.number}}",
  body:
    "Hello,\n\n" +
    "thank you for your patience. Your order {{order.number}} {{status}}." +
    "{{#eta}} It is expected to arrive on {{eta}}.{{/eta}}\n\n" +
    "You can follow it at any time under My orders in your account. If anything else comes up, just reply to this e-mail." +
    signature,
  slots: {
    order: slot.ref("orders", {
      show: { number: "number" },
      description: "the order the customer asks about",
    }),
    status: slot.derived((context) => {
      const status = chosenRecord(context, "order", "orders")?.status;
      return status === undefined ? undefined : statusText[status];
    }),
    eta: slot.derived(
      (context) => {
        const chosen = chosenRecord(context, "order", "orders");
        return chosen?.status === "placed" || chosen?.status === "shipped"
          ? chosen.estimatedDelivery
          : undefined;
      },
      { as: day, optional: true },
    ),
  },
  limits: { perTicket: 3, perDay: 5000 },
});

/** Confirms an approved refund with its amount and destination. A person approves each one. */
export const refundApproved = defineTemplate(customerRecords, {
  id: "refund_approved",
  description: "Confirm an approved refund and its amount; a person approves it first.",
  audience: "customer",
  effect: "irreversible",
  channel: "email",
  to: customer(),
  recipient: "model-chooses",
  subject: "Your refund for order {{order}} has been approved",
  body:
    "Hello,\n\n" +
    "good news: we have approved a refund of {{refund.amount}} for your order {{order}}. " +
    "It will be paid back to {{refund.destination}} within 5 to 10 business days, depending on your bank.\n\n" +
    "There is nothing else you need to do." +
    signature,
  slots: {
    order: slot.ref("orders", { show: "number", description: "the refunded order" }),
    refund: slot.ref("refunds", {
      show: { amount: { field: "amount", as: money }, destination: "destination" },
      match: { orderId: "order.id" },
      where: (record) => record.status !== "pending",
      description: "the approved refund of that order",
    }),
  },
  limits: { perTicket: 2, perDay: 1000 },
  approval: "human",
});

/** Asks the customer for photos of a damaged item, which the seller and carrier need for a claim. */
export const requestDamagePhotos = defineTemplate(customerRecords, {
  id: "request_damage_photos",
  description: "Ask for photos of an item that arrived damaged, to open a claim.",
  audience: "customer",
  effect: "informational",
  channel: "email",
  to: customer(),
  recipient: "model-chooses",
  subject: "Photos needed for your order {{order}}",
  body:
    "Hello,\n\n" +
    "we are sorry that {{item}} from your order {{order}} arrived damaged. " +
    "To open a claim with the seller and the carrier, we need a few photos: the damaged item, the outer packaging from all sides, and the shipping label.\n\n" +
    "Please reply to this e-mail with the photos attached. Keep the item and its packaging until the case is closed." +
    signature,
  slots: {
    order: slot.ref("orders", {
      show: "number",
      where: (record) => record.status === "delivered",
      description: "the delivered order",
    }),
    item: slot.ref("items", {
      show: "title",
      match: { orderId: "order.id" },
      description: "the damaged item of that order",
    }),
  },
  limits: { perTicket: 1, perDay: 2000 },
});

/** Tells the customer the ticket is closed, with how it ended. */
export const ticketClosed = defineTemplate(customerRecords, {
  id: "ticket_closed",
  description: "Tell the customer the ticket is closed and how it ended.",
  audience: "customer",
  effect: "informational",
  channel: "email",
  to: customer(),
  recipient: "model-chooses",
  subject: "Your request {{ticket}} is closed",
  body:
    "Hello,\n\n" +
    "we have closed your request {{ticket}}: {{outcome}}.\n\n" +
    "If something is still not right, reply to this e-mail within 14 days and the request reopens automatically." +
    signature,
  slots: {
    ticket: slot.derived(({ ticketId }) => ticketId),
    outcome: slot.choice(
      {
        resolved: "the issue has been resolved",
        refunded: "your refund has been issued",
        replaced: "a replacement is on its way",
        no_response: "we did not hear back from you",
      },
      { description: "how the ticket ended" },
    ),
  },
  limits: { perTicket: 1, perDay: 5000 },
});

/** The customer reply templates. */
export const customerTemplates: readonly Template[] = [
  orderStatusUpdate,
  refundApproved,
  requestDamagePhotos,
  ticketClosed,
];

/**
 * The customer reply catalog: the closed set of messages an agent may send back to the buyer.
 *
 * @example
 * import { customerCatalog } from "./templates/customer.js";
 * const decision = customerCatalog.decide(modelOutput, ticketRecords);
 */
export const customerCatalog = createCatalog(customerRecords, customerTemplates);
