/**
 * decide() on a localised template against the same template without locales: the cost of reading the
 * recipient's locale and writing in it. The template is defined from the sources, so no build is needed:
 *
 *   npx tsx --tsconfig bench/tsconfig.json bench/locales.ts
 */
import { de, es } from "date-fns/locale";
import { z } from "zod";
import { createCatalog, defineRecords, defineTemplate, format, type TemplateConfig } from "../src/index.js";
import { report } from "./measure.js";

const records = defineRecords({
  orders: z.object({
    id: z.string(),
    number: z.string(),
    placedAt: z.string(),
    total: z.number(),
    currency: z.string(),
    sellerId: z.string(),
  }),
  sellers: z.object({
    id: z.string(),
    shopName: z.string(),
    email: z.email(),
    locale: z.string().optional(),
  }),
});
const { slot } = records;
const timeZone = "Europe/Berlin";

const plain: TemplateConfig = {
  id: "cancellation_request",
  effect: "informational",
  description: "Ask the seller to cancel an order that has not shipped.",
  audience: "seller",
  channel: "email",
  to: slot.ref("sellers", { show: "email", match: { id: "order.sellerId" } }),
  subject: "Cancellation request for order {{order.number}}",
  body:
    "Hello {{seller}} team,\n\nthe buyer asks to cancel order {{order.number}}, placed on {{order.placed}} for a total of {{order.total}}. " +
    "Please cancel it in your seller dashboard.{{#reason.mistake}} The buyer ordered by mistake.{{/reason.mistake}}\n\nKind regards",
  slots: {
    order: slot.ref("orders", {
      show: {
        number: "number",
        placed: { field: "placedAt", as: format.date("d MMMM yyyy", { timeZone }) },
        total: { field: "total", as: format.money({ currencyField: "currency" }) },
      },
    }),
    seller: slot.ref("sellers", { show: "shopName", match: { id: "order.sellerId" } }),
    reason: slot.choice({ mistake: "ordered by mistake", cheaper: "found it cheaper" }),
  },
  limits: { perTicket: 1, perDay: 500 },
};

const localised: TemplateConfig = {
  ...plain,
  locale: {
    default: "en",
    from: "to.locale",
    dates: [de, es],
    texts: {
      de: {
        subject: "Stornierungsanfrage für Bestellung {{order.number}}",
        body:
          "Hallo Team von {{seller}},\n\nder Käufer bittet, die Bestellung {{order.number}} vom {{order.placed}} über {{order.total}} zu stornieren. " +
          "Bitte stornieren Sie sie im Verkäufer-Dashboard.{{#reason.mistake}} Der Käufer hat versehentlich bestellt.{{/reason.mistake}}\n\nMit freundlichen Grüßen",
        choices: { reason: { mistake: "versehentlich bestellt", cheaper: "woanders günstiger gefunden" } },
        formats: { "order.placed": format.date("d. MMMM yyyy", { timeZone }) },
      },
      es: {
        subject: "Solicitud de cancelación del pedido {{order.number}}",
        body:
          "Hola, equipo de {{seller}}:\n\nel comprador solicita cancelar el pedido {{order.number}}, realizado el {{order.placed}} por {{order.total}}. " +
          "Cancélelo en su panel de vendedor.{{#reason.mistake}} El comprador lo pidió por error.{{/reason.mistake}}\n\nUn saludo",
        choices: { reason: { mistake: "pedido por error", cheaper: "lo encontró más barato" } },
      },
    },
  },
};

// The German text as a template of its own, its formats fixed to German: what a localised template
// written in German must be measured against (German text costs the scan more than English: its
// non-ASCII letters are each looked at).
const germanTexts = localised.locale?.texts.de;
const germanOnly: TemplateConfig = {
  ...plain,
  subject: germanTexts?.subject as string,
  body: germanTexts?.body as string,
  slots: {
    ...plain.slots,
    order: slot.ref("orders", {
      show: {
        number: "number",
        placed: { field: "placedAt", as: format.date("d. MMMM yyyy", { timeZone, locale: de }) },
        total: { field: "total", as: format.money({ currencyField: "currency", locale: "de" }) },
      },
    }),
    reason: slot.choice({ mistake: "versehentlich bestellt", cheaper: "woanders günstiger gefunden" }),
  },
};

const ticket = (locale: string | undefined) => ({
  ticketId: "T-1",
  orders: [
    {
      id: "o1",
      number: "4471-2290",
      placedAt: "2026-03-02T09:15:00+01:00",
      total: 1234.5,
      currency: "EUR",
      sellerId: "s1",
    },
  ],
  sellers: [
    {
      id: "s1",
      shopName: "Nordlicht Home",
      email: "orders@nordlicht.example",
      ...(locale ? { locale } : {}),
    },
  ],
});
const output = { template: "cancellation_request", slots: { reason: "mistake" } };

function prepared(config: TemplateConfig, locale: string | undefined) {
  const catalog = createCatalog(records, [defineTemplate(records, config)]);
  const result = catalog.prepare(ticket(locale));
  if (!result.ok) throw new Error(result.problem);
  const decision = catalog.decide(output, result.ticket);
  if (decision.outcome !== "send") throw new Error(`bench proposal did not send: ${decision.detail}`);
  return () => catalog.decide(output, result.ticket);
}

/** Each localised case, with the template without locales that writes the same message. */
const cases: [name: string, run: () => unknown, baseline: string][] = [
  ["English, without locales", prepared(plain, "de-DE"), ""],
  ["German, without locales", prepared(germanOnly, "de-DE"), ""],
  ["localised, de-DE → de", prepared(localised, "de-DE"), "German, without locales"],
  ["localised, en-GB → en (the default)", prepared(localised, "en-GB"), "English, without locales"],
  ["localised, no locale in the records", prepared(localised, undefined), "English, without locales"],
  [
    "localised, a hostile 60-character locale",
    prepared(localised, "x".repeat(60)),
    "English, without locales",
  ],
];

/** CPU microseconds one decision takes: CPU time, not wall time, so a busy machine does not count. */
function cpuMicroseconds(run: () => unknown, decisions: number): number {
  const start = process.cpuUsage();
  for (let i = 0; i < decisions; i++) run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / decisions;
}

process.stdout.write(
  "CPU µs a decision, best of 15 interleaved rounds: localised against the same message without locales\n",
);
for (const [, run] of cases) for (let i = 0; i < 20_000; i++) run();
const best = new Map<string, number>();
for (let round = 0; round < 15; round++) {
  for (const [name, run] of cases) {
    best.set(name, Math.min(best.get(name) ?? Number.POSITIVE_INFINITY, cpuMicroseconds(run, 4_000)));
  }
}
for (const [name, , baseline] of cases) {
  const micros = best.get(name) as number;
  const against = best.get(baseline);
  const overhead =
    against === undefined ? "" : `  ${((micros / against - 1) * 100).toFixed(1)}% over "${baseline}"`;
  report(name, `${micros.toFixed(2)} µs${overhead}`);
}
