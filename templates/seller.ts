/**
 * @module Seller messaging: a marketplace writes to the seller of an order about a buyer's ticket.
 */

import { de, es } from "date-fns/locale";
import {
  chosenRecord,
  createCatalog,
  defineRecords,
  defineTemplate,
  type Format,
  format,
  type LocaleTexts,
  readableBy,
  type Template,
  type TemplateLocaleConfig,
  untrusted,
} from "formletter";
import { z } from "zod";

// The marketplace's own zone: a seller reads dates as the marketplace shows them in its dashboard.
const timeZone = "Europe/Berlin";
const day = format.date("d MMM yyyy", { timeZone });
const shortDay = format.date("d MMM", { timeZone });
const money = format.money({ currencyField: "currency" });

const isoTime = z.iso.datetime({ offset: true });
const currency = z.string().regex(/^[A-Z]{3}$/);

const order = z.object({
  id: z.string(),
  /** The number the buyer and seller both see, e.g. "4471-2290". */
  number: z.string(),
  status: z.enum(["placed", "shipped", "delivered", "cancelled"]),
  sellerId: z.string(),
  buyerId: z.string(),
  placedAt: isoTime,
  shippedAt: isoTime.optional(),
  deliveredAt: isoTime.optional(),
  total: z.number().nonnegative(),
  currency,
});

const item = z.object({
  id: z.string(),
  orderId: z.string(),
  sku: z.string(),
  /** The listing title, written by the seller who sells it. */
  title: z.string(),
  quantity: z.number().int().positive(),
  /** What the buyer paid for this line: unit price times quantity, after discounts. */
  amount: z.number().nonnegative(),
  currency,
});

const seller = z.object({
  id: z.string(),
  shopName: z.string(),
  email: z.email(),
  /**
   * The language the seller chose in its shop profile (a BCP 47 tag such as "de-DE"). The seller wrote
   * it, so it is labelled as theirs: it may pick the words only of messages to that seller, and only
   * among the texts written below. Anything that is not a tag of a language we write in gets English.
   */
  locale: untrusted("seller", z.string()).optional(),
});

const shipment = z.object({
  id: z.string(),
  orderId: z.string(),
  carrier: z.string(),
  trackingNumber: z.string(),
  status: z.enum(["label_created", "in_transit", "delivered", "returned"]),
  estimatedDelivery: isoTime,
});

// A seller never learns how to reach the buyer outside the marketplace: only replies to the buyer may show these.
const buyer = z.object({
  id: z.string(),
  nickname: z.string(),
  email: readableBy(["buyer"], z.email()),
  phone: readableBy(["buyer"], z.string()).optional(),
  address: readableBy(["buyer"], z.string()),
});

// What the buyer wrote into the ticket: the model reads it, no seller message may carry it.
const message = z.object({
  id: z.string(),
  orderId: z.string().optional(),
  sentAt: isoTime,
  body: untrusted("buyer", z.string()),
});

type Order = z.output<typeof order>;

/** Formats a value for a label with a slot's own format; a label never fails, it just says less. */
function labelValue(as: Format, value: unknown, record: Readonly<Record<string, unknown>>): string {
  const result = as.apply(value, record);
  return result.ok ? result.value : "?";
}

function orderLabel(record: Order): string {
  const when = {
    placed: record.placedAt,
    shipped: record.shippedAt,
    delivered: record.deliveredAt,
    cancelled: undefined,
  }[record.status];
  const date = when === undefined ? "" : ` ${labelValue(shortDay, when, record)}`;
  return `order ${record.number}, ${record.status}${date}`;
}

/**
 * The records of one buyer ticket, as the marketplace loads them: the orders it concerns, their lines,
 * sellers and shipments, the buyer, and what the buyer wrote. Labels are what the model sees next to
 * each handle; they never hold an id, an address or the buyer's own words.
 */
export const sellerRecords = defineRecords(
  { orders: order, items: item, sellers: seller, shipments: shipment, buyers: buyer, messages: message },
  {
    labels: {
      orders: orderLabel,
      items: (record) =>
        `${record.quantity} × "${record.title}", ${labelValue(money, record.amount, record)}`,
      sellers: (record) => `seller ${record.shopName}`,
      shipments: (record) =>
        `${record.carrier} parcel, ${record.status.replace("_", " ")}, due ${labelValue(shortDay, record.estimatedDelivery, record)}`,
      buyers: () => "the buyer",
      messages: (record) => `buyer message of ${labelValue(shortDay, record.sentAt, record)}`,
    },
  },
);

const { slot } = sellerRecords;

/** The seller of the chosen order, and nobody else: the model never picks who receives the message. */
const sellerOfOrder = () =>
  slot.ref("sellers", {
    show: "email",
    match: { id: "order.sellerId" },
    description: "the seller of the chosen order; leave it out, there is only one",
  });

/** Restricts an order slot to orders in one of `statuses`. */
const orderIn = (statuses: readonly Order["status"][], description: string) => ({
  where: (record: Order) => statuses.includes(record.status),
  description,
});

/** A line of the chosen order. */
const lineOfOrder = (description: string) => ({ match: { orderId: "order.id" }, description });

/** The shop name of the chosen order's seller, for the greeting. */
const shopName = () =>
  slot.derived((context) => {
    const sellerId = chosenRecord(context, "order", "orders")?.sellerId;
    return context.records.sellers.find((record) => record.id === sellerId)?.shopName;
  });

const signature =
  "\n\nKind regards,\nMarketplace Buyer Support\n(Reply to this e-mail; your answer is added to the case.)";

const signatures = {
  de: "\n\nMit freundlichen Grüßen\nIhr Käuferservice des Marktplatzes\n(Antworten Sie auf diese E-Mail; Ihre Antwort wird dem Fall hinzugefügt.)",
  es: "\n\nUn saludo cordial,\nAtención al comprador del marketplace\n(Responda a este correo; su respuesta se añade al caso.)",
};

// Dates as each language writes them; month names come from the date-fns locale of the message.
const longDay = {
  de: format.date("d. MMMM yyyy", { timeZone }),
  es: format.date("d 'de' MMMM 'de' yyyy", { timeZone }),
};

/** The value tags shown as a day, in the German and Spanish way of writing one. */
const daysIn = (language: keyof typeof longDay, ...tags: string[]) =>
  Object.fromEntries(tags.map((tag) => [tag, longDay[language]]));

/**
 * Sellers read in the language of their shop profile (`sellers.locale`): German and Spanish where a
 * template has those texts, English otherwise. The model never chooses the language.
 */
const sellerLocale = (texts: {
  readonly de: LocaleTexts;
  readonly es: LocaleTexts;
}): TemplateLocaleConfig => ({
  default: "en",
  from: "to.locale",
  dates: [de, es],
  texts,
});

/** Asks the seller whether a replacement for an order line can be shipped. */
export const replacementAvailable = defineTemplate(sellerRecords, {
  id: "replacement_available",
  description: "Ask the seller to ship a replacement for an item of a delivered order.",
  audience: "seller",
  effect: "reversible",
  channel: "email",
  to: sellerOfOrder(),
  subject: "Replacement request for order {{order.number}}",
  body:
    "Hello {{shop}} team,\n\n" +
    "the buyer of order {{order.number}}, delivered on {{order.delivered}}, would prefer a replacement for {{item.quantity}} × {{item.title}} over a refund.\n\n" +
    "Please let us know within two business days whether you can ship a replacement, and when it would leave your warehouse. " +
    "If the item is no longer in stock, tell us so and we will offer the buyer a refund instead." +
    signature,
  slots: {
    order: slot.ref("orders", {
      show: { number: "number", delivered: { field: "deliveredAt", as: day } },
      ...orderIn(["delivered"], "the delivered order the item belongs to"),
    }),
    item: slot.ref("items", {
      show: { title: "title", quantity: { field: "quantity", as: format.number() } },
      ...lineOfOrder("the order line to replace"),
    }),
    shop: shopName(),
  },
  limits: { perTicket: 1, perDay: 500 },
});

/** Reports an item that arrived damaged, with the kind of damage from a fixed list. */
export const damageReport = defineTemplate(sellerRecords, {
  id: "damage_report",
  description: "An item of a delivered order arrived damaged; choose the closest reason.",
  audience: "seller",
  effect: "informational",
  channel: "email",
  to: sellerOfOrder(),
  subject: "Damaged item reported in order {{order.number}}",
  body:
    "Hello {{shop}} team,\n\n" +
    "the buyer reports that {{item.title}} (SKU {{item.sku}}) from order {{order.number}}, delivered on {{order.delivered}}, arrived damaged: {{reason}}.\n\n" +
    "{{#reason.packaging}}Please review how this item is packed before it is shipped again. {{/reason.packaging}}" +
    "{{#reason.transit}}If you shipped with insurance, you may want to open a claim with the carrier. {{/reason.transit}}" +
    "Please reply within two business days with how you would like to resolve this: a replacement, a partial refund or a return. " +
    "We have asked the buyer to keep the item and its packaging until the case is closed." +
    signature,
  slots: {
    order: slot.ref("orders", {
      show: { number: "number", delivered: { field: "deliveredAt", as: day } },
      ...orderIn(["delivered"], "the delivered order"),
    }),
    item: slot.ref("items", {
      show: { title: "title", sku: "sku" },
      ...lineOfOrder("the damaged order line"),
    }),
    reason: slot.choice(
      {
        packaging: "the outer packaging was crushed or torn and the item inside is damaged",
        transit: "the item was broken in transit although the packaging looked intact",
        water: "the parcel and the item show water damage",
        defective: "the item does not work out of the box",
        cosmetic: "the item works but has scratches or dents",
      },
      { description: "what the buyer says is wrong" },
    ),
    shop: shopName(),
  },
  limits: { perTicket: 2, perDay: 800 },
  locale: sellerLocale({
    de: {
      subject: "Beschädigter Artikel in Bestellung {{order.number}} gemeldet",
      body:
        "Hallo Team von {{shop}},\n\n" +
        "der Käufer meldet, dass {{item.title}} (SKU {{item.sku}}) aus der Bestellung {{order.number}}, zugestellt am {{order.delivered}}, beschädigt angekommen ist: {{reason}}.\n\n" +
        "{{#reason.packaging}}Bitte prüfen Sie, wie dieser Artikel verpackt wird, bevor er erneut versendet wird. {{/reason.packaging}}" +
        "{{#reason.transit}}Falls Sie versichert versendet haben, können Sie beim Versanddienstleister einen Schaden melden. {{/reason.transit}}" +
        "Bitte antworten Sie innerhalb von zwei Werktagen, wie Sie den Fall lösen möchten: Ersatzlieferung, Teilerstattung oder Rücksendung. " +
        "Wir haben den Käufer gebeten, den Artikel und die Verpackung aufzubewahren, bis der Fall abgeschlossen ist." +
        signatures.de,
      choices: {
        reason: {
          packaging:
            "die Umverpackung war eingedrückt oder eingerissen, und der Artikel darin ist beschädigt",
          transit: "der Artikel ist beim Transport zerbrochen, obwohl die Verpackung unversehrt aussah",
          water: "Paket und Artikel haben einen Wasserschaden",
          defective: "der Artikel funktioniert schon beim Auspacken nicht",
          cosmetic: "der Artikel funktioniert, hat aber Kratzer oder Dellen",
        },
      },
      formats: daysIn("de", "order.delivered"),
    },
    es: {
      subject: "Artículo dañado en el pedido {{order.number}}",
      body:
        "Hola, equipo de {{shop}}:\n\n" +
        "el comprador informa de que {{item.title}} (SKU {{item.sku}}) del pedido {{order.number}}, entregado el {{order.delivered}}, llegó dañado: {{reason}}.\n\n" +
        "{{#reason.packaging}}Revise cómo se embala este artículo antes de volver a enviarlo. {{/reason.packaging}}" +
        "{{#reason.transit}}Si lo envió con seguro, puede abrir una reclamación con el transportista. {{/reason.transit}}" +
        "Responda en un plazo de dos días hábiles indicando cómo desea resolverlo: un reemplazo, un reembolso parcial o una devolución. " +
        "Hemos pedido al comprador que conserve el artículo y su embalaje hasta que se cierre el caso." +
        signatures.es,
      choices: {
        reason: {
          packaging: "el embalaje exterior llegó aplastado o roto y el artículo está dañado",
          transit: "el artículo se rompió durante el transporte aunque el embalaje parecía intacto",
          water: "el paquete y el artículo tienen daños por agua",
          defective: "el artículo no funciona nada más sacarlo de la caja",
          cosmetic: "el artículo funciona, pero tiene arañazos o abolladuras",
        },
      },
      formats: daysIn("es", "order.delivered"),
    },
  }),
});

/** Reports that an order line is missing from a delivered parcel. */
export const missingItem = defineTemplate(sellerRecords, {
  id: "missing_item",
  description: "An item of a delivered order was not in the parcel.",
  audience: "seller",
  effect: "informational",
  channel: "email",
  to: sellerOfOrder(),
  subject: "Item missing from order {{order.number}}",
  body:
    "Hello {{shop}} team,\n\n" +
    "order {{order.number}} was delivered on {{order.delivered}}, but the buyer reports that {{item.title}} (SKU {{item.sku}}, quantity {{item.quantity}}) was not in the parcel.\n\n" +
    "Please check your packing records for this order and reply within two business days: " +
    "either ship the missing item with tracking, or confirm that we should refund the line." +
    signature,
  slots: {
    order: slot.ref("orders", {
      show: { number: "number", delivered: { field: "deliveredAt", as: day } },
      ...orderIn(["delivered"], "the delivered order"),
    }),
    item: slot.ref("items", {
      show: { title: "title", sku: "sku", quantity: { field: "quantity", as: format.number() } },
      ...lineOfOrder("the order line that was missing"),
    }),
    shop: shopName(),
  },
  limits: { perTicket: 1, perDay: 500 },
});

/** Reports that the buyer received something other than the ordered item. */
export const wrongItem = defineTemplate(sellerRecords, {
  id: "wrong_item",
  description: "The buyer received something other than an ordered item; choose what differed.",
  audience: "seller",
  effect: "informational",
  channel: "email",
  to: sellerOfOrder(),
  subject: "Wrong item delivered for order {{order.number}}",
  body:
    "Hello {{shop}} team,\n\n" +
    "for order {{order.number}}, delivered on {{order.delivered}}, the buyer ordered {{item.title}} (SKU {{item.sku}}) but received {{received}}.\n\n" +
    "Please reply within two business days and tell us whether you will send the correct item together with a prepaid return label for the wrong one, " +
    "or whether we should refund the line." +
    signature,
  slots: {
    order: slot.ref("orders", {
      show: { number: "number", delivered: { field: "deliveredAt", as: day } },
      ...orderIn(["delivered"], "the delivered order"),
    }),
    item: slot.ref("items", {
      show: { title: "title", sku: "sku" },
      ...lineOfOrder("the order line the buyer expected"),
    }),
    received: slot.choice(
      {
        size: "the same product in a different size",
        colour: "the same product in a different colour or finish",
        product: "a different product",
        quantity: "fewer pieces than ordered",
      },
      { description: "how what arrived differs from the order line" },
    ),
    shop: shopName(),
  },
  limits: { perTicket: 1, perDay: 500 },
});

/**
 * Asks the seller for tracking of a shipped order. Deliberately minimal (order, item, recipient; no date
 * and no phone): the smallest realistic template, used as the baseline of the benchmarks.
 */
export const trackingRequest = defineTemplate(sellerRecords, {
  id: "tracking_request",
  description: "Ask for tracking of a shipped or delivered order the buyer cannot follow.",
  audience: "seller",
  effect: "informational",
  channel: "email",
  to: sellerOfOrder(),
  subject: "Tracking requested for order {{order}}",
  body:
    "Hello,\n\n" +
    "the buyer of order {{order}} cannot follow the parcel containing {{item}}.\n\n" +
    "Please add the carrier and the tracking number to the order in your seller dashboard within one business day. " +
    "If the parcel has not left your warehouse yet, update the order status instead so the buyer sees the correct date." +
    signature,
  slots: {
    order: slot.ref("orders", {
      show: "number",
      ...orderIn(["shipped", "delivered"], "the shipped order the buyer cannot track"),
    }),
    item: slot.ref("items", { show: "title", ...lineOfOrder("an order line in the parcel") }),
  },
  limits: { perTicket: 1, perDay: 1000 },
  locale: sellerLocale({
    de: {
      subject: "Sendungsverfolgung für Bestellung {{order}} angefragt",
      body:
        "Hallo,\n\n" +
        "der Käufer der Bestellung {{order}} kann das Paket mit {{item}} nicht verfolgen.\n\n" +
        "Bitte tragen Sie den Versanddienstleister und die Sendungsnummer innerhalb eines Werktags in Ihrem Verkäufer-Dashboard bei der Bestellung ein. " +
        "Falls das Paket Ihr Lager noch nicht verlassen hat, aktualisieren Sie stattdessen den Bestellstatus, damit der Käufer das richtige Datum sieht." +
        signatures.de,
    },
    es: {
      subject: "Seguimiento solicitado para el pedido {{order}}",
      body:
        "Hola:\n\n" +
        "el comprador del pedido {{order}} no puede seguir el paquete que contiene {{item}}.\n\n" +
        "Añada el transportista y el número de seguimiento al pedido en su panel de vendedor en un plazo de un día hábil. " +
        "Si el paquete aún no ha salido de su almacén, actualice el estado del pedido para que el comprador vea la fecha correcta." +
        signatures.es,
    },
  }),
});

/** Tells the seller an order is late, with the shipment's carrier and due date when there is one. */
export const deliveryDelay = defineTemplate(sellerRecords, {
  id: "delivery_delay",
  description: "A placed or shipped order is late; always give its shipment when it has one.",
  audience: "seller",
  effect: "informational",
  channel: "email",
  to: sellerOfOrder(),
  subject: "Delivery delayed for order {{order.number}}",
  body:
    "Hello {{shop}} team,\n\n" +
    "the buyer of order {{order.number}}, placed on {{order.placed}}, reports that it has not arrived yet.\n\n" +
    "{{#shipment}}The parcel was handed to {{shipment.carrier}} with tracking number {{shipment.tracking}} and was due on {{shipment.due}}. " +
    "Please open an investigation with the carrier and let us know the outcome.{{/shipment}}" +
    // Worded to be true whether the order has no shipment or the model left it out: it asks, it does not assert.
    "{{^shipment}}Please tell us whether the order has been handed to a carrier, with the carrier and tracking number if so, " +
    "or ship it now and update its status, and let us know the expected delivery date.{{/shipment}}\n\n" +
    "Please reply within one business day." +
    signature,
  slots: {
    order: slot.ref("orders", {
      show: { number: "number", placed: { field: "placedAt", as: day } },
      ...orderIn(["placed", "shipped"], "the late order"),
    }),
    shipment: slot.ref("shipments", {
      show: {
        carrier: "carrier",
        tracking: "trackingNumber",
        due: { field: "estimatedDelivery", as: day },
      },
      match: { orderId: "order.id" },
      where: (record) => record.status !== "returned",
      optional: true,
      description: "the order's shipment, if it has one",
    }),
    shop: shopName(),
  },
  limits: { perTicket: 2, perDay: 800 },
  locale: sellerLocale({
    de: {
      subject: "Lieferverzögerung bei Bestellung {{order.number}}",
      body:
        "Hallo Team von {{shop}},\n\n" +
        "der Käufer der Bestellung {{order.number}} vom {{order.placed}} meldet, dass sie noch nicht angekommen ist.\n\n" +
        "{{#shipment}}Das Paket wurde an {{shipment.carrier}} mit der Sendungsnummer {{shipment.tracking}} übergeben und sollte am {{shipment.due}} zugestellt werden. " +
        "Bitte leiten Sie beim Versanddienstleister einen Nachforschungsauftrag ein und teilen Sie uns das Ergebnis mit.{{/shipment}}" +
        "{{^shipment}}Bitte teilen Sie uns mit, ob die Bestellung an einen Versanddienstleister übergeben wurde, gegebenenfalls mit Versanddienstleister und Sendungsnummer, " +
        "oder versenden Sie sie jetzt, aktualisieren Sie ihren Status und nennen Sie uns das voraussichtliche Lieferdatum.{{/shipment}}\n\n" +
        "Bitte antworten Sie innerhalb eines Werktags." +
        signatures.de,
      formats: daysIn("de", "order.placed", "shipment.due"),
    },
    es: {
      subject: "Retraso en la entrega del pedido {{order.number}}",
      body:
        "Hola, equipo de {{shop}}:\n\n" +
        "el comprador del pedido {{order.number}}, realizado el {{order.placed}}, informa de que aún no ha llegado.\n\n" +
        "{{#shipment}}El paquete se entregó a {{shipment.carrier}} con el número de seguimiento {{shipment.tracking}} y debía llegar el {{shipment.due}}. " +
        "Abra una investigación con el transportista y comuníquenos el resultado.{{/shipment}}" +
        "{{^shipment}}Indíquenos si el pedido se ha entregado a un transportista y, en ese caso, el transportista y el número de seguimiento, " +
        "o envíelo ahora, actualice su estado y comuníquenos la fecha de entrega prevista.{{/shipment}}\n\n" +
        "Responda en un plazo de un día hábil." +
        signatures.es,
      formats: daysIn("es", "order.placed", "shipment.due"),
    },
  }),
});

/** Tells the seller a return has been authorised for an order line, with the reason. */
export const returnAuthorization = defineTemplate(sellerRecords, {
  id: "return_authorization",
  description: "The buyer returns an item of a delivered order; choose why.",
  audience: "seller",
  effect: "reversible",
  channel: "email",
  to: sellerOfOrder(),
  subject: "Return authorised for order {{order.number}}",
  body:
    "Hello {{shop}} team,\n\n" +
    "we have authorised the return of {{item.quantity}} × {{item.title}} (SKU {{item.sku}}) from order {{order.number}}, delivered on {{order.delivered}}. " +
    "The buyer's reason: {{reason}}.\n\n" +
    "The buyer will ship the item with the marketplace's prepaid label. Please inspect it when it arrives and confirm the return in your seller dashboard within three business days, " +
    "so that the refund can be released." +
    signature,
  slots: {
    order: slot.ref("orders", {
      show: { number: "number", delivered: { field: "deliveredAt", as: day } },
      ...orderIn(["delivered"], "the delivered order"),
    }),
    item: slot.ref("items", {
      show: { title: "title", sku: "sku", quantity: { field: "quantity", as: format.number() } },
      ...lineOfOrder("the order line being returned"),
    }),
    reason: slot.choice(
      {
        changed_mind: "changed their mind",
        fit: "the item does not fit",
        not_as_described: "the item is not as described in the listing",
        defective: "the item is defective",
      },
      { description: "why the buyer returns the item" },
    ),
    shop: shopName(),
  },
  limits: { perTicket: 2, perDay: 1000 },
});

/** Asks the seller to refund an order line; the amount comes from the line. A person approves each one. */
export const refundRequest = defineTemplate(sellerRecords, {
  id: "refund_request",
  description: "Ask the seller to refund one order line in full; a person approves it first.",
  audience: "seller",
  effect: "irreversible",
  channel: "email",
  to: sellerOfOrder(),
  subject: "Refund request for order {{order.number}}",
  body:
    "Hello {{shop}} team,\n\n" +
    "we ask you to refund {{item.amount}} for {{item.quantity}} × {{item.title}} from order {{order.number}}, placed on {{order.placed}}. " +
    "Reason: {{reason}}.\n\n" +
    "Please issue the refund from your seller dashboard within two business days. " +
    "If you disagree, reply with your reasons before then; after that the marketplace guarantee applies and the amount is refunded on your behalf." +
    signature,
  slots: {
    order: slot.ref("orders", {
      show: { number: "number", placed: { field: "placedAt", as: day } },
      ...orderIn(["shipped", "delivered"], "the order the line belongs to"),
    }),
    item: slot.ref("items", {
      show: {
        title: "title",
        quantity: { field: "quantity", as: format.number() },
        amount: { field: "amount", as: money },
      },
      ...lineOfOrder("the order line to refund"),
    }),
    reason: slot.choice(
      {
        not_received: "the item was not received",
        damaged: "the item arrived damaged",
        not_as_described: "the item is not as described",
        returned: "the item was returned to you",
      },
      { description: "why the line is refunded" },
    ),
    shop: shopName(),
  },
  limits: { perTicket: 2, perDay: 300 },
  // Approval sits on each refund; the ceiling bounds what a day of approvals (and a wrong one) can
  // cost. A currency not listed is refused: add it here before the marketplace sells in it.
  ceilings: {
    refunds: {
      values: ["item.amount"],
      max: {
        EUR: { message: 275, day: 5000 },
        GBP: { message: 250, day: 4000 },
        SEK: { message: 3000, day: 50_000 },
      },
      group: "refunds",
    },
  },
  approval: "human",
});

/** Asks the seller to cancel an order that has not shipped yet. */
export const cancellationRequest = defineTemplate(sellerRecords, {
  id: "cancellation_request",
  description: "Ask the seller to cancel an order that has not shipped (status placed).",
  audience: "seller",
  effect: "informational",
  channel: "email",
  to: sellerOfOrder(),
  subject: "Cancellation request for order {{order.number}}",
  body:
    "Hello {{shop}} team,\n\n" +
    "the buyer asks to cancel order {{order.number}}, placed on {{order.placed}} for a total of {{order.total}}. " +
    "Our records show that it has not shipped yet.\n\n" +
    "Please cancel the order in your seller dashboard before it leaves your warehouse; the buyer is refunded automatically. " +
    "If it has already been handed to a carrier, reply with the tracking number instead of cancelling." +
    signature,
  slots: {
    order: slot.ref("orders", {
      show: {
        number: "number",
        placed: { field: "placedAt", as: day },
        total: { field: "total", as: money },
      },
      // A shipped order cannot be cancelled, only returned: the model cannot ask for it.
      ...orderIn(["placed"], "the order to cancel; only orders that have not shipped"),
    }),
    shop: shopName(),
  },
  limits: { perTicket: 1, perDay: 500 },
  locale: sellerLocale({
    de: {
      subject: "Stornierungsanfrage für Bestellung {{order.number}}",
      body:
        "Hallo Team von {{shop}},\n\n" +
        "der Käufer bittet darum, die Bestellung {{order.number}} vom {{order.placed}} über insgesamt {{order.total}} zu stornieren. " +
        "Laut unseren Daten wurde sie noch nicht versandt.\n\n" +
        "Bitte stornieren Sie die Bestellung in Ihrem Verkäufer-Dashboard, bevor sie Ihr Lager verlässt; der Käufer erhält die Erstattung automatisch. " +
        "Falls sie bereits an einen Versanddienstleister übergeben wurde, antworten Sie bitte mit der Sendungsnummer, statt zu stornieren." +
        signatures.de,
      formats: daysIn("de", "order.placed"),
    },
    es: {
      subject: "Solicitud de cancelación del pedido {{order.number}}",
      body:
        "Hola, equipo de {{shop}}:\n\n" +
        "el comprador solicita cancelar el pedido {{order.number}}, realizado el {{order.placed}} por un total de {{order.total}}. " +
        "Según nuestros registros, aún no se ha enviado.\n\n" +
        "Cancele el pedido en su panel de vendedor antes de que salga de su almacén; el comprador recibirá el reembolso automáticamente. " +
        "Si ya se entregó a un transportista, responda con el número de seguimiento en lugar de cancelarlo." +
        signatures.es,
      formats: daysIn("es", "order.placed"),
    },
  }),
});

/** The nine seller templates, in the order the model is shown them. */
export const sellerTemplates: readonly Template[] = [
  replacementAvailable,
  damageReport,
  missingItem,
  wrongItem,
  trackingRequest,
  deliveryDelay,
  returnAuthorization,
  refundRequest,
  cancellationRequest,
];

/**
 * The seller messaging catalog: the closed set of messages an agent may send to the seller of an order.
 *
 * @example
 * import { sellerCatalog } from "./templates/seller.js";
 * const decision = sellerCatalog.decide(modelOutput, ticketRecords);
 * if (decision.outcome === "send") await deliver(decision.message);
 */
export const sellerCatalog = createCatalog(sellerRecords, sellerTemplates);
