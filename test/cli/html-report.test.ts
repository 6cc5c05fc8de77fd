import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EscalationReport } from "../../src/metrics/index.js";
import { browserAvailable, browserRequired, executablePath, launchChromium } from "./browser.js";
import { cli } from "./run.js";

const available = browserAvailable;
const required = browserRequired;
if (!available && !required) {
  process.stderr.write(
    `html-report.test.ts: skipped, no browser at ${executablePath}: apt-get install chromium\n`,
  );
}

const sellerCatalog = fileURLToPath(new URL("../../templates/seller.ts", import.meta.url));
const tickets = fileURLToPath(new URL("../../examples/data/tickets.jsonl", import.meta.url));

let directory: string;
let html: string;
let report: EscalationReport;
let browser: Browser | undefined;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), "formletter-html-"));
  html = join(directory, "report.html");
  const result = await cli(["replay", sellerCatalog, tickets, "--html", html, "--json"]);
  expect(result.code).toBe(0);
  report = JSON.parse(result.stdout);
  if (!available && required)
    throw new Error(`CI=true and no browser at ${executablePath}: apt-get install chromium`);
  if (available) {
    browser = await launchChromium();
  }
}, 60_000);

afterAll(async () => {
  await browser?.close();
  rmSync(directory, { recursive: true, force: true });
});

describe("the HTML report", () => {
  it("is one self-contained file: no script, no external URL, a policy that forbids loading anything", () => {
    const page = readFileSync(html, "utf8");
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
    expect(page).not.toMatch(/<script|<link|<img|@import|url\(|https?:\/\//i);
  });

  it("says each template's effect in the table by template, and the first-contact rate", () => {
    const page = readFileSync(html, "utf8");
    const table = page.slice(
      page.indexOf('<table id="template-table">'),
      page.indexOf("</table>", page.indexOf('<table id="template-table">')),
    );
    expect(table).toContain("<th>effect</th>");
    expect(table).toMatch(/<td>refund_request<\/td><td>irreversible<\/td>/);
    expect(table).toMatch(/<td>replacement_available<\/td><td>reversible<\/td>/);
    expect(table).toMatch(/<td>tracking_request<\/td><td>informational<\/td>/);
    const first = report.firstContact;
    expect(first.firstContacts).toBeGreaterThan(0);
    expect(page).toContain(`${first.firstContacts} of ${first.sends} sends`);
  });

  it.skipIf(!available && !required)(
    "renders in headless Chromium: chart, band, bars and tables visible, no console error, no request but the page",
    async () => {
      if (browser === undefined)
        throw new Error(`no browser at ${executablePath} (CI=true): apt-get install chromium`);
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const problems: string[] = [];
      const requests: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
      });
      page.on("pageerror", (error) => problems.push(error.message));
      page.on("request", (request) => requests.push(request.url()));
      const url = pathToFileURL(html).href;
      await page.goto(url, { waitUntil: "load" });

      const chart = page.locator("#daily-chart");
      await expect(chart.isVisible()).resolves.toBe(true);
      const box = await chart.boundingBox();
      expect(box?.width).toBeGreaterThan(300);
      expect(box?.height).toBeGreaterThan(150);
      // The file spans 22 days with 16 of them holding decisions: one point per day with decisions.
      expect(report.byDay.length).toBeGreaterThan(5);
      await expect(page.locator("#daily-chart .day-point").count()).resolves.toBe(report.byDay.length);
      const bands = page.locator("#daily-chart .series .band");
      expect(await bands.count()).toBeGreaterThan(0);
      await expect(bands.first().isVisible()).resolves.toBe(true);
      expect(await page.locator("#daily-chart .rate-line").count()).toBeGreaterThan(0);
      // Runs in the page: the project's own types have no DOM, so the page's global is typed by hand.
      const bandFill = await bands
        .first()
        .evaluate(
          (element) =>
            (globalThis as unknown as { getComputedStyle(node: unknown): { fill: string } }).getComputedStyle(
              element,
            ).fill,
        );
      expect(bandFill).not.toBe("none");
      const bandBox = await bands.first().boundingBox();
      expect(bandBox?.height).toBeGreaterThan(5);

      const reasonBars = page.locator("#reason-bars .bar");
      await expect(reasonBars.count()).resolves.toBe(report.byReason.length);
      const widths = await reasonBars.evaluateAll((bars) =>
        bars.map((bar) => bar.getBoundingClientRect().width),
      );
      expect(widths[0]).toBe(Math.max(...widths)); // most frequent reason first, widest
      await expect(page.locator("#template-bars .bar").count()).resolves.toBe(report.byTemplate.length);
      await expect(page.locator("#reason-bars").isVisible()).resolves.toBe(true);
      await expect(page.locator("#template-bars").isVisible()).resolves.toBe(true);
      await expect(page.locator("#reason-table tbody tr").count()).resolves.toBe(report.byReason.length);
      await expect(page.locator("#day-table tbody tr").count()).resolves.toBe(report.byDay.length);
      await expect(page.locator("#overall-rate .value").textContent()).resolves.toBe("44.2%");

      const screenshot = join(directory, "report.png");
      await page.screenshot({ path: screenshot, fullPage: true });
      expect(statSync(screenshot).size).toBeGreaterThan(10_000);

      expect(problems).toEqual([]);
      expect(requests).toEqual([url]);
      await page.close();
    },
    60_000,
  );
});
