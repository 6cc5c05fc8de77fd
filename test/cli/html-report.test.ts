import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderMiningHtml } from "../../src/cli/mine-html.js";
import type { EscalationReport } from "../../src/metrics/index.js";
import type { MiningReport } from "../../src/mine/mine-history.js";
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
const corpusModule = fileURLToPath(new URL("../../examples/data/history-corpus.ts", import.meta.url));
const minedHistory = fileURLToPath(new URL("../../examples/data/history.jsonl", import.meta.url));

let directory: string;
let html: string;
let report: EscalationReport;
let browser: Browser | undefined;
/** Chromium starting while the pages are written; `browser` once it has started. */
let launching: Promise<Browser> | undefined;
/** Pages of other histories cut from the bundled one: a single day, two days, a last day that all escalated. */
let oneDay: Replayed;
let twoDays: Replayed;
let hotLastDay: Replayed;
let apart: Replayed;
let mining: string;

interface HistoryLine {
  readonly at: string;
  readonly output: unknown;
}

/** An HTML page replayed from a history, and the report the same run printed as JSON. */
interface Replayed {
  readonly page: string;
  readonly report: EscalationReport;
}

/** Writes `lines` as a history and replays it into an HTML page and a JSON report, in one run. */
async function replayPage(name: string, lines: readonly HistoryLine[]): Promise<Replayed> {
  const history = join(directory, `${name}.jsonl`);
  writeFileSync(history, lines.map((line) => JSON.stringify(line)).join("\n"));
  const page = join(directory, `${name}.html`);
  const result = await cli(["replay", sellerCatalog, history, "--html", page, "--json"]);
  expect(result.code, result.stderr).toBe(0);
  return { page, report: JSON.parse(result.stdout) };
}

beforeAll(async () => {
  if (!available && required)
    throw new Error(`CI=true and no browser at ${executablePath}: apt-get install chromium`);
  if (available) {
    launching = launchChromium();
    // Awaited below; a failed start is reported there, not as an unhandled rejection meanwhile.
    launching.catch(() => undefined);
  }
  directory = mkdtempSync(join(tmpdir(), "formletter-html-"));
  html = join(directory, "report.html");
  const result = await cli(["replay", sellerCatalog, tickets, "--html", html, "--json"]);
  expect(result.code).toBe(0);
  report = JSON.parse(result.stdout);
  const lines: HistoryLine[] = readFileSync(tickets, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));
  const on = (day: string) => lines.filter((line) => line.at.startsWith(day));
  oneDay = await replayPage("one-day", on("2026-03-02"));
  twoDays = await replayPage("two-days", [...on("2026-03-02"), ...on("2026-03-03")]);
  // Every line where the model escalated, moved to the second day: a 100% day at the plot's top right.
  const escalating = lines
    .filter((line) => typeof line.output === "object" && line.output !== null && "escalate" in line.output)
    .map((line) => ({ ...line, at: "2026-03-03T12:00:00.000Z" }));
  apart = await replayPage("days-apart", [...on("2026-03-02"), ...on("2026-03-10")]);
  hotLastDay = await replayPage("hot-last-day", [...on("2026-03-02"), ...escalating]);
  mining = join(directory, "mine.html");
  const mined = await cli(["mine", "--records", corpusModule, minedHistory, "--html", mining]);
  expect(mined.code, mined.stderr).toBe(0);
  browser = await launching;
}, 120_000);

/** The one page every browser check loads its file in, and what it reported since its last load. */
let watched: { page: Page; problems: string[]; requests: string[] } | undefined;

/**
 * Loads `file` at `width` px in the shared page, recording from the load on each console error or
 * warning, uncaught error and request. A new document each time: the pages hold no state to carry over.
 */
async function load(file: string, width: number) {
  if (browser === undefined)
    throw new Error(`no browser at ${executablePath} (CI=true): apt-get install chromium`);
  if (watched === undefined) {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    const opened = { page, problems: [] as string[], requests: [] as string[] };
    page.on("console", (message) => {
      if (message.type() === "error" || message.type() === "warning") opened.problems.push(message.text());
    });
    page.on("pageerror", (error) => opened.problems.push(error.message));
    page.on("request", (request) => opened.requests.push(request.url()));
    watched = opened;
  } else await watched.page.setViewportSize({ width, height: 900 });
  watched.problems.length = 0;
  watched.requests.length = 0;
  await watched.page.goto(pathToFileURL(file).href, { waitUntil: "load" });
  return watched;
}

afterAll(async () => {
  await (await launching?.catch(() => undefined))?.close();
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
      const { page, problems, requests } = await load(html, 1280);

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
      expect(requests).toEqual([pathToFileURL(html).href]);
    },
    60_000,
  );

  it("puts the daily chart's gridlines on round percentages, 1, 2, 2.5 or 5 × 10^k apart", () => {
    // Two days whose intervals top out near 62%: an axis cut in quarters of 70% read 17.5% and 52.5%.
    for (const file of [html, twoDays.page]) {
      const page = readFileSync(file, "utf8");
      const chart = page.slice(
        page.indexOf('<svg id="daily-chart"'),
        page.indexOf("</svg>", page.indexOf('<svg id="daily-chart"')),
      );
      const ticks = [...chart.matchAll(/<text class="tick"[^>]*text-anchor="end">([\d.]+)%<\/text>/g)].map(
        (match) => Number(match[1]),
      );
      expect(ticks.length, file).toBeGreaterThanOrEqual(3);
      expect(ticks[0]).toBe(0);
      const step = Number(((ticks[1] ?? 0) - (ticks[0] ?? 0)).toPrecision(6));
      const power = 10 ** Math.floor(Math.log10(step));
      expect([1, 2, 2.5, 5], `step ${step} in ${file}`).toContain(Number((step / power).toPrecision(6)));
      for (const [index, tick] of ticks.entries()) expect(tick).toBeCloseTo(index * step, 6);
      const highest = Math.max(...report.byDay.map((day) => day.high)) * 100;
      if (file === html) expect(ticks.at(-1)).toBeGreaterThanOrEqual(highest);
    }
  });

  it("lists the first escalations by reason in a table like the other sections", () => {
    const page = readFileSync(html, "utf8");
    expect(page).toContain('<table id="reason-examples">');
    expect(page).not.toMatch(/<dl|<dt|<dd/);
    const examples = report.byReason.flatMap((row) => row.examples ?? []);
    expect(examples.length).toBeGreaterThan(0);
    const table = page.slice(
      page.indexOf('<table id="reason-examples">'),
      page.indexOf("</table>", page.indexOf('<table id="reason-examples">')),
    );
    expect(table.match(/<tr>/g)?.length).toBe(examples.length + 1);
  });

  it("writes the rate beside a day that has no neighbour to draw a line to", () => {
    const page = readFileSync(apart.page, "utf8");
    const { byDay } = apart.report;
    expect(byDay.map((day) => day.key)).toEqual(["2026-03-02", "2026-03-10"]);
    const values = [...page.matchAll(/<text class="point-value"[^>]*>([^<]+)<\/text>/g)].map(
      (match) => match[1],
    );
    expect(values).toEqual(byDay.map((day) => `${(day.rate * 100).toFixed(1)}%`));
  });

  it("writes the numbers of a mining report's only catalog size beside its bar", () => {
    const point = { k: 1, coverage: 0.42, escalationRate: 0.58, interval: { low: 0.43, high: 0.72 } };
    const mined = {
      messages: 40,
      malformed: 0,
      problems: [],
      candidates: [],
      messagesPerDay: 4,
      newRecipients: { count: 4, rate: 0.1, interval: { low: 0.03, high: 0.2 } },
      coverage: [point],
      locales: [],
      language: undefined,
    } as unknown as MiningReport;
    const page = renderMiningHtml(mined, { title: "t", subtitle: "s", generatedAt: new Date(0) });
    expect(page).toContain(">coverage 42.0%</text>");
    expect(page).toContain(">escalation 58.0% (95% CI 43.0%–72.0%)</text>");
    expect(page).not.toContain('id="languages"');
    // The languages a history was read in, escaped as every value of the history is.
    const italian = renderMiningHtml(
      { ...mined, language: "it", locales: ["it", "<b>x</b>"] },
      { title: "t", subtitle: "s", generatedAt: new Date(0) },
    );
    expect(italian).toContain(
      '<p id="languages">written in <strong>it</strong> (drafts write dates in its order of digits) · dates also read in <code>it</code>, <code>&lt;b&gt;x&lt;/b&gt;</code>',
    );
  });

  /** Opens `file` at `width` px, failing on any console error. */
  async function open(file: string, width: number): Promise<Page> {
    const { page, problems } = await load(file, width);
    expect(problems).toEqual([]);
    return page;
  }

  const overlaps = (a: Box, b: Box) =>
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

  it.skipIf(!available && !required)(
    "keeps each chart's legend off its data points, at 1280 and 390 px",
    async () => {
      const charts = [
        [html, "daily-chart", ".day-point"],
        [hotLastDay.page, "daily-chart", ".day-point"],
        [mining, "coverage-chart", ".rate-point, .bar"],
      ] as const;
      for (const width of [1280, 390]) {
        for (const [file, id, points] of charts) {
          const page = await open(file, width);
          // The legend wherever a page draws it: above the plot, or (as it once was) inside the SVG.
          const legend = page.locator(`#${id}-legend, svg#${id} .legend`).first();
          await expect(legend.isVisible(), `${id} legend in ${file}`).resolves.toBe(true);
          const legendBox = await legend.boundingBox();
          if (legendBox === null) throw new Error(`${id} legend has no box`);
          const boxes = await page.locator(`#${id} :is(${points})`).evaluateAll((nodes) =>
            nodes.map((node) => {
              const rect = node.getBoundingClientRect();
              return { x: rect.x, y: rect.y, width: rect.width, height: rect.height };
            }),
          );
          expect(boxes.length).toBeGreaterThan(0);
          for (const box of boxes)
            expect(overlaps(legendBox, box), `${id} at ${width}px: ${JSON.stringify(box)}`).toBe(false);
        }
      }
    },
    60_000,
  );

  it.skipIf(!available && !required)(
    "shows a one-day history's rate as a sentence and a labelled bar, not a lone dot",
    async () => {
      const [day] = oneDay.report.byDay;
      if (day === undefined) throw new Error("the one-day history has no dated decision");
      const rate = `${(day.rate * 100).toFixed(1)}%`;
      for (const width of [1280, 390]) {
        const page = await open(oneDay.page, width);
        const sentence = page.locator("#daily-single");
        await expect(sentence.isVisible()).resolves.toBe(true);
        await expect(sentence.textContent()).resolves.toContain(rate);
        await expect(sentence.textContent()).resolves.toContain(day.key);
        const label = page.locator("#daily-chart .bar-value");
        await expect(label.textContent()).resolves.toContain(rate);
        const labelBox = await label.boundingBox();
        expect(labelBox?.height).toBeGreaterThan(6);
        await expect(page.locator("#daily-chart .bar").isVisible()).resolves.toBe(true);
      }
    },
    60_000,
  );

  it.skipIf(!available && !required)(
    "styles the first escalations like the other tables, and fits every page in a 390 px screen",
    async () => {
      const page = await open(html, 1280);
      const cell = page.locator("#reason-examples td").first();
      const style = await cell.evaluate((element) => {
        const computed = (
          globalThis as unknown as {
            getComputedStyle(node: unknown): { borderBottomStyle: string; paddingLeft: string };
          }
        ).getComputedStyle(element);
        return { border: computed.borderBottomStyle, padding: computed.paddingLeft };
      });
      expect(style).toEqual({ border: "solid", padding: "10px" });
      for (const file of [html, oneDay.page, mining]) {
        const narrow = await open(file, 390);
        // Wide charts and tables scroll inside their own box; the page itself never scrolls sideways.
        const scrollWidth = await narrow.evaluate(
          () =>
            (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document
              .documentElement.scrollWidth,
        );
        expect(scrollWidth, file).toBeLessThanOrEqual(390);
      }
    },
    60_000,
  );
});

interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}
