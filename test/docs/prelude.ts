/**
 * The names the documentation's snippets use without defining them, as a reader's code would define
 * them: records, a catalog and a ticket (the quick start's, extended), a model client, a database.
 * Typechecked with the snippets only (as a virtual file), so its globals never leak into the project.
 */
export const snippetPrelude = `
import type Anthropic from "@anthropic-ai/sdk";
import type { LanguageModel } from "ai";
import type OpenAI from "openai";
import { z } from "zod";
import {
  createCatalog,
  defineRecords,
  defineTemplate,
  memoryStore,
  memoryTransport,
  createOutbox,
  type EscalationReason,
  type Message,
  type Transport,
} from "formletter";

type Channel = Message["channel"];

const preludeRecords = defineRecords({
  orders: z.object({ id: z.string(), number: z.string(), sellerId: z.string(), buyerId: z.string() }),
  sellers: z.object({ id: z.string(), email: z.email() }),
  buyers: z.object({ id: z.string(), email: z.email() }),
});
const preludeTrackingRequest = defineTemplate(preludeRecords, {
  id: "tracking_request",
  description: "Ask the seller for an order's tracking number",
  audience: "seller",
  effect: "informational",
  channel: "email",
  to: preludeRecords.slot.ref("sellers", { show: "email", match: { id: "order.sellerId" } }),
  subject: "Order {{order}}",
  body: "Please send us the tracking number of order {{order}}.",
  slots: { order: preludeRecords.slot.ref("orders", { show: "number" }) },
  limits: { perTicket: 1, perDay: 500 },
});
const preludeDamageReport = defineTemplate(preludeRecords, {
  id: "damage_report",
  description: "Tell the buyer the damage report was received",
  audience: "buyer",
  effect: "informational",
  channel: "email",
  to: preludeRecords.slot.ref("buyers", { show: "email", match: { id: "order.buyerId" } }),
  subject: "Order {{order}}",
  body: "We received your damage report for order {{order}}.",
  slots: { order: preludeRecords.slot.ref("orders", { show: "number" }) },
  limits: { perTicket: 1, perDay: 500 },
});
const preludeCatalog = createCatalog(preludeRecords, [preludeTrackingRequest, preludeDamageReport]);
const preludeTicket = {
  ticketId: "T-1",
  orders: [{ id: "o1", number: "4471-2290", sellerId: "s7", buyerId: "b1" }],
  sellers: [{ id: "s7", email: "shop@example.com" }],
  buyers: [{ id: "b1", email: "ana@example.org" }],
};
const preludeOutbox = createOutbox({
  catalog: preludeCatalog,
  load: () => preludeTicket,
  store: memoryStore(),
  transports: { email: memoryTransport() },
});

declare global {
  const records: typeof preludeRecords;
  /** A ticket's records, as a loader returns them. */
  const ticketRecords: unknown;
  const trackingRequest: typeof preludeTrackingRequest;
  const damageReport: typeof preludeDamageReport;
  const catalog: typeof preludeCatalog;
  const ticket: typeof preludeTicket;
  const sampleTicket: typeof preludeTicket;
  const outbox: typeof preludeOutbox;
  /** Your loader and transports, as createOutbox takes them. */
  const load: (ticketId: string) => Promise<unknown>;
  const transports: Partial<Record<Channel, Transport>>;
  /** Your system of record. */
  const db: { recordsFor(ticketId: string): Promise<unknown>; end(): Promise<void> };
  /** What the model answered: a tool call's arguments, or its text. */
  const modelOutput: unknown;
  const instructions: string;
  const buyerMessage: string;
  const openai: OpenAI;
  const anthropic: Anthropic;
  const model: LanguageModel;
  /** Your own sending and queueing, for code that uses decide() without the outbox. */
  const deliver: (message: Message) => Promise<void>;
  const queueForHuman: (reason: EscalationReason, detail: string) => Promise<void>;
  /** A queue item's id. */
  const id: string;
  /** A task token minted for the agent (formletter token mint). */
  const token: string;
  /** Calls your model with these tools, returning its tool call. */
  const callModel: (tools: readonly unknown[]) => Promise<{ name: string; input: unknown }>;
}
export {};
`;
