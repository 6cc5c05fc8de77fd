import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PreviewServer } from "../../src/cli/preview-server.js";
import { readSampleTickets } from "../../src/cli/preview-tickets.js";
import type { TemplatePreview } from "../../src/core/preview/index.js";
import type { Catalog } from "../../src/index.js";
import { sellerCatalog } from "../../templates/seller.js";
import { browserAvailable, browserRequired } from "./browser.js";
import { cli } from "./run.js";
import { type ServedPreview, servePreview } from "./served-preview.js";

const runBrowser = browserAvailable || browserRequired;
if (!runBrowser) process.stderr.write("preview.test.ts: browser checks skipped, no /usr/bin/chromium\n");

const source = fileURLToPath(new URL("../../src/index.ts", import.meta.url));
const zod = createRequire(import.meta.url).resolve("zod");
// The README's screenshot is written only when asked for, so a test run leaves the repository as it was.
const screenshotFile =
  process.env.UPDATE_SCREENSHOTS === "1"
    ? fileURLToPath(new URL("../../docs/preview.png", import.meta.url))
    : undefined;
const sellerModule = fileURLToPath(new URL("../../templates/seller.ts", import.meta.url));
const history = fileURLToPath(new URL("../../examples/data/tickets.jsonl", import.meta.url));

/** A catalog module with an untrusted field shown back to its author, private fields, SMS and approval. */
const catalogModule = (greeting: string) => `
import { createCatalog, defineRecords, defineTemplate, format, readableBy, untrusted } from ${JSON.stringify(source)};
import { z } from ${JSON.stringify(zod)};

const records = defineRecords({
  orders: z.object({ id: z.string(), number: z.string(), note: untrusted("customer", z.string()) }),
  customers: z.object({ id: z.string(), name: z.string(), email: readableBy(["customer"], z.email()), phone: readableBy(["customer"], z.string()) }),
});
const { slot } = records;
const speed = slot.choice({ fast: "within a day", slow: "within a week" }, { optional: true });
const reply = defineTemplate(records, {
  id: "order_reply", description: "Answer the customer about an order", audience: "customer", effect: "informational", channel: "email",
  to: slot.ref("customers", { show: "email" }),
  subject: "Your order {{order.number}}",
  body: ${JSON.stringify(`${greeting} about order {{order.number}} you wrote: {{order.note}}{{#speed}} We answer {{speed}}.{{/speed}}`)},
  html: "<p>About order <b>{{order.number}}</b>: {{order.note}}</p>",
  slots: { order: slot.ref("orders", { show: { number: "number", note: "note" } }), speed },
  limits: { perTicket: 2, perDay: 100 },
});
const refund = defineTemplate(records, {
  id: "refund", description: "Refund an order", audience: "customer", effect: "irreversible", channel: "email",
  to: slot.ref("customers", { show: "email" }), subject: "Refund for {{order}}", body: "We refunded order {{order}}.",
  slots: { order: slot.ref("orders", { show: "number" }) }, limits: { perTicket: 1, perDay: 10 }, approval: "human",
});
const text = defineTemplate(records, {
  id: "order_sms", description: "Text the customer that an order moved", audience: "customer", effect: "informational", channel: "sms",
  to: slot.ref("customers", { show: "phone", as: format.phone({ defaultCountry: "DE" }) }),
  body: "Order {{order}} has moved. Details in your account.",
  slots: { order: slot.ref("orders", { show: "number" }) }, limits: { perTicket: 1, perDay: 10 },
});
export const catalog = createCatalog(records, [reply, refund, text]);
`;

const hostile = `<script>document.title="pwned"</script><img src=x onerror="alert(1)"> & \u202Eevil`;
const tickets = [
  {
    ticketId: "T-1",
    orders: [{ id: "o1", number: "4471-2290", note: "Where is it?" }],
    customers: [{ id: "c1", name: "Ana", email: "ana@example.com", phone: "+49 151 23456789" }],
  },
  {
    ticketId: "T-2 <b>bold</b>",
    orders: [
      { id: "__proto__", number: "4471-3318", note: hostile },
      { id: "constructor", number: "4471-3319", note: "Thanks" },
    ],
    customers: [
      { id: "c1", name: "Bo", email: "Bo@Example.org", phone: "030 1234567" },
      { id: "c2", name: "Cy", email: "cy@example.org", phone: "+49 151 99999999" },
    ],
  },
];

let served: ServedPreview;
let directory: string;
let moduleFile: string;
let catalog: Catalog;
let server: PreviewServer | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  served = await servePreview("catalog.ts", catalogModule("Hello,"), tickets, runBrowser);
  ({ directory, moduleFile, catalog, server, browser } = served);
}, 120_000);

afterAll(async () => {
  await served?.close();
});

/** A page that records every console problem, script error, dialog and request. */
async function watchedPage(viewport = { width: 1280, height: 900 }) {
  if (browser === undefined) throw new Error("no browser: apt-get install chromium");
  const page = await browser.newPage({ viewport });
  const problems: string[] = [];
  const requests: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("dialog", (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on("request", (request) => requests.push(request.url()));
  return { page, problems, requests };
}

/** The messages a template's section shows, as the page renders them. */
async function shownMessages(page: Page, template: string) {
  return page.locator(`#template-${template} li.message`).evaluateAll((items) =>
    items.map((item) => {
      const text = (selector: string) => item.querySelector(selector)?.textContent ?? undefined;
      return {
        key: item.getAttribute("data-key"),
        outcome: item.getAttribute("data-outcome"),
        to: text(".to"),
        subject: text(".subject"),
        text: text("pre.text"),
        html: text("pre.html"),
        sms: text(".sms"),
      };
    }),
  );
}

function expectedMessages(shown: TemplatePreview) {
  return shown.messages.map((entry) => ({
    key: entry.key,
    outcome: entry.outcome,
    to: entry.message.to,
    subject: entry.message.subject,
    text: entry.message.text,
    html: entry.message.html,
    sms:
      entry.message.sms === undefined
        ? undefined
        : `${entry.message.sms.segments} segment${entry.message.sms.segments === 1 ? "" : "s"}, ${entry.message.sms.encoding}`,
  }));
}

describe("formletter preview, served", () => {
  it.skipIf(!runBrowser)(
    "shows, for a picked ticket and template, exactly the messages preview() and decide() give, with labels, and no outside request",
    async () => {
      const { page, problems, requests } = await watchedPage();
      await page.goto(`${server?.url}/`);
      // Keyboard: the first Tab reaches the skip link, which leads to the content.
      await page.keyboard.press("Tab");
      await expect(
        page.evaluate(
          () =>
            (globalThis as unknown as { document: { activeElement: { textContent: string } } }).document
              .activeElement.textContent,
        ),
      ).resolves.toBe("Skip to content");

      await page.getByRole("link", { name: "T-2 <b>bold</b>" }).click();
      await page.waitForURL(/ticket=1/);
      await page.getByRole("navigation").getByRole("link", { name: "order_reply" }).click();
      await expect(page.locator("#ticket-summary h2").textContent()).resolves.toBe("Ticket T-2 <b>bold</b>");

      const preview = catalog.preview(tickets[1], { limit: 500 });
      if (!preview.ok) throw new Error(preview.problem);
      for (const shown of preview.templates) {
        const onPage = await shownMessages(page, shown.template);
        expect(onPage).toEqual(expectedMessages(shown));
        expect(onPage.length).toBeGreaterThan(0);
        for (const entry of shown.messages) {
          const decision = catalog.decide(entry.proposal, tickets[1]);
          expect(decision.outcome === "send" ? decision.message : decision.draft).toEqual(entry.message);
        }
        const reasons = await page
          .locator(`#template-${shown.template} table.escalations tbody tr`)
          .evaluateAll((rows) =>
            rows.map((row) => [row.getAttribute("data-reason"), row.querySelector("td")?.textContent]),
          );
        expect(reasons).toEqual(shown.escalations.map((group) => [group.reason, String(group.count)]));
      }
      // The hostile note is shown as text, in the text and escaped in the HTML: nothing of it ran.
      const withNote = (await shownMessages(page, "order_reply")).filter((m) => m.text?.includes("pwned"));
      expect(withNote.length).toBeGreaterThan(0);
      await expect(page.locator("img, main b, iframe").count()).resolves.toBe(0);
      await expect(page.title()).resolves.toBe("Catalog preview: catalog.ts");
      await expect(page.locator("script").count()).resolves.toBe(1);
      await expect(
        page.locator('#template-refund li.message[data-outcome="approval"]').count(),
      ).resolves.toBe(4);
      await expect(page.locator("#template-order_sms .sms").first().textContent()).resolves.toMatch(
        /1 segment, GSM-7/,
      );

      const labels = page.locator("#template-order_reply .label");
      await expect(labels.filter({ hasText: "UNTRUSTED, written by customer" }).count()).resolves.toBe(1);
      await expect(labels.filter({ hasText: "PRIVATE, readable by customer" }).count()).resolves.toBe(1);
      await expect(page.locator("#template-order_reply mark.slot").first().textContent()).resolves.toBe(
        "{{order.number}}",
      );

      // Searching (on the server, no script) keeps only matching messages.
      await page.locator("#q").fill("4471-3319");
      await page.locator("form.search button").click();
      await page.waitForURL(/q=4471-3319/);
      const found = await shownMessages(page, "order_reply");
      expect(found.length).toBeGreaterThan(0);
      expect(found.every((m) => m.text?.includes("4471-3319"))).toBe(true);

      expect(problems).toEqual([]);
      expect(requests.every((url) => url.startsWith(`${server?.url}/`))).toBe(true);
      await page.close();
    },
    120_000,
  );

  it.skipIf(!runBrowser)(
    "reloads the page when the catalog module changes, and stays readable at phone width",
    async () => {
      const { page, problems, requests } = await watchedPage({ width: 390, height: 800 });
      await page.goto(`${server?.url}/?ticket=0`);
      const width = await page.evaluate(
        () =>
          (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document
            .documentElement.scrollWidth,
      );
      expect(width).toBeLessThanOrEqual(390);
      await expect(page.locator("#template-order_reply pre.text").first().textContent()).resolves.toMatch(
        /^Hello,/,
      );
      writeFileSync(moduleFile, catalogModule("Good day,"));
      await expect
        .poll(() => page.locator("#template-order_reply pre.text").first().textContent(), {
          timeout: 60_000,
          interval: 500,
        })
        .toMatch(/^Good day, about order 4471-2290/);
      expect(problems).toEqual([]);
      expect(requests.every((url) => url.startsWith(`${server?.url}/`))).toBe(true);
      await page.close();
    },
    120_000,
  );

  it("answers only requests for its own host and port", async () => {
    const url = new URL(`${server?.url}/version`);
    const own = await fetch(url);
    expect(own.status).toBe(200);
    const { request } = await import("node:http");
    const status = await new Promise<number | undefined>((done) => {
      request(
        { host: url.hostname, port: url.port, path: "/", headers: { host: "evil.example" } },
        (answer) => {
          answer.resume();
          done(answer.statusCode);
        },
      ).end();
    });
    expect(status).toBe(421);
    const page = await fetch(`${server?.url}/`);
    expect(page.headers.get("content-security-policy")).toMatch(
      /script-src 'nonce-[A-Za-z0-9+/=]+'; connect-src 'self'/,
    );
  });
});

describe("formletter preview --out", () => {
  let out: string;
  beforeAll(async () => {
    out = join(directory, "static");
    const result = await cli([
      "preview",
      "--catalog",
      sellerModule,
      "--history",
      history,
      "--out",
      out,
      "--pages",
      "2",
    ]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
  }, 120_000);

  it("writes self-contained pages: no script, a policy that loads nothing, every ticket value escaped", () => {
    for (const name of ["index.html", "ticket-1.html"]) {
      const html = readFileSync(join(out, name), "utf8");
      expect(html).toContain(
        `content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'"`,
      );
      expect(html).not.toMatch(/<script|<link|<img|<iframe|@import|url\(/i);
    }
    expect(existsSync(join(out, "ticket-2.html"))).toBe(false);
  });

  it("lists each template's effect next to its approval, in the table and in each template's section", () => {
    const html = readFileSync(join(out, "index.html"), "utf8");
    expect(html).toContain('<th scope="col">effect</th><th scope="col">approval</th>');
    expect(html).toMatch(
      /href="#template-refund_request"><span class="id nowrap">refund_request<\/span><\/a><\/th>.*<td class="effect">irreversible<\/td><td>human<\/td>/,
    );
    expect(html).toMatch(
      /href="#template-return_authorization"><span class="id nowrap">return_authorization<\/span><\/a><\/th>.*<td class="effect">reversible<\/td><td>—<\/td>/,
    );
    expect(html).toMatch(
      /href="#template-damage_report"><span class="id nowrap">damage_report<\/span><\/a><\/th>.*<td class="effect">informational<\/td><td>—<\/td>/,
    );
    expect(html).toContain(
      '<dt>effect</dt><dd class="effect">irreversible: starts something that cannot be taken back</dd>',
    );
  });

  it("escapes hostile record values and ticket ids in the static pages", async () => {
    const hostileOut = join(directory, "hostile");
    const samples = join(directory, "hostile.json");
    writeFileSync(samples, JSON.stringify([tickets[1]]));
    const result = await cli(["preview", "--catalog", moduleFile, "--records", samples, "--out", hostileOut]);
    expect(result.code).toBe(0);
    const html = readFileSync(join(hostileOut, "index.html"), "utf8");
    expect(html).toContain("pwned");
    expect(html).toContain("T-2 &lt;b&gt;bold&lt;/b&gt;");
    expect(html).not.toMatch(/<script|<img|<b>/i);
  }, 120_000);

  it.skipIf(!runBrowser)(
    "shows the seller catalog's messages for the first bundled ticket as preview() gives them; screenshot for the README",
    async () => {
      const { page, problems, requests } = await watchedPage({ width: 1280, height: 820 });
      await page.goto(pathToFileURL(join(out, "index.html")).href);
      const first = readSampleTickets({ history }).records[0];
      const preview = sellerCatalog.preview(first, { limit: 500 });
      if (!preview.ok) throw new Error(preview.problem);
      for (const shown of preview.templates)
        expect(await shownMessages(page, shown.template)).toEqual(expectedMessages(shown));
      await expect(page.locator("script").count()).resolves.toBe(0);
      expect(problems).toEqual([]);
      expect(requests.every((url) => url.startsWith("file://"))).toBe(true);
      await page.locator("#template-damage_report").scrollIntoViewIfNeeded();
      await page.evaluate(
        () =>
          ((globalThis as unknown as { location: { hash: string } }).location.hash =
            "#template-damage_report"),
      );
      const screenshot = await page.screenshot({ path: screenshotFile ?? join(directory, "preview.png") });
      expect(screenshot.length).toBeGreaterThan(10_000);
      await page.close();
    },
    120_000,
  );
});
