import { writeFileSync } from "node:fs";
import axe from "axe-core";
import type { BrowserContext, Browser as Chromium, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, browserRequired, launchChromium } from "../cli/browser.js";
import { populate, useWorkspace } from "./rig.js";

const runBrowser = browserAvailable || browserRequired;
let chromium: Chromium | undefined;
/** The contexts a test opened, closed when it ends. */
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  if (runBrowser) chromium = await launchChromium();
});
afterAll(async () => {
  await chromium?.close();
});

/** A page in a context of its own (its own cookies), with what went wrong and every request recorded. */
async function watchedPage(width = 1280) {
  if (chromium === undefined) throw new Error("no browser: apt-get install chromium");
  const context = await chromium.newContext({ viewport: { width, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  const problems: string[] = [];
  const requests: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("dialog", (dialog) => {
    // The one dialog the workspace opens: the confirmation before approving.
    if (dialog.type() === "confirm" && dialog.message() === "Send this draft exactly as shown?")
      void dialog.accept();
    else {
      problems.push(`dialog: ${dialog.message()}`);
      void dialog.dismiss();
    }
  });
  page.on("request", (request) => requests.push(request.url()));
  return { page, problems, requests };
}

async function signIn(page: Page, url: string, token: string) {
  await page.goto(`${url}/queue/`);
  await page.getByLabel("operator token").fill(token);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`${url}/queue/`);
}

/**
 * axe-core's violations on the page's document, the draft's frame element included. The draft's frame is
 * sandboxed without scripts, so axe cannot run inside it (a run injected there waits forever on timers
 * the sandbox never fires): it is checked as an element of the page, not entered.
 */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(axe.source);
  return page.evaluate(async () => {
    const { run } = (
      globalThis as unknown as {
        axe: {
          run(
            context: unknown,
            options: { iframes: boolean; resultTypes: string[] },
          ): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    const document = (globalThis as unknown as { document: unknown }).document;
    // Only the violations are reported in full: axe skips building selectors for every passing node.
    const result = await run(document, { iframes: false, resultTypes: ["violations"] });
    return result.violations.map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
    );
  });
}

const pwned = (page: Page) => page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned);
const scrollWidth = (page: Page) =>
  page.evaluate(
    () =>
      (globalThis as unknown as { document: { scrollingElement: { scrollWidth: number } } }).document
        .scrollingElement.scrollWidth,
  );

describe("the workspace in Chromium", () => {
  const setup = useWorkspace({ pollMs: 50 });
  // Registered after the rig's hooks, so run before them: the pages' live event streams end here, and the
  // relay closes at once instead of waiting out its grace period for their connections.
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
  });

  it.skipIf(!runBrowser)(
    "signs in, moves by keyboard, claims, approves once after a confirmation, and another operator's page follows live",
    async () => {
      const { rig } = setup;
      const id = await populate(rig);
      const ana = await watchedPage();
      const bo = await watchedPage(390);
      await signIn(ana.page, rig.url, await rig.relay.mintOperatorToken({ operator: "ana" }));
      await signIn(bo.page, rig.url, await rig.relay.mintOperatorToken({ operator: "bo" }));
      await expect(ana.page.locator("tr[data-href]").count()).resolves.toBe(2);

      // j, j, Enter: the second item (the approval), opened from the keyboard.
      await ana.page.keyboard.press("j");
      await ana.page.keyboard.press("j");
      await ana.page.keyboard.press("Enter");
      await ana.page.waitForURL(`${rig.url}/queue/items/${id}`);
      await expect(ana.page.locator("iframe.draft").getAttribute("sandbox")).resolves.toBe("");

      await bo.page.goto(`${rig.url}/queue/items/${id}`);
      await ana.page.keyboard.press("c");
      await ana.page.waitForURL(/done=claimed/);
      // Bo's page shows the claim without a reload.
      await bo.page.locator("#claim", { hasText: "claimed by ana" }).waitFor();

      await ana.page.keyboard.press("a");
      await ana.page.waitForURL(/done=sent/);
      await expect(ana.page.locator(".flash").textContent()).resolves.toContain("the draft was sent");
      await bo.page.locator("#live-region", { hasText: "This item is closed (approved by ana)" }).waitFor();
      expect(rig.transport.sent).toHaveLength(1);

      // A phone-width screen never scrolls sideways; nothing hostile ran anywhere.
      expect(await scrollWidth(bo.page)).toBeLessThanOrEqual(390);
      await bo.page.goto(`${rig.url}/queue/`);
      expect(await scrollWidth(bo.page)).toBeLessThanOrEqual(390);
      await ana.page.goto(`${rig.url}/queue/items/1`);
      for (const page of [ana.page, bo.page]) expect(await pwned(page)).toBeUndefined();
      expect([...ana.problems, ...bo.problems]).toEqual([]);
      for (const url of [...ana.requests, ...bo.requests]) expect(url.startsWith(`${rig.url}/`)).toBe(true);
    },
    120_000,
  );

  // The page docs/queue.md shows (WORKSPACE_SCREENSHOT=docs/queue.png): an ordinary escalation, so the
  // picture holds what an operator sees every day, and none of the hostile values the other tests use.
  it.skipIf(!runBrowser)(
    "shows an ordinary escalation's reason, typed facts and the model's note as text",
    async () => {
      const { rig } = setup;
      const note =
        "The customer says the parcel arrived with the lid crushed and asks for a replacement rather than a refund.";
      const { queueItemId } = await rig.outbox.handle({
        ticketId: "T-1042",
        runId: "run-7",
        output: { escalate: "needs_human", note },
        tags: { category: "damage" },
      });
      const ana = await watchedPage();
      await signIn(ana.page, rig.url, await rig.relay.mintOperatorToken({ operator: "ana" }));
      await ana.page.goto(`${rig.url}/queue/items/${queueItemId}`);
      await expect(ana.page.locator("h1").textContent()).resolves.toBe(`Queue item ${queueItemId}`);
      await ana.page.getByText(note, { exact: true }).waitFor();
      await ana.page.getByText("the model escalated: needs_human").waitFor();
      const html = await ana.page.content();
      expect(html).not.toMatch(/pwned|onerror|&lt;script/);
      if (process.env.WORKSPACE_SCREENSHOT)
        writeFileSync(process.env.WORKSPACE_SCREENSHOT, await ana.page.screenshot({ fullPage: false }));
      expect(ana.problems).toEqual([]);
    },
    120_000,
  );

  it.skipIf(!runBrowser)(
    "the list and item pages have no axe-core violations, wide and at 390 px",
    async () => {
      const { rig } = setup;
      const id = await populate(rig);
      const found: string[] = [];
      const { page } = await watchedPage(1280);
      await signIn(page, rig.url, await rig.relay.mintOperatorToken({ operator: "ana" }));
      for (const width of [1280, 390]) {
        // Each page is loaded again at the new width, in the same signed-in session.
        await page.setViewportSize({ width, height: 900 });
        for (const path of ["/queue/", `/queue/items/${id}`]) {
          await page.goto(`${rig.url}${path}`);
          for (const violation of await axeViolations(page)) found.push(`${width}px ${path} ${violation}`);
        }
      }
      expect(found).toEqual([]);
    },
    120_000,
  );
});
