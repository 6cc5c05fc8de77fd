/**
 * A free-text message history with known ground truth, for the migration kit: four businesses (a
 * marketplace, a clinic, a carrier desk, a software partner programme), each with templates written by
 * hand, rendered with record values in varied formats and paraphrased with noise (greetings, signatures,
 * typos, sentences swapped), plus free-form messages that fit no template and messages to addresses no
 * record holds. `npx tsx examples/data/history-corpus.ts > examples/data/history.jsonl` writes the
 * bundled example; tests build their own in memory.
 */
import { z } from "zod";
import { defineRecords } from "formletter";

/** One collection definition for all four businesses: a ticket holds the collections of its own. */
export const historyRecords = defineRecords({
  orders: z.object({
    id: z.string(),
    number: z.string(),
    placedAt: z.string(),
    total: z.number(),
    currency: z.string(),
    sellerId: z.string(),
  }),
  sellers: z.object({ id: z.string(), shopName: z.string(), email: z.email() }),
  appointments: z.object({ id: z.string(), startsAt: z.string(), room: z.string(), patientId: z.string() }),
  patients: z.object({ id: z.string(), name: z.string(), phone: z.string(), email: z.email() }),
  shipments: z.object({ id: z.string(), tracking: z.string(), eta: z.string(), carrierId: z.string() }),
  carriers: z.object({ id: z.string(), name: z.string(), email: z.email() }),
  invoices: z.object({
    id: z.string(),
    number: z.string(),
    amount: z.number(),
    currency: z.string(),
    dueOn: z.string(),
    partnerId: z.string(),
  }),
  partners: z.object({ id: z.string(), company: z.string(), email: z.email() }),
});

/** A history line with what produced it. */
export interface CorpusLine {
  readonly line: Record<string, unknown>;
  /** The template that produced the message, or undefined for a free-form message. */
  readonly template: string | undefined;
  /** The recipient is no record's address. */
  readonly newAddress: boolean;
}

type Random = () => number;

interface Ticket {
  readonly records: Record<string, unknown>;
  readonly to: string;
  readonly values: Record<string, string>;
}

interface TruthTemplate {
  readonly id: string;
  readonly ticket: (random: Random, n: number) => Ticket;
  readonly sentences: readonly string[];
  readonly choices?: Readonly<Record<string, readonly string[]>>;
}

const shops = ["Atelier Lune", "Pixel Harbor", "Kiln House", "Northwind Goods", "Blue Fern"];
const people = ["Maria Keller", "Jonas Berg", "Lucía Ortega", "Amir Haddad", "Grace Lin"];
const carriers = ["SwiftFreight", "Polar Parcel", "Route 9 Logistics"];
const companies = ["Copperleaf GmbH", "Quayside Ltd", "Brightlane AS"];

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const digits = (random: Random, count: number) =>
  Array.from({ length: count }, () => Math.floor(random() * 10)).join("");
const slug = (text: string) => text.toLowerCase().replace(/[^a-z]+/g, "");

function isoDay(random: Random): string {
  const month = 1 + Math.floor(random() * 12);
  const day = 1 + Math.floor(random() * 28);
  return `2026-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/** A date written as a person would: in one of several formats. */
function writtenDate(random: Random, iso: string): string {
  const [year, month, day] = iso.split("-").map(Number) as [number, number, number];
  const names = ["January", "February", "March", "April", "May", "June", "July", "August", "September"];
  const all = [...names, "October", "November", "December"];
  const name = all[month - 1] as string;
  return pick(random, [
    iso,
    `${day} ${name.slice(0, 3)} ${year}`,
    `${name} ${day}, ${year}`,
    `${String(day).padStart(2, "0")}.${String(month).padStart(2, "0")}.${year}`,
  ]);
}

function writtenMoney(random: Random, amount: number, currency: string): string {
  const locale = pick(random, ["en-US", "de-DE", "en-GB"]);
  return new Intl.NumberFormat(locale, { style: "currency", currency }).format(amount);
}

const templates: readonly TruthTemplate[] = [
  {
    id: "tracking_request",
    ticket: (random, n) => {
      const shop = pick(random, shops);
      const number = `${digits(random, 4)}-${digits(random, 4)}`;
      const email = `orders${n}@${slug(shop)}.example`;
      return {
        records: {
          orders: [
            {
              id: `o${n}`,
              number,
              placedAt: isoDay(random),
              total: 10 + Math.floor(random() * 500),
              currency: "EUR",
              sellerId: `s${n}`,
            },
          ],
          sellers: [{ id: `s${n}`, shopName: shop, email }],
        },
        to: email,
        values: { shop, number },
      };
    },
    sentences: [
      "Hello {shop},",
      "could you please share the tracking number for order {number}?",
      "The buyer has been waiting for an update since last week.",
    ],
  },
  {
    id: "damage_report",
    ticket: (random, n) => {
      const shop = pick(random, shops);
      const number = `${digits(random, 4)}-${digits(random, 4)}`;
      const email = `care${n}@${slug(shop)}.example`;
      return {
        records: {
          orders: [
            { id: `o${n}`, number, placedAt: isoDay(random), total: 80, currency: "EUR", sellerId: `s${n}` },
          ],
          sellers: [{ id: `s${n}`, shopName: shop, email }],
        },
        to: email,
        values: { shop, number },
      };
    },
    sentences: [
      "Dear {shop},",
      "the buyer reports that the parcel for order {number} arrived {damage}.",
      "Please tell us whether you will send a replacement or issue a refund.",
    ],
    choices: { damage: ["crushed", "soaking wet", "with a broken seal", "badly scratched"] },
  },
  {
    id: "refund_request",
    ticket: (random, n) => {
      const shop = pick(random, shops);
      const number = `${digits(random, 4)}-${digits(random, 4)}`;
      const placedAt = isoDay(random);
      const total = 10 + Math.floor(random() * 900) + 0.5;
      const email = `billing${n}@${slug(shop)}.example`;
      return {
        records: {
          orders: [{ id: `o${n}`, number, placedAt, total, currency: "EUR", sellerId: `s${n}` }],
          sellers: [{ id: `s${n}`, shopName: shop, email }],
        },
        to: email,
        values: {
          shop,
          number,
          placedAt: writtenDate(random, placedAt),
          total: writtenMoney(random, total, "EUR"),
        },
      };
    },
    sentences: [
      "Hi {shop},",
      "please refund {total} to the buyer for order {number}, placed on {placedAt}.",
      "The item was returned unopened and our team confirmed its condition.",
    ],
  },
  {
    id: "appointment_reminder",
    ticket: (random, n) => {
      const name = pick(random, people);
      const startsAt = isoDay(random);
      const room = `${pick(random, ["A", "B", "C"])}${digits(random, 2)}`;
      const phone = `+49 151 ${digits(random, 7)}`;
      return {
        records: {
          appointments: [{ id: `a${n}`, startsAt, room, patientId: `p${n}` }],
          patients: [{ id: `p${n}`, name, phone, email: `patient${n}@mail.example` }],
        },
        to: phone.replace(/\s/g, ""),
        values: { name, date: writtenDate(random, startsAt), room },
      };
    },
    sentences: [
      "Hello {name},",
      "this is a reminder of your appointment on {date} in room {room} of the east wing.",
      "Please arrive ten minutes early and bring your insurance card.",
    ],
  },
  {
    id: "appointment_moved",
    ticket: (random, n) => {
      const name = pick(random, people);
      const startsAt = isoDay(random);
      return {
        records: {
          appointments: [{ id: `a${n}`, startsAt, room: "B12", patientId: `p${n}` }],
          patients: [{ id: `p${n}`, name, phone: `+49 151 ${digits(random, 7)}`, email: `patient${n}@mail.example` }],
        },
        to: `patient${n}@mail.example`,
        values: { name, date: writtenDate(random, startsAt) },
      };
    },
    sentences: [
      "Dear {name},",
      "we are sorry but your appointment of {date} has to be moved because the doctor is unavailable.",
      "Please call the front desk to choose a new time that suits you.",
    ],
  },
  {
    id: "shipment_delay",
    ticket: (random, n) => {
      const carrier = pick(random, carriers);
      const tracking = `1Z${digits(random, 10)}`;
      const eta = isoDay(random);
      const email = `desk${n}@${slug(carrier)}.example`;
      return {
        records: {
          shipments: [{ id: `sh${n}`, tracking, eta, carrierId: `c${n}` }],
          carriers: [{ id: `c${n}`, name: carrier, email }],
        },
        to: email,
        values: { carrier, tracking, eta: writtenDate(random, eta) },
      };
    },
    sentences: [
      "Team {carrier},",
      "shipment {tracking} is past its expected delivery date of {eta}.",
      "Could you send us a status update and a new delivery estimate?",
    ],
  },
  {
    id: "lost_parcel_claim",
    ticket: (random, n) => {
      const carrier = pick(random, carriers);
      const tracking = `1Z${digits(random, 10)}`;
      const email = `claims${n}@${slug(carrier)}.example`;
      return {
        records: {
          shipments: [{ id: `sh${n}`, tracking, eta: isoDay(random), carrierId: `c${n}` }],
          carriers: [{ id: `c${n}`, name: carrier, email }],
        },
        to: email,
        values: { carrier, tracking },
      };
    },
    sentences: [
      "To the claims desk of {carrier}:",
      "we are opening a lost parcel claim for shipment {tracking} because it {reason}.",
      "Attach the proof of delivery if you have one, otherwise we will expect compensation.",
    ],
    choices: { reason: ["has had no scans for ten days", "was delivered to a wrong address", "was returned to the depot"] },
  },
  {
    id: "invoice_overdue",
    ticket: (random, n) => {
      const company = pick(random, companies);
      const number = `INV-${digits(random, 6)}`;
      const amount = 100 + Math.floor(random() * 9000);
      const dueOn = isoDay(random);
      const email = `ap${n}@${slug(company)}.example`;
      return {
        records: {
          invoices: [{ id: `i${n}`, number, amount, currency: "EUR", dueOn, partnerId: `pa${n}` }],
          partners: [{ id: `pa${n}`, company, email }],
        },
        to: email,
        values: {
          company,
          number,
          amount: writtenMoney(random, amount, "EUR"),
          dueOn: writtenDate(random, dueOn),
        },
      };
    },
    sentences: [
      "Hi {company} accounts team,",
      "invoice {number} for {amount} was due on {dueOn} and we have not received the payment yet.",
      "Could you confirm when the transfer will be made?",
    ],
  },
];

const greetings = ["Hello", "Hi", "Dear", "Good morning"];
const signatures = ["", "\n\nBest,\nAnna", "\n\nThanks,\nSupport Team", "\n\nKind regards,\nMarco", "\n\nCheers, Sam"];
const freeWords =
  "sorry about the confusion earlier we checked again with finance and logistics the warehouse moved last month so some questions about the contract renewal pricing tier onboarding call next tuesday invite colleagues feedback survey holiday schedule printer broken office keys".split(
    " ",
  );

/** Renders, then paraphrases: another greeting, a signature, a typo, two sentences swapped. */
function paraphrase(random: Random, sentences: readonly string[]): string {
  const out = [...sentences];
  if (random() < 0.3) out[0] = (out[0] as string).replace(/^(Hello|Hi|Dear)\b/, pick(random, greetings));
  if (random() < 0.2 && out.length >= 3) [out[1], out[2]] = [out[2] as string, out[1] as string];
  let text = out.join(random() < 0.5 ? " " : "\n");
  if (random() < 0.2) {
    const words = text.split(" ");
    const at = Math.floor(random() * words.length);
    const word = words[at] as string;
    if (/^[a-z]{5,}$/.test(word)) words[at] = `${word.slice(0, 2)}${word[3]}${word[2]}${word.slice(4)}`;
    text = words.join(" ");
  }
  return text + pick(random, signatures);
}

/** A seeded generator (mulberry32): the same seed gives the same corpus. */
export function seeded(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Options of {@link historyCorpus}. */
export interface CorpusOptions {
  readonly messages: number;
  readonly seed?: number;
  /** Share of messages that fit no template. @default 0.1 */
  readonly freeForm?: number;
  /** Share of messages sent to an address no record holds. @default 0.05 */
  readonly newAddress?: number;
  /** Only these templates. @default all */
  readonly templates?: readonly string[];
}

/** The ids of the templates behind the corpus. */
export const corpusTemplates = templates.map((template) => template.id);

/** A corpus of history lines with the truth about each. */
export function* historyCorpus(options: CorpusOptions): Generator<CorpusLine> {
  const random = seeded(options.seed ?? 1);
  const used = templates.filter((t) => options.templates === undefined || options.templates.includes(t.id));
  const start = Date.parse("2026-03-01T08:00:00Z");
  for (let n = 0; n < options.messages; n++) {
    const template = pick(random, used);
    const ticket = template.ticket(random, n);
    const freeForm = random() < (options.freeForm ?? 0.1);
    const newAddress = random() < (options.newAddress ?? 0.05);
    const values: Record<string, string> = { ...ticket.values };
    for (const [slot, choices] of Object.entries(template.choices ?? {})) values[slot] = pick(random, choices);
    const text = freeForm
      ? `${Array.from({ length: 12 + Math.floor(random() * 20) }, () => pick(random, freeWords)).join(" ")} ${digits(random, 3)}`
      : paraphrase(
          random,
          template.sentences.map((sentence) => sentence.replace(/\{(\w+)\}/g, (_m, name: string) => values[name] ?? "")),
        );
    yield {
      template: freeForm ? undefined : template.id,
      newAddress,
      line: {
        ticketId: `T-${n + 1}`,
        records: ticket.records,
        message: { to: newAddress ? `someone${n}@elsewhere.example` : ticket.to, text },
        at: new Date(start + n * 600_000).toISOString(),
      },
    };
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const { line } of historyCorpus({ messages: 400, seed: 7 })) process.stdout.write(`${JSON.stringify(line)}\n`);
}
