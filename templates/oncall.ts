/**
 * @module On-call paging: wake the engineer on call for an urgent ticket, by e-mail or SMS.
 */

import {
  createCatalog,
  defineRecords,
  defineTemplate,
  format,
  readableBy,
  type Template,
  untrusted,
} from "formletter";
import { z } from "zod";

// Engineers are paged in the operations team's zone, whatever zone the server runs in.
const timeZone = "Europe/Berlin";
const time = format.date("d MMM HH:mm", { timeZone });
const isoTime = z.iso.datetime({ offset: true });

const ticket = z.object({
  id: z.string(),
  /** The support desk's ticket number, e.g. "SUP-20418". */
  number: z.string(),
  priority: z.enum(["low", "normal", "high", "urgent"]),
  queue: z.enum(["payments", "orders", "accounts", "trust_safety"]),
  openedAt: isoTime,
  // The customer's own words never reach an engineer's phone: a page is not a channel for outsiders.
  subject: untrusted("customer", z.string()),
});

const rotation = z.object({
  id: z.string(),
  name: z.string(),
  email: readableBy(["oncall"], z.email()),
  phone: readableBy(["oncall"], z.string()),
  onCall: z.boolean(),
  role: z.enum(["primary", "secondary"]),
});

/** The records of one paging decision: the ticket, and the rotation as the scheduler sees it now. */
export const oncallRecords = defineRecords(
  { tickets: ticket, rotation },
  {
    labels: {
      tickets: (record) =>
        `ticket ${record.number}, ${record.priority}, ${record.queue.replace("_", " ")} queue`,
      rotation: (record) => `${record.role} ${record.onCall ? "on call now" : "off duty"}`,
    },
  },
);

const { slot } = oncallRecords;

/** Only an urgent ticket justifies a page; anything else waits for office hours. */
const urgentTicket = () =>
  slot.ref("tickets", {
    show: {
      number: "number",
      queue: "queue",
      opened: { field: "openedAt", as: time },
    },
    where: (record) => record.priority === "urgent",
    description: "the urgent ticket to page about",
  });

// Who is on call now, and nobody else: the rotation decides whom the model may page. When the primary
// and the secondary are both on call the model picks one of them, so each template declares
// recipient: "model-chooses"; nothing in a ticket joins an engineer to it.
const onCall = {
  where: (record: z.output<typeof rotation>) => record.onCall,
  description: "the engineer on call now",
};
const onCallEmail = () => slot.ref("rotation", { show: "email", ...onCall });
// Numbers in the rotation tool are often typed without a country prefix; the team is in Germany.
const onCallPhone = () =>
  slot.ref("rotation", { show: "phone", as: format.phone({ defaultCountry: "DE" }), ...onCall });

const impact = slot.choice(
  {
    payments: "payments are failing for several customers",
    orders: "orders cannot be placed or are stuck",
    data: "customer data may be exposed",
    safety: "a safety or legal issue needs an immediate decision",
  },
  { description: "what is at stake" },
);

/** Pages the on-call engineer by e-mail, with the ticket and what is at stake. */
export const pageEmail = defineTemplate(oncallRecords, {
  id: "page_email",
  description: "Page the engineer on call by e-mail about an urgent ticket.",
  audience: "oncall",
  effect: "informational",
  channel: "email",
  to: onCallEmail(),
  recipient: "model-chooses",
  subject: "[URGENT] Ticket {{ticket.number}}: {{impact}}",
  body:
    "Urgent ticket {{ticket.number}} in the {{ticket.queue}} queue, opened {{ticket.opened}} (Berlin time).\n\n" +
    "Support reports: {{impact}}.\n\n" +
    "Please acknowledge in the paging tool within 15 minutes and take over the ticket in the support desk. " +
    "If you cannot respond, hand over to the secondary on call.",
  slots: { ticket: urgentTicket(), impact },
  limits: { perTicket: 2, perDay: 20 },
});

/** Pages the on-call engineer by SMS: short, GSM-7, at most two segments. */
export const pageSms = defineTemplate(oncallRecords, {
  id: "page_sms",
  description: "Page the engineer on call by SMS about an urgent ticket (severe, or e-mail not acked).",
  audience: "oncall",
  effect: "informational",
  channel: "sms",
  to: onCallPhone(),
  recipient: "model-chooses",
  body: "URGENT {{ticket.number}} ({{ticket.queue}}): {{impact}}. Opened {{ticket.opened}}. Ack in the paging tool within 15 min.",
  slots: { ticket: urgentTicket(), impact },
  limits: { perTicket: 2, perDay: 20 },
  maxSegments: 2,
});

/** Tells the on-call engineer that the ticket they were paged about no longer needs them. */
export const pageResolved = defineTemplate(oncallRecords, {
  id: "page_resolved",
  description: "Tell the engineer on call by SMS that an urgent ticket needs no action any more.",
  audience: "oncall",
  effect: "informational",
  channel: "sms",
  to: onCallPhone(),
  recipient: "model-chooses",
  body: "RESOLVED {{ticket}}: no action needed, support closed it. Thanks.",
  slots: {
    ticket: slot.ref("tickets", {
      show: "number",
      where: (record) => record.priority === "urgent",
      description: "the urgent ticket that was resolved",
    }),
  },
  limits: { perTicket: 1, perDay: 20 },
  maxSegments: 1,
});

/** The on-call paging templates. */
export const oncallTemplates: readonly Template[] = [pageEmail, pageSms, pageResolved];

/**
 * The on-call paging catalog: e-mail and SMS pages to whoever the rotation says is on call now.
 *
 * @example
 * import { oncallCatalog } from "./templates/oncall.js";
 * const decision = oncallCatalog.decide({ template: "page_sms", slots: { impact: "payments" } }, records);
 */
export const oncallCatalog = createCatalog(oncallRecords, oncallTemplates);
