/** Debian's Chromium for the page tests (the HTML report and the catalog preview). */
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

export const executablePath = "/usr/bin/chromium";
export const browserAvailable = existsSync(executablePath);
/** In CI the browser checks must run: a missing browser fails them instead of passing silently. */
export const browserRequired = process.env.CI === "true";

/** Launches headless Chromium with its background traffic off, so every request seen is the page's. */
export async function launchChromium(): Promise<Browser> {
  if (!browserAvailable) throw new Error(`no browser at ${executablePath}: apt-get install chromium`);
  return chromium.launch({
    executablePath,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
    ],
  });
}
