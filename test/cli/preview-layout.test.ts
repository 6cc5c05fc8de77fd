import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, browserRequired } from "./browser.js";
import { type ServedPreview, servePreview } from "./served-preview.js";

const runBrowser = browserAvailable || browserRequired;
if (!runBrowser)
  process.stderr.write("preview-layout.test.ts: browser checks skipped, no /usr/bin/chromium\n");

const source = fileURLToPath(new URL("../../src/index.ts", import.meta.url));
const zod = createRequire(import.meta.url).resolve("zod");

/**
 * A garage's catalog with long joined identifiers (template ids, slots, keys, fields) of the shapes a
 * narrow column used to cut inside a word, the three first-contact settings, a ceiling, an optional
 * choice (counted with "none") and refs the model may leave out; labels built from a field an outsider
 * can fill, so the ticket list shows hostile text.
 */
const catalogModule = `
import { createCatalog, defineRecords, defineTemplate, format, untrusted } from ${JSON.stringify(source)};
import { z } from ${JSON.stringify(zod)};

const records = defineRecords({
  bookings: z.object({ id: z.string(), reference: z.string(), vehicleRegistration: z.string(), customerId: z.string(), quotedAmount: z.number(), currency: z.string(), nickname: untrusted("customer", z.string()) }),
  customers: z.object({ id: z.string(), email: z.email() }),
}, {
  labels: {
    bookings: (booking) => "booking " + booking.reference + " for " + booking.nickname,
    customers: (customer) => "customer " + customer.id,
  },
});
const { slot } = records;
const to = slot.ref("customers", { show: "email", match: { id: "service_booking.customerId" } });
const confirm = defineTemplate(records, {
  id: "service_booking_confirmation", description: "Confirm a service booking to the customer", audience: "garage", effect: "reversible", channel: "email",
  to, subject: "Booking {{service_booking.reference}}",
  body: "Your booking {{service_booking.reference}} for {{service_booking.vehicleRegistration}} is confirmed{{#replacement_vehicle_preference}}, with {{replacement_vehicle_preference}}{{/replacement_vehicle_preference}}.",
  slots: {
    service_booking: slot.ref("bookings", { show: { reference: "reference", vehicleRegistration: "vehicleRegistration" }, where: (booking) => booking.reference.length > 0 }),
    replacement_vehicle_preference: slot.choice({ courtesy_car_requested: "a courtesy car", invalid_proposal_example: "no car" }, { optional: true }),
  },
  limits: { perTicket: 2, perDay: 100 }, firstContact: "hold",
});
const quote = defineTemplate(records, {
  id: "irreversible_repair_authorisation", description: "Ask the customer to authorise a quoted repair", audience: "garage", effect: "irreversible", channel: "email",
  to, subject: "Quote {{service_booking.reference}}", body: "We quote {{service_booking.amount}} for booking {{service_booking.reference}}.",
  slots: { service_booking: slot.ref("bookings", { show: { reference: "reference", amount: { field: "quotedAmount", as: format.money({ currencyField: "currency" }) } } }) },
  limits: { perTicket: 1, perDay: 10 }, approval: "human", firstContact: "send",
  ceilings: { quotes: { values: ["service_booking.amount"], max: { EUR: { message: 2000, day: 10000 } } } },
});
const reminder = defineTemplate(records, {
  id: "reversible_reminder", description: "Remind the customer of a booking", audience: "garage", effect: "informational", channel: "email",
  to, subject: "Reminder", body: "A reminder of booking {{service_booking}}.",
  slots: { service_booking: slot.ref("bookings", { show: "reference" }) },
  limits: { perTicket: 1, perDay: 10 },
});
// An id of 64 characters with nothing joining its words: no line at phone width holds it whole.
const unbroken = defineTemplate(records, {
  id: "remindthecustomerofthenextservicebookingforthevehicleatthegarage", description: "Remind again", audience: "garage", effect: "informational", channel: "email",
  to, subject: "Reminder", body: "Booking {{service_booking}}.",
  slots: { service_booking: slot.ref("bookings", { show: "reference" }) },
  limits: { perTicket: 1, perDay: 10 },
});
export const catalog = createCatalog(records, [confirm, quote, reminder, unbroken]);
`;

const hostileNickname = `<img src=x onerror=f()>Bo & co`;
const tickets = [
  {
    ticketId: "G-1",
    bookings: [
      {
        id: "b1",
        reference: "SRV-2026-0042",
        vehicleRegistration: "HH-AB-1234",
        customerId: "c1",
        quotedAmount: 480,
        currency: "EUR",
        nickname: hostileNickname,
      },
      {
        id: "b2",
        reference: "SRV-2026-0043",
        vehicleRegistration: "HH-CD-5678",
        customerId: "c1",
        quotedAmount: 120,
        currency: "EUR",
        nickname: "Old van",
      },
    ],
    customers: [{ id: "c1", email: "kim@example.com" }],
  },
  { ticketId: "G-2", bookings: "not a list", customers: [] },
  // A ticket id with no place to break, as long as an id is shown.
  { ticketId: `G-${"9".repeat(78)}`, bookings: [], customers: [] },
];

let served: ServedPreview | undefined;

beforeAll(async () => {
  served = await servePreview("garage.ts", catalogModule, tickets, runBrowser);
}, 120_000);

afterAll(async () => {
  await served?.close();
});

/** The preview of the first ticket at each width, loaded once: the checks only read it. */
const opened = new Map<number, Promise<Page>>();

function open(width: number): Promise<Page> {
  const browser = served?.browser;
  const url = served?.server.url;
  if (browser === undefined) throw new Error("no browser: apt-get install chromium");
  let page = opened.get(width);
  if (page === undefined) {
    page = browser.newPage({ viewport: { width, height: 900 } }).then(async (created) => {
      await created.goto(`${url}/?ticket=0`);
      return created;
    });
    opened.set(width, page);
  }
  return page;
}

/** The few DOM parts the measurements use (the tests are compiled without the DOM library). */
interface TextNode {
  readonly textContent: string | null;
}
interface PageDocument {
  readonly documentElement: { readonly scrollWidth: number };
  querySelectorAll(selector: string): Iterable<unknown>;
  createTreeWalker(root: unknown, show: number): { nextNode(): TextNode | null };
  createRange(): {
    setStart(node: TextNode, offset: number): void;
    setEnd(node: TextNode, offset: number): void;
    getClientRects(): Iterable<{ readonly bottom: number }>;
  };
}

/**
 * Every word of an identifier or a table cell that the layout cut across two lines: each run of letters
 * and digits is measured with a Range, and one drawn on more than one line is a cut.
 */
function cutWords(page: Page) {
  return page.evaluate(() => {
    const doc = (globalThis as unknown as { document: PageDocument }).document;
    const cuts: string[] = [];
    const roots = doc.querySelectorAll(
      "table, code, mark, .id, nav ul.toc a, section.template > h2, ul.dimensions, p.counts",
    );
    for (const root of roots) {
      const walker = doc.createTreeWalker(root, 4 /* text nodes */);
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        const text = node.textContent ?? "";
        for (const word of text.matchAll(/[\p{L}\p{N}]+/gu)) {
          // A word longer than any identifier part kept whole (24) may break: the page stays on screen.
          if (word[0].length > 24) continue;
          const range = doc.createRange();
          range.setStart(node, word.index ?? 0);
          range.setEnd(node, (word.index ?? 0) + word[0].length);
          const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.bottom)));
          if (lines.size > 1) cuts.push(word[0]);
        }
      }
    }
    return cuts;
  });
}

describe("formletter preview: layout and wording for a reviewer", () => {
  it.skipIf(!runBrowser).each([390, 1280])(
    "at %i px no identifier or table word is cut inside, and the page is no wider than the screen",
    async (width) => {
      const page = await open(width);
      // The words measured are there: a page that lost them would pass by measuring nothing.
      await expect(page.locator("#template-service_booking_confirmation h2").textContent()).resolves.toBe(
        "service_booking_confirmation",
      );
      expect(await cutWords(page)).toEqual([]);
      const scrollWidth = await page.evaluate(
        () => (globalThis as unknown as { document: PageDocument }).document.documentElement.scrollWidth,
      );
      expect(scrollWidth).toBeLessThanOrEqual(width);
    },
    120_000,
  );

  it.skipIf(!runBrowser)(
    "shows each template's first contact and ceilings in words, without code terms",
    async () => {
      const page = await open(1280);
      const row = (template: string, term: string) =>
        page
          .locator(`#template-${template} dl.meta dt`, { hasText: new RegExp(`^${term}$`) })
          .locator("xpath=following-sibling::dd[1]")
          .textContent();
      await expect(row("service_booking_confirmation", "first contact")).resolves.toMatch(
        /^held: the first message to an address never written to before waits for a person/,
      );
      await expect(row("irreversible_repair_authorisation", "first contact")).resolves.toMatch(/^sent: /);
      await expect(row("reversible_reminder", "first contact")).resolves.toMatch(
        /^not set: the outbox's default decides/,
      );
      await expect(row("irreversible_repair_authorisation", "ceilings")).resolves.toContain(
        "service_booking.amount at most EUR 2000 a message",
      );
      await expect(row("reversible_reminder", "ceilings")).resolves.toBe(
        "none: bounded in messages, not amounts",
      );
      const text = (await page.locator("main").textContent()) ?? "";
      expect(text).not.toMatch(/`|audience:garage|recipient:garage|\(where, derived\)/);
    },
    120_000,
  );

  it.skipIf(!runBrowser)(
    'says what each slot counts in the combinations, "none" and "left out" included',
    async () => {
      const page = await open(1280);
      const items = await page
        .locator("#template-service_booking_confirmation ul.dimensions li")
        .allTextContents();
      expect(items).toEqual([
        "service_booking: 3 = 2 records of bookings + left out",
        "replacement_vehicle_preference: 3 = 2 answers + none",
        "to: 2 = 1 record of customers + left out",
      ]);
      const preview = served?.catalog.preview(tickets[0], { limit: 500 });
      if (preview === undefined) throw new Error("the preview is not served");
      if (!preview.ok) throw new Error(preview.problem);
      const shown = preview.templates.find((t) => t.template === "service_booking_confirmation");
      expect(shown?.combinations).toBe(3 * 3 * 2);
      await expect(
        page.locator("#template-service_booking_confirmation p.counts").textContent(),
      ).resolves.toMatch(/^18 combinations ·/);
      await expect(
        page.locator("#template-service_booking_confirmation p.legend").textContent(),
      ).resolves.toMatch(/none: the model leaves an optional slot empty; left out: the model does not name/);
    },
    120_000,
  );

  it.skipIf(!runBrowser)(
    "lists each ticket by its id and its records' labels, as text, and says when its records are invalid",
    async () => {
      const page = await open(390);
      const entries = await page.locator("nav ul.tickets li").allTextContents();
      expect(entries).toEqual([
        `G-1 booking SRV-2026-0042 for ${hostileNickname}; customer c1 (3 records)`,
        "G-2 records invalid or not labelled",
        `G-${"9".repeat(78)} no records`,
      ]);
      await expect(page.locator("img").count()).resolves.toBe(0);
      // The shown ticket stays marked in the list.
      await expect(page.locator('nav a[aria-current="page"] .ticket-id').textContent()).resolves.toBe("G-1");
    },
    120_000,
  );
});
